"""Unity's side of the game protocol: views, events, errors, storage, replay, copies, search."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from cardgames.engine.unity import GAME, HOUSE_RULES, dealing
from cardgames.engine.unity.deck import POWER_FLAGS, default_data
from gamekit.errors import RuleError
from gamekit.protocol import as_action
from gamekit.replay import GameRecord, record_of, replay

from .unity_tables import cid, new

NAMES = ["Ann", "Ben", "Cat"]


def played(seed=4, players=3, steps=60, **config):
    """A game after `steps` random legal actions."""
    state = GAME.new_game(config, [f"p{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(state):
            break
        (seat,) = GAME.to_move(state)
        GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)), seat)
    return state


def test_the_default_deck_holds_every_named_card_with_its_power():
    cards = {c["name"]: c for c in default_data()["cards"]}
    powers = {"David": "david", "Asherah Pole": "pole", "God's Judgement": "judgement", "God's Glory": "glory",
              "Trinity": "trinity", "Unity": "unity", "Shofar": "shofar", "Michael": "angel"}
    for name, power in powers.items():
        assert cards[name]["power"] == power
        assert power in POWER_FLAGS
    for name in ("Goliath", "Idol", "Sandals of Peace"):
        assert name in cards
    assert cards["David"]["defeats"] == "Goliath"
    assert GAME.new_game({}, NAMES[:2], seed=1).deck.ncards == 105


def test_a_view_shows_only_your_hand_and_counts_of_the_rest():
    state = new([["Legion", "Abraham"], ["Moses", "Noah"], ["Ruth", "Esther"]])
    view = GAME.view(state, 1)
    assert [c["name"] for c in view["hand"]] == ["Moses", "Noah"]
    assert view["hand_counts"] == [2, 2, 2]
    assert view["draw_pile"] == state.deck.ncards - 6
    text = json.dumps(view)
    assert "Legion" not in text
    assert "Ruth" not in text
    spectator = GAME.view(state, None)
    assert "hand" not in spectator
    assert "Moses" not in json.dumps(spectator)


def test_a_selection_is_seen_only_by_its_player():
    state = new([["Legion", "Abaddon"], ["Moses", "Noah"]])
    events = GAME.apply(state, ("pick", cid(state, 0, "Legion")), 0)
    assert [e.see for e in events] == [(0,)]
    assert GAME.view(state, 0)["selection"] == [cid(state, 0, "Legion")]
    assert GAME.view(state, 1)["selection"] == []


def test_a_drawn_card_is_seen_only_by_its_drawer():
    state = new([["Beelzebub", "Abraham"], ["Greed", "Deceit"]], top=["Korah"])
    GAME.apply(state, ("pick", cid(state, 0, "Beelzebub")), 0)
    GAME.apply(state, ("play",), 0)
    events = GAME.apply(state, ("draw",), 1)
    private = [e for e in events if e.kind == "drew"]
    public = [e for e in events if e.kind == "draws"]
    assert private[0].see == (1,)
    assert private[0].data["cards"] == [cid(state, 1, "Korah")]
    assert public[0].see is None
    assert public[0].data == {"seat": 1, "count": 1}
    assert "Korah" in private[0].text
    assert "Korah" not in public[0].text


def test_event_text_can_be_switched_off():
    state = new([["Legion", "Abraham"], ["Moses", "Noah"]], verbose=False)
    events = GAME.apply(state, ("pick", cid(state, 0, "Legion")), 0) + GAME.apply(state, ("play",), 0)
    assert events
    assert all(e.text == "" for e in events)
    assert HOUSE_RULES["verbose"] is True


def test_refusals_name_the_rule():
    state = new([["Legion", "Abraham"], ["Moses", "Noah"]])
    cases = [((("pick", cid(state, 1, "Moses")), 0), "hand"), ((("pick", cid(state, 0, "Legion")), 1), "turn"),
             ((("shuffle",), 0), "action"), ((("play",), 0), "play"), ((("decline",), 0), "free-turn"),
             (("play", 0), "action")]
    for (action, seat), rule in cases:
        with pytest.raises(RuleError) as err:
            GAME.apply(state, action, seat)
        assert err.value.rule == rule
        assert err.value.message.endswith(".")
    over = new([["Solomon", "Josiah"], ["Moses", "Noah"]])
    for c in sorted(over.hands[0]):
        GAME.apply(over, ("pick", c), 0)
    GAME.apply(over, ("play",), 0)
    with pytest.raises(RuleError) as err:
        GAME.apply(over, ("play",), 1)
    assert err.value.rule == "over"


def test_a_festival_card_is_celebrated_not_picked():
    state = new([["Passover", "Abraham"], ["Moses", "Noah"]])
    with pytest.raises(RuleError) as err:
        GAME.apply(state, ("pick", cid(state, 0, "Passover")), 0)
    assert err.value.rule == "festival"


@pytest.mark.parametrize(("config", "rule"), [({"deck_order": [0, 1, 2]}, "deck_order"),
                                              ({"hand_size": 0}, "hand_size"), ({"hand_size": 60}, "hand_size"),
                                              ({"max_turns": 0}, "max_turns")])
def test_house_rules_and_a_fixed_deck_order_are_checked(config, rule):
    with pytest.raises(RuleError) as err:
        GAME.new_game(config, NAMES[:2], seed=1)
    assert err.value.rule == rule


@pytest.mark.parametrize(("deck", "says"), [({}, "'categories' is missing"), ([], "wrong type"),
                                             ({"categories": {}, "cards": [{"name": "Imp", "category": "Demon",
                                                                            "value": 3}]}, "unknown category"),
                                             ({"categories": {"Demon": {"side": "evil"}},
                                               "cards": [{"name": "Imp", "category": "Demon", "value": 3,
                                                          "copies": 10**6}]}, "copies is a whole number")])
def test_a_deck_that_cannot_be_read_is_refused_with_what_to_write(deck, says):
    with pytest.raises(RuleError, match=says) as err:
        GAME.new_game({"deck": deck}, NAMES, seed=1)
    assert err.value.rule == "deck"


def test_legal_actions_are_stable_json_and_accepted_back_from_json():
    state = played(steps=25)
    (seat,) = GAME.to_move(state)
    legal = GAME.legal_actions(state, seat)
    assert legal == GAME.legal_actions(state, seat)
    assert legal == GAME.legal_actions(GAME.load(GAME.dump(state)), seat)
    back = as_action(json.loads(json.dumps(legal[0])))
    GAME.apply(state, back, seat)


def test_dump_and_load_round_trip_through_json():
    state = played(steps=80)
    data = json.loads(json.dumps(GAME.dump(state)))
    loaded = GAME.load(data)
    assert GAME.dump(loaded) == GAME.dump(state)
    rng_a, rng_b = random.Random(9), random.Random(9)
    for _ in range(40):
        if GAME.is_over(state):
            break
        (seat,) = GAME.to_move(state)
        ea = GAME.apply(state, rng_a.choice(GAME.legal_actions(state, seat)), seat)
        eb = GAME.apply(loaded, rng_b.choice(GAME.legal_actions(loaded, seat)), seat)
        assert [e.as_dict() for e in ea] == [e.as_dict() for e in eb]
    assert GAME.dump(loaded) == GAME.dump(state)


def test_a_record_replays_bit_for_bit():
    state = GAME.new_game({}, NAMES, seed=11)
    rng = random.Random(2)
    events = []
    while not GAME.is_over(state):
        (seat,) = GAME.to_move(state)
        events.append(GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)), seat))
    record = GameRecord.from_dict(json.loads(json.dumps(record_of(GAME, state).as_dict())))
    again, again_events = replay(GAME, record)
    assert again.dice.log == state.dice.log
    assert {**GAME.dump(again), "dice": None} == {**GAME.dump(state), "dice": None}
    assert [[e.as_dict() for e in es] for es in again_events] == [[e.as_dict() for e in es] for es in events]
    assert GAME.result(again) == GAME.result(state)


def test_a_clone_is_independent_with_its_own_dice():
    state = played(steps=30)
    before = GAME.dump(state)
    copy = GAME.clone(state)
    assert copy.dice is not state.dice
    assert copy.dice.log is None
    for _ in range(30):
        if GAME.is_over(copy):
            break
        (seat,) = GAME.to_move(copy)
        GAME.apply(copy, GAME.legal_actions(copy, seat)[-1], seat)
    assert GAME.dump(state) == before


def test_determinize_keeps_what_the_player_has_seen():
    state = new([["Legion", "Abaddon", "Moses"], ["God's Glory", "Ruth", "Greed"], ["Noah", "Esther", "Daniel"]])
    for c in sorted(cid(state, 0, name) for name in ("Abaddon", "Legion")):
        GAME.apply(state, ("pick", c), 0)
    GAME.apply(state, ("play",), 0)
    GAME.apply(state, ("glory", cid(state, 1, "God's Glory")), 1)
    deals = set()
    for seed in range(5):
        guess = GAME.determinize(state, 2, random.Random(seed))
        assert guess.hands[2] == state.hands[2]
        assert [len(h) for h in guess.hands] == [len(h) for h in state.hands]
        assert {guess.deck.name[c] for c in guess.hands[0]} >= {"Legion", "Abaddon"}, "seen going back"
        assert GAME.view(guess, 2) == GAME.view(state, 2)
        deals.add(tuple(guess.hands[1]))
    assert len(deals) > 1


def test_a_determinized_world_draws_every_unseen_card_alike():
    """The pile's order is settled only as it is drawn, yet each card the viewer has not seen (the pile and the
    other hand) comes up as the first draw equally often: about 100 times in 100 draws per card."""
    state = GAME.new_game({}, ["Ann", "Bob"], seed=5)
    unseen = set(range(state.deck.ncards)) - set(state.hands[0])
    rng, drawn = random.Random(1), Counter()
    for _ in range(100 * len(unseen)):
        world = GAME.quiet.determinize(state, 0, rng)
        assert world.loose == len(world.pile)
        before = set(world.hands[0])
        dealing.draw(world, 0, 1, [])
        drawn[(set(world.hands[0]) - before).pop()] += 1
    assert set(drawn) == unseen
    assert all(60 <= count <= 140 for count in drawn.values()), sorted(drawn.values())


def test_heuristic_is_within_bounds_and_knows_the_winner():
    state = played(steps=50)
    for seat in range(3):
        assert -1.0 <= GAME.heuristic(state, seat) <= 1.0
    won = new([["Solomon", "Josiah"], ["Moses", "Noah"]])
    for c in sorted(won.hands[0]):
        GAME.apply(won, ("pick", c), 0)
    GAME.apply(won, ("play",), 0)
    assert GAME.heuristic(won, 0) == 1.0
    assert GAME.heuristic(won, 1) == -1.0
    assert GAME.to_move(won) == ()
    assert GAME.legal_actions(won, 0) == []


def test_the_quiet_game_plays_the_same_rules_without_text():
    loud, quiet = played(steps=20), played(steps=20)
    assert GAME.quiet.quiet is GAME.quiet
    assert GAME.quiet.name == GAME.name
    rng = random.Random(3)
    for _ in range(30):
        if GAME.is_over(loud):
            break
        (seat,) = GAME.to_move(loud)
        action = rng.choice(GAME.legal_actions(loud, seat))
        a, b = GAME.apply(loud, action, seat), GAME.quiet.apply(quiet, action, seat)
        assert [(e.kind, e.see, e.data) for e in a] == [(e.kind, e.see, e.data) for e in b]
        assert all(e.text == "" for e in b)
        assert all(e.text for e in a)
    assert GAME.dump(loud) == GAME.dump(quiet)


def test_a_festival_view_names_the_festival_and_who_still_celebrates():
    state = new([["Passover", "Legion", "Abraham"], ["Moses", "Abaddon", "Esther"]])
    GAME.apply(state, ("festival", cid(state, 0, "Passover")), 0)
    view = GAME.view(state, 1)
    assert view["festival"] == {"name": "Passover", "asks_for": ["Demon"], "host": 0, "waiting": [0, 1],
                                "text": "The destroyer passes over: each player discards one Demon card."}
    assert view["discards"]["festival"][0]["name"] == "Passover"
