"""Unholy War button labels (`describe_action`) and cards counted from 1 in every text a person reads;
the actions keep their 0-based slots. Engine only, no database (the last test builds the layout's board
straight from the engine, as tests/cardgames/test_game_boards.py does)."""

from __future__ import annotations

import json
import random
import re
from types import SimpleNamespace

import pytest

from cardgames.engine.unholy_war import GAME
from cardgames.engine.unholy_war.table import AMBUSH, BACKLASH, COMMAND, UP
from gamekit.errors import RuleError

from .test_unholy_war import DECK, G, L, M, Z, new, play, table


def labels(st) -> dict[tuple, str]:
    return {a: GAME.describe_action(st, a) for a in GAME.legal_actions(st, st.cur)}


def random_states(seed: int, players: list[str], steps: int = 150):
    """The states of one random game (up to `steps` actions), each before the seat to move acts."""
    rng = random.Random(seed)
    st = GAME.new_game({}, players, seed=seed)
    for _ in range(steps):
        if GAME.is_over(st):
            return
        yield st
        GAME.apply(st, rng.choice(GAME.legal_actions(st, st.cur)), st.cur)


@pytest.mark.parametrize(("seed", "players"), [(s, ["amira", "bastian"]) for s in range(4)]
                         + [(s, ["amira", "bastian", "cyr"]) for s in (4, 5)])
def test_every_legal_action_of_random_games_has_its_own_label_telling_no_hidden_card(seed, players):
    """Hundreds of states: each legal action gets a distinct sentence; a determinized copy (every card
    the mover cannot see re-dealt) gets the same labels, so no label names a card hidden from the mover."""
    rng = random.Random(seed)
    for st in random_states(seed, players):
        found = labels(st)
        assert len(set(found.values())) == len(found), "two actions share a label"
        for action, label in found.items():
            assert label[:1].isupper(), (action, label)
            assert "('" not in label, (action, label)
            assert all(int(n) >= 1 for n in re.findall(r"card (\d+)", label)), label
        seen = GAME.determinize(st, st.cur, rng)
        assert labels(seen) == found


def test_strategy_labels():
    st = new([DECK, DECK], [2, 4, 4, 5, 5, 1, 1, 3, 4, 4])  # Tina has the Initiative
    assert GAME.to_move(st) == (1,)
    st.hand[1] = [Z, Z, M, M]
    assert labels(st) == {
        ("hurt",): "Hurt yourself: gain a die, shuffle your discard pile into your deck and draw",
        ("play", Z, "up"): "Play Zealot face up with 1 of your 5 dice",
        ("play", Z, "down"): "Play Zealot face down with 1 of your 5 dice",
        ("play", M, "up"): "Play Mercenary face up with 1 of your 5 dice",
        ("play", M, "down"): "Play Mercenary face down with 1 of your 5 dice",
    }
    play(st, ("play", Z, "down"), ("play", M, "up"), ("assign", 0), ("assign", 0))
    assert labels(st)[("assign", 1)] == "Assign a die to your Mercenary (card 2): 1 → 2 dice"
    assert labels(st)[("assign", 0)] == "Assign a die to your facedown Zealot (card 1): 3 → 4 dice"
    assert labels(st)[("play", Z, "up")] == "Play Zealot face up with your last die"
    play(st, ("assign", 1))
    assert labels(st) == {("bottom", Z): "Put Zealot on the bottom of your deck",
                          ("bottom", M): "Put Mercenary on the bottom of your deck"}


def command_position():
    """Jack: a face-up Zealot with 2 dice (Initiative) and a facedown Guardsman; Tina: a face-up Mercenary
    and a facedown Slime."""
    st, _ = table([[(Z, 2, 1, 0), (G, 1, 0, 0)], [(M, 1, 1, 0), (L, 2, 0, 0)]], [3, 3], rolls=[6, 6, 2])
    assert (st.phase, st.cur) == (COMMAND, 0)
    return st


def test_command_labels_name_cards_counted_from_one():
    found = labels(command_position())
    assert found[("pass", 0)] == "Pass with your Zealot (card 1): it Taps"
    assert found[("hide", 0, -1, 2, 1)] == "Hide your Zealot (card 1)"
    assert found[("hide", 0, 1, 1, 1)] == ("Hide your Zealot (card 1) with your facedown Guardsman (card 2): "
                                           "1 die on the Zealot, 2 on the Guardsman; the Zealot placed first")
    assert found[("hide", 0, 1, 2, 0)] == ("Hide your Zealot (card 1) with your facedown Guardsman (card 2): "
                                           "2 dice on the Zealot, 1 on the Guardsman; the Guardsman placed first")
    assert found[("engage", 0, "tap", 1, -1)] == "Engage Tina with your Zealot (card 1), tapping it"
    assert found[("engage", 0, "tap", 1, 0)] == "Engage Tina's Mercenary (card 1) with your Zealot (card 1), tapping it"
    assert found[("engage", 0, "die", 1, 1)] == ("Engage Tina's facedown card 2 with your Zealot (card 1), "
                                                 "removing one of its dice")
    assert len(found) == 2 + 4 + 2 * 3


