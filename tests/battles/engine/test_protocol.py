"""The game protocol: views that keep secrets, events tagged by who may see them, JSON round
trip, replay bit for bit, clones, determinize, rule errors, heuristic, random battles."""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from battles.engine import GAME
from battles.engine.state import STEPS
from gamekit.errors import RuleError
from gamekit.replay import GameRecord, record_of, replay

from .helpers import act, battle, texts, unit

CATALOGUE_PATH = Path(__file__).resolve().parents[3] / "campaign/catalogue/data/unit_catalogue.json"
CATALOGUE = json.loads(CATALOGUE_PATH.read_text())
BY_NAME = {u["name"]: u for u in CATALOGUE}


def army(names: list[str]) -> list[dict]:
    return [
        {
            "id": i,
            **{k: BY_NAME[n][k] for k in ("name", "strength", "role", "path", "traits", "effects")},
            "retinue": i == 1,
        }
        for i, n in enumerate(names, start=1)
    ]


ARMY_A = army(
    [
        "Spearmen",
        "Soldier",
        "Soldier",
        "Pikemen",
        "Knights",
        "Field Surgeon",
        "Siege Ram",
        "Rite of Steel",
        "Battle Mages",
        "Alchemy Lab",
        "Caltrops",
        "War Banner",
    ]
)
ARMY_B = army(
    [
        "Archers",
        "Rangers",
        "Griffon Riders",
        "Earth Elemental",
        "Druid Circle",
        "Giant Eagles",
        "Fire Elemental",
        "Skeleton Warriors",
        "Wraith",
        "Call of the Wild",
        "Spymaster",
        "Storm Call",
    ]
)


def full_config(power_a: str = "Evoker", power_b: str = "Illusionist", **extra) -> dict:
    return {
        "commanders": [
            {
                "name": "Ayla",
                "level": 6,
                "influence": 1,
                "is_player_character": True,
                "power": power_a,
                "tactician": "Rogue",
                "dervish": "Nature",
                "oathbound": 1,
                "units": ARMY_A,
            },
            {
                "name": "Borin",
                "level": 4,
                "power": power_b,
                "tactician": "Adept",
                "dervish": "Aggressor",
                "oathbound": 2,
                "units": ARMY_B,
            },
        ],
        **extra,
    }


def play_random(state, rng: random.Random, limit: int = 10_000):
    steps = 0
    while not GAME.is_over(state):
        seat = GAME.to_move(state)[0]
        GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)), seat)
        steps += 1
        assert steps < limit
    return state


def test_view_hides_the_other_hand_and_face_down_cards():
    st = battle([unit(1, "Secret", 2, "Healer"), unit(2)], [unit(1, "Hidden", 2, "Healer"), unit(2)], dice=[3, 2])
    act(st, ("play", 1))
    seen_by_b = GAME.view(st, 1)
    assert seen_by_b["skirmish"]["offense"] == {"face_down": True}
    assert seen_by_b["hand"] == [
        {"id": 1, "name": "Hidden", "strength": 2, "role": "Healer", "path": "Steel", "traits": [], "retinue": False,
         "text": ""},
        seen_by_b["hand"][1],
    ]
    assert seen_by_b["commanders"][0]["hand_count"] == 1
    assert "Secret" not in json.dumps(seen_by_b)
    assert "Secret" in json.dumps(GAME.view(st, 0))
    assert "Secret" not in json.dumps(GAME.view(st, None))
    act(st, ("play", 1))
    assert any(e["text"].startswith("Revealed: Secret") for e in GAME.view(st, 1)["events"])
    assert GAME.view(st, 1)["skirmish"] == {"offense": None, "defense": None}  # resolved: the next turn


def test_view_shows_both_cards_once_revealed():
    soldier = unit(3, effects=[{"when": "discard", "do": "add", "amount": 1, "to": "either"}])
    st = battle([unit(1, "Secret", 2, "Healer"), soldier], [unit(1, "Hidden", 2, "Healer")])
    act(st, ("play", 1), ("play", 1))
    assert STEPS[st.step] == "reaction"
    seen = GAME.view(st, 1)["skirmish"]
    assert seen["offense"]["name"] == "Secret"
    assert seen["defense"]["name"] == "Hidden"
    assert GAME.view(st, 0)["legal_actions"] == [["react", 3, "offense"], ["react", 3, "defense"], ["decline"]]


def test_events_are_tagged_with_who_may_see_them():
    st = battle([unit(1, "Secret", 2, "Healer"), unit(2)], [unit(1), unit(2)])
    events = act(st, ("play", 1))
    private = [e for e in events if "Secret" in e.text]
    assert private
    assert all(e.see == (0,) for e in private)
    assert all("Secret" not in e["text"] for e in GAME.view(st, 1)["events"])


def test_verbose_off_returns_no_event_text():
    state = GAME.new_game(full_config(verbose=False), ["a", "b"], seed=3)
    play_random(state, random.Random(3))
    assert state.log == []
    assert GAME.is_over(state)


