"""The Command Dice table partial: the cards, my pool, both fists (the other's hidden), the roll and
allocations in words."""

import json

import pytest

from cardgames import selectors, services
from cardgames.engine.command_dice.words import action_words
from cardgames.templatetags.command_dice import command_dice_board

pytestmark = pytest.mark.django_db

COLOURS = ["red", "white", "blue"]


def test_moves_in_words():
    table = ["3H", None, "5S"]
    assert action_words(["choose", 2, 1, 0], COLOURS, table) == "Roll 2 red, 1 white"
    allocation = ["allocate", ["R1", "W2"], [], ["B3", "B2"]]
    assert action_words(allocation, COLOURS, table) == "Take 3♥ with red 1 + white 2 and 5♠ with blue 3 + blue 2"
    assert action_words(["allocate", [], [], []], COLOURS, table) == "Take nothing: all dice back to the pool"


def test_the_board_puts_my_side_first_and_hides_the_other_fist(duel, player, rival):
    action = json.loads(selectors.match_table(match=duel, seat=1).actions[-1][1])
    services.match_act(match_id=duel.pk, seat=1, action=action, user=rival)
    duel.refresh_from_db()
    mine = command_dice_board(selectors.match_table(match=duel, seat=1))
    theirs = command_dice_board(selectors.match_table(match=duel, seat=0))
    assert [s["seat"] for s in mine["sides"]] == [1, 0]
    assert mine["sides"][0]["chosen"] == [(c, n) for c, n in zip(COLOURS, action[1:], strict=True) if n]
    assert theirs["sides"][1]["chosen"] == "chosen"
    assert [len(m["dice"]) for m in theirs["moves"]][:3] == [1, 1, 1]
    assert all(c["label"][-1] in "♥♦♣♠" for c in theirs["cards"])


def test_after_the_reveal_the_roll_and_allocations_show(duel, player, rival):
    for seat, user in ((0, player), (1, rival)):
        duel.refresh_from_db()
        action = json.loads(selectors.match_table(match=duel, seat=seat).actions[-1][1])
        services.match_act(match_id=duel.pk, seat=seat, action=action, user=user)
    duel.refresh_from_db()
    roller = selectors.match_table(match=duel, seat=None).view["roller"]
    board = command_dice_board(selectors.match_table(match=duel, seat=roller))
    assert board["roll"]
    assert all(d["colour"] in COLOURS for d in board["roll"])
    assert all(m["label"].startswith("Take") and not m["dice"] for m in board["moves"])
    assert all(isinstance(s["chosen"], list) for s in board["sides"])

