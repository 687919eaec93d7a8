"""Unholy War and the game protocol: errors, views, events, replay, dump/load, clone, determinize."""

from __future__ import annotations

import json
import random

import pytest

from cardgames.engine.unholy_war import GAME
from gamekit.dice import Dice
from gamekit.errors import RuleError
from gamekit.events import EVERYONE
from gamekit.replay import record_of, replay

from .test_unholy_war import DECK, G, M, S, Z, new, play, table


def random_game(seed: int, moves: int | None = None, players=("A", "B"), verbose=True):
    """A random game (choices seeded too); all events; stops after `moves` actions if given."""
    st = GAME.new_game({"verbose": verbose}, list(players), seed=seed)
    pick = random.Random(seed)
    events = [list(st.opening_events)]
    while not GAME.is_over(st) and (moves is None or len(st.actions) < moves):
        seat = GAME.to_move(st)[0]
        events.append(GAME.apply(st, pick.choice(GAME.legal_actions(st, seat)), seat))
    return st, events


def test_module_level_game_and_name():
    assert GAME.name == "unholy-war"


def test_legal_actions_are_json_able_and_stable():
    st, _ = random_game(4, moves=40)
    seat = GAME.to_move(st)[0]
    first = GAME.legal_actions(st, seat)
    assert first == GAME.legal_actions(st, seat)
    assert json.loads(json.dumps(first)) == [list(a) for a in first]
    assert GAME.legal_actions(st, 1 - seat) == []


@pytest.mark.parametrize(("action", "rule"), [
    (("play", 9, "up"), "hand"),
    (("play", Z, "sideways"), "action"),
    (("assign", 0), "assign"),
    (("pass", 0), "phase"),
    (("bottom", Z), "dice"),
    ("hurt", "action"),
    ((), "action"),
    (("play", [Z], "up"), "action"),
    (("play", 9.5, "up"), "action"),
    (([1],), "phase"),
])
def test_illegal_strategy_actions_raise_a_rule_error_and_change_nothing(action, rule):
    st = new([DECK, DECK], [6, 6, 6, 6, 6, 2, 2, 2, 2, 2])
    before = GAME.dump(st)
    with pytest.raises(RuleError) as err:
        GAME.apply(st, action, 0)
    assert err.value.rule == rule
    assert err.value.message.endswith(".")
    assert GAME.dump(st) == before


def test_acting_out_of_turn_is_refused():
    st = new([DECK, DECK], [6, 6, 6, 6, 6, 2, 2, 2, 2, 2])
    with pytest.raises(RuleError) as err:
        GAME.apply(st, ("play", Z, "up"), 1)
    assert err.value.rule == "turn"
    assert "Jack" in err.value.message


@pytest.mark.parametrize(("action", "rule"), [
    (("pass", 1), "initiative"),
    (("engage", 0, "tap", 0, -1), "engage"),
    (("engage", 0, "tap", 1, 5), "engage"),
    (("hide", 0, -1, 1, 1), "hide"),
    (("hide", 0, 0, 1, 1), "hide"),
    (("ambush", 0, "tap"), "phase"),
])
def test_illegal_command_actions_name_the_rule(action, rule):
    st, _ = table([[(Z, 2, 1, 0), (M, 1, 1, 0)], [(S, 1, 0, 0)]], [0, 0])
    with pytest.raises(RuleError) as err:
        GAME.apply(st, action, 0)
    assert err.value.rule == rule


def test_an_ambush_must_use_a_facedown_card_that_can_pay():
    st, _ = table([[(Z, 2, 1, 0)], [(M, 1, 1, 0), (S, 1, 0, 0), (G, 3, 1, 1)]], [0, 0])
    play(st, ("engage", 0, "tap", 1, 0))
    for action in [("ambush", 0, "tap"), ("ambush", 2, "tap"), ("ambush", 1, "die")]:
        with pytest.raises(RuleError):
            GAME.apply(st, action, 1)


def test_a_view_hides_the_other_hands_their_facedown_cards_and_deck_order():
    st, _ = table([[(Z, 2, 1, 0), (G, 1, 0, 0)], [(S, 1, 0, 0), (M, 1, 1, 0)]], [0, 0],
                  decks=[[M, S], [Z, G]])
    st.hand = [[S], [Z, Z]]
    jack = GAME.view(st, 0)
    assert jack["players"][0]["hand"] == [S]
    assert jack["players"][1]["hand"] is None
    assert jack["players"][1]["hand_size"] == 2
    assert [c["card"] for c in jack["players"][0]["field"]] == [Z, G]
    assert [c["card"] for c in jack["players"][1]["field"]] == [None, M]
    assert jack["players"][1]["deck_size"] == 2
    assert "deck" not in jack["players"][1]
    spectator = GAME.view(st, None)
    assert all(p["hand"] is None for p in spectator["players"])
    assert [c["card"] for c in spectator["players"][0]["field"]] == [Z, None]
    json.dumps(jack)