def test_two_cards_of_a_kind_are_told_apart_by_number():
    st, _ = table([[(G, 1, 1, 0), (G, 1, 0, 0)], [(M, 1, 0, 0)]], [3, 3])
    assert GAME.describe_action(st, ("hide", 0, 1, 1, 0)) == (
        "Hide your Guardsman (card 1) with your facedown Guardsman (card 2): "
        "1 die on card 1, 1 on card 2; card 2 placed first")


def test_ambush_and_backlash_labels_and_event_texts_count_from_one():
    st = command_position()
    events = play(st, ("engage", 0, "tap", 1, -1))
    assert "Jack Taps Zealot (card 1)." in [e.text for e in events]
    assert (st.phase, st.cur) == (AMBUSH, 1)
    assert labels(st) == {("ambush", 1, "tap"): "Ambush Jack's Zealot (card 1) with your facedown Slime (card 2), "
                                                "tapping it",
                          ("ambush", 1, "die"): "Ambush Jack's Zealot (card 1) with your facedown Slime (card 2), "
                                                "removing one of its dice",
                          ("decline",): "No Ambush: the Engagement resolves"}
    events = play(st, ("ambush", 1, "die"))
    assert [e.text for e in events if e.kind == "ambush"] == ["Tina ambushes with facedown card 2."]
    assert [e.data for e in events if e.kind == "ambush"] == [{"seat": 1, "slot": 1, "target": [0, 0]}]
    assert labels(st)[("ambush", 1, "tap")] == ("Ambush Tina's facedown card 2 with your facedown Guardsman "
                                                "(card 2), tapping it")

    st, _ = table([[(Z, 2, 1, 0)], [(M, 1, 1, 1)]], [3, 1], rolls=[6, 2])
    events = play(st, ("engage", 0, "die", 1, -1))  # no Ambush possible: 6 + 3 against 2, Tina is Hit
    assert (st.phase, st.cur) == (BACKLASH, 0)
    assert ("Jack's Zealot (card 1) attacks Tina: Attack Roll 6, a total of 9, against Defense Roll 2, a total of "
            "2: Hit.") in [e.text for e in events]
    assert labels(st) == {("exert", "tap"): "Exert your Zealot (card 1) by tapping it",
                          ("exert", "die"): "Exert your Zealot (card 1) by removing one of its dice "
                                            "(its last: it is discarded)"}


def test_json_lists_are_read_as_actions():
    st = command_position()
    assert GAME.describe_action(st, ["engage", 0, "tap", 1, 0]) == GAME.describe_action(st, ("engage", 0, "tap", 1, 0))


@pytest.mark.parametrize("action", [("dance",), (), "pass", 7, ("pass", 1), ("pass", 9), ("decline",),
                                    ("engage", 0, "tap", 0, 0), ("engage", 0, "tap", 1, 5), ["hide", 0, 1, [1], 1],
                                    ("play", Z, "up")])
def test_an_action_that_is_not_legal_now_is_refused_with_a_sentence(action):
    with pytest.raises(RuleError) as error:
        GAME.describe_action(command_position(), action)
    assert error.value.message.endswith(".")


def test_no_label_once_the_game_is_over():
    st = command_position()
    st.phase = 4
    with pytest.raises(RuleError):
        GAME.describe_action(st, ("pass", 0))


@pytest.mark.parametrize("seed", range(6))
def test_event_texts_count_cards_from_one_and_the_data_keeps_the_slot(seed):
    rng = random.Random(seed)
    st = GAME.new_game({}, ["amira", "bastian"], seed=seed)
    while not GAME.is_over(st):
        for event in GAME.apply(st, rng.choice(GAME.legal_actions(st, st.cur)), st.cur):
            assert all(int(n) >= 1 for n in re.findall(r"card (\d+)", event.text)), event.text
            if event.kind in ("reveal", "exert", "ambush", "assign", "played"):
                assert f"card {event.data['slot'] + 1}" in event.text


def test_the_layout_shows_the_engines_labels_and_numbers_cards_from_one():
    from cardgames.selectors import TableView, action_label
    from cardgames.templatetags.unholy_war import unholy_war_board

    st = command_position()
    actions = [(action_label(GAME, st, a), json.dumps(a)) for a in GAME.legal_actions(st, 0)]
    board = unholy_war_board(TableView(match=SimpleNamespace(config={}), seat=0, view=GAME.view(st, 0),
                                       actions=actions, log=[], to_move=[0], over=False))
    shown = {m["label"] for group in board["groups"] for m in group["moves"]}
    assert shown == {label for label, _ in actions}
    assert [g["title"] for g in board["groups"]] == ["Your Zealot (card 1) has Initiative",
                                                     "Hide your Zealot (card 1) with a facedown card"]
    assert [c["number"] for c in board["sides"][0]["field"]] == ["card 1", "card 2"]
    assert not st.field[1][1][UP]
    play(st, ("engage", 0, "tap", 1, 0), ("ambush", 1, "tap"))

    def engagement(seat):
        return unholy_war_board(TableView(match=SimpleNamespace(config={}), seat=seat, view=GAME.view(st, seat),
                                          actions=[], log=[], to_move=[0], over=False))["engagement"]

    assert engagement(0) == "Tina's facedown card 2 engages Jack's Zealot (card 1)."
    assert engagement(1) == "Tina's facedown Slime (card 2) engages Jack's Zealot (card 1)."