def test_dump_load_round_trip_is_json_and_continues_identically():
    rng = random.Random(5)
    state = GAME.new_game(full_config(), ["a", "b"], seed=5)
    for _ in range(15):
        seat = GAME.to_move(state)[0]
        GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)), seat)
    data = json.loads(json.dumps(GAME.dump(state)))
    loaded = GAME.load(data)
    assert GAME.dump(loaded) == GAME.dump(state)
    a, b = random.Random(9), random.Random(9)
    play_random(state, a)
    play_random(loaded, b)
    assert GAME.dump(loaded) == GAME.dump(state)


@pytest.mark.parametrize("seed", range(6))
def test_replay_reproduces_state_and_event_texts_bit_for_bit(seed):
    state = GAME.new_game(full_config(), ["a", "b"], seed=seed)
    play_random(state, random.Random(seed))
    record = GameRecord.from_dict(json.loads(json.dumps(record_of(GAME, state).as_dict())))
    again, events = replay(GAME, record)
    assert [e.text for batch in events for e in batch] == [e.text for e in state.log[1:]]
    mine, theirs = GAME.dump(state), GAME.dump(again)
    for d in (mine, theirs):
        d.pop("dice")
        d.pop("seed")
    assert mine == theirs
    assert GAME.result(again) == GAME.result(state)


def test_clone_is_independent_and_has_its_own_dice():
    state = GAME.new_game(full_config(), ["a", "b"], seed=1)
    clone = GAME.clone(state)
    play_random(clone, random.Random(2))
    assert not GAME.is_over(state)
    assert state.actions == []
    assert len(state.dice.log) == 1  # only the roll for who chooses the first turn
    assert clone.dice.log is None  # the clone's own, unlogged stream


def test_determinize_keeps_what_the_player_saw():
    state = GAME.new_game(full_config(), ["a", "b"], seed=4)
    act(state, ("first", 0))
    act(state, ("play", 2))
    for seed in range(10):
        d = GAME.determinize(state, 1, random.Random(seed))
        assert GAME.view(d, 1)["hand"] == GAME.view(state, 1)["hand"]
        assert sorted(d.where) == sorted(state.where)
    play_random(GAME.determinize(state, 1, random.Random(0)), random.Random(0))


def test_rule_errors_name_the_rule_and_say_what_to_do():
    st = battle([unit(1), unit(2)], [unit(1)])
    with pytest.raises(RuleError) as err:
        GAME.apply(st, ("play", 1), 1)
    assert err.value.rule == "turn"
    with pytest.raises(RuleError) as err:
        act(st, ("play", 42))
    assert err.value.rule == "Units"
    assert "choose one" in err.value.message
    with pytest.raises(RuleError) as err:
        act(st, ("react", 2))
    assert err.value.rule == "Discard"
    act(st, ["play", 1])  # JSON lists are accepted
    assert STEPS[st.step] == "defense"


def test_actions_are_stable_and_json_able():
    state = GAME.new_game(full_config(), ["a", "b"], seed=8)
    rng = random.Random(8)
    while not GAME.is_over(state):
        seat = GAME.to_move(state)[0]
        actions = GAME.legal_actions(state, seat)
        assert actions == GAME.legal_actions(state, seat)
        assert json.loads(json.dumps(actions)) == [list(a) for a in actions]
        assert GAME.legal_actions(state, 1 - seat) == []
        GAME.apply(state, rng.choice(actions), seat)
    assert GAME.legal_actions(state, 0) == []


def test_heuristic_is_in_range_and_sign_of_the_winner():
    state = GAME.new_game(full_config(), ["a", "b"], seed=2)
    rng = random.Random(2)
    while not GAME.is_over(state):
        for seat in (0, 1):
            assert -1.0 <= GAME.heuristic(state, seat) <= 1.0
        seat = GAME.to_move(state)[0]
        GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)), seat)
    w = GAME.result(state)["winner"]
    assert GAME.heuristic(state, w) == 1.0
    assert GAME.heuristic(state, 1 - w) == -1.0


POWER_PAIRS = st_.sampled_from(
    [
        "Tactician",
        "Battlemage",
        "Oathbound",
        "Shapeshifter",
        "Adept",
        "Chirurgeon",
        "Necromancer",
        "Cleric",
        "Animist",
        "Mender",
        "Master of Arms",
        "Evoker",
        "Dervish",
        "Scout",
        "Psionicist",
        "Rogue",
        "Illusionist",
        "Chaplain",
        "Shaman",
        "Etherealist",
    ]
)


@settings(max_examples=60, deadline=None)
@given(seed=st_.integers(0, 10_000), power_a=POWER_PAIRS, power_b=POWER_PAIRS)
def test_random_battles_with_every_power_end_with_a_winner(seed, power_a, power_b):
    state = GAME.new_game(full_config(power_a, power_b), ["a", "b"], seed=seed)
    play_random(state, random.Random(seed))
    result = GAME.result(state)
    assert result["winner"] in (0, 1)
    assert all(e.text for e in state.log)
    assert sum(result["kills"]) == sum(len(k) for k in result["killed"])
    assert texts(state.log)[-1].startswith("The Battle ends")