def test_events_about_hidden_cards_are_shown_only_to_their_owner():
    st = new([DECK, DECK], [6, 6, 6, 6, 6, 2, 2, 2, 2, 2])
    drew = [e for e in st.opening_events if e.kind == "drew"]
    assert [e.see for e in drew] == [(0,), (1,)]
    events = play(st, ("play", G, "down"))
    public = [e for e in events if e.see is EVERYONE]
    assert public[0].data["card"] is None
    assert "Guardsman" not in public[0].text
    assert [e.kind for e in events if e.visible_to(1)] == ["play"]
    assert [e.kind for e in events if e.visible_to(0)] == ["play", "played"]


def test_readable_events_can_be_switched_off():
    st, events = random_game(5, moves=60, verbose=False)
    assert all(e == [] for e in events)
    assert len(st.actions) == 60


def test_replay_reproduces_the_same_state_and_events():
    st, events = random_game(11)
    record = record_of(GAME, st)
    again, replayed = replay(GAME, type(record).from_dict(json.loads(json.dumps(record.as_dict()))))
    assert GAME.dump(again) == GAME.dump(st)
    assert [[e.as_dict() for e in batch] for batch in replayed] == [[e.as_dict() for e in b] for b in events[1:]]
    assert again.opening_events == st.opening_events


def test_replay_part_way():
    st, _ = random_game(12, moves=50)
    half, _ = replay(GAME, record_of(GAME, st), upto=25)
    st25, _ = random_game(12, moves=25)
    assert GAME.dump(half) == GAME.dump(st25)


def test_dump_load_round_trips_through_json_and_plays_on_identically():
    st, _ = random_game(13, moves=70)
    loaded = GAME.load(json.loads(json.dumps(GAME.dump(st))))
    assert GAME.dump(loaded) == GAME.dump(st)
    pick = random.Random(99)
    for _ in range(40):
        if GAME.is_over(st):
            break
        seat = GAME.to_move(st)[0]
        action = pick.choice(GAME.legal_actions(st, seat))
        assert [e.as_dict() for e in GAME.apply(st, action, seat)] == \
            [e.as_dict() for e in GAME.apply(loaded, action, seat)]
    assert GAME.dump(loaded) == GAME.dump(st)


def test_clone_is_independent_and_has_its_own_unlogged_dice():
    st, _ = random_game(14, moves=30)
    before = GAME.dump(st)
    copy = GAME.clone(st)
    assert copy.dice is not st.dice
    assert copy.dice.log is None
    pick = random.Random(1)
    while not GAME.is_over(copy):
        seat = GAME.to_move(copy)[0]
        GAME.apply(copy, pick.choice(GAME.legal_actions(copy, seat)), seat)
    assert GAME.dump(st) == before


def test_determinize_keeps_what_the_player_has_seen():
    st, _ = table([[(Z, 2, 1, 0), (G, 1, 0, 0)], [(S, 1, 0, 0), (M, 1, 1, 0), (Z, 2, 0, 1)]], [0, 0],
                  decks=[[M, S, G], [Z, G, G, S]])
    st.hand = [[S], [Z, Z]]
    rng = random.Random(3)
    seen = set()
    for _ in range(30):
        guess = GAME.determinize(st, 0, rng)
        assert GAME.view(guess, 0) == GAME.view(st, 0)
        assert guess.hand[0] == st.hand[0]
        assert guess.field[0] == st.field[0]
        assert sorted(guess.deck[0]) == sorted(st.deck[0])
        theirs = guess.hand[1] + guess.deck[1] + [c[0] for c in guess.field[1]]
        assert sorted(theirs) == sorted(st.hand[1] + st.deck[1] + [c[0] for c in st.field[1]])
        assert guess.field[1][1] == (M, 1, 1, 0)
        seen.add(tuple(guess.hand[1]))
    assert len(seen) > 1


def test_heuristic_is_between_minus_one_and_one_and_decides_at_the_end():
    st, _ = random_game(15)
    winner = GAME.result(st)["winner"]
    if winner is not None:
        assert GAME.heuristic(st, winner) == 1.0
        assert GAME.heuristic(st, 1 - winner) == -1.0
    mid, _ = random_game(15, moves=80)
    assert all(-1 < GAME.heuristic(mid, s) < 1 for s in (0, 1))


def test_heuristic_prefers_dice_to_spare():
    st, _ = table([[(Z, 2, 1, 0)], [(S, 1, 1, 0)]], [0, 6])
    assert GAME.heuristic(st, 0) > 0 > GAME.heuristic(st, 1)


def test_result_before_the_end():
    st = new([DECK, DECK], [6, 6, 6, 6, 6, 2, 2, 2, 2, 2])
    assert GAME.result(st) == {"winner": None, "scores": [0.0, 0.0], "rounds": 1, "defeated": [False, False]}


def test_scripted_dice_from_a_real_table_are_used_as_given():
    st = GAME.new_game({}, ["Jack", "Tina"], dice=Dice.scripted([10, 9, 8, 7, 6, 5, 4, 3, 2] * 2
                                                                   + [2, 4, 4, 5, 5, 1, 1, 3, 4, 4]))
    assert GAME.to_move(st) == (1,)
    assert record_of(GAME, st).chance[-10:] == [2, 4, 4, 5, 5, 1, 1, 3, 4, 4]
