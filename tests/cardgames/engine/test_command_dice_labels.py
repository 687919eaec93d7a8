"""Command Dice button labels (`describe_action`): the dice held in the fist, or the cards each allocation
takes with which dice. Engine only, no database (the last test builds the layout's board straight from the
engine, as tests/cardgames/test_game_boards.py does for the other games)."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest

from cardgames.engine.command_dice import GAME
from cardgames.engine.command_dice.words import action_words
from gamekit.dice import Dice
from gamekit.errors import RuleError

from .test_command_dice import ANN, BOB, B, R, W, both_choose, start


@pytest.mark.parametrize("seed", range(5))
def test_every_legal_action_of_random_games_has_its_own_label(seed):
    """Each mover's legal actions, in every state of whole random games (hundreds of states), get distinct
    sentences: a choice says the dice, an allocation the cards taken."""
    rng = random.Random(seed)
    state = GAME.new_game({}, ["Ann", "Bob"], seed=seed)
    states = 0
    while not GAME.is_over(state):
        for seat in GAME.to_move(state):
            actions = GAME.legal_actions(state, seat)
            found = [GAME.describe_action(state, a) for a in actions]
            assert len(set(found)) == len(found), found
            for action, label in zip(actions, found, strict=True):
                assert label.startswith("Roll " if action[0] == "choose" else "Take "), label
            GAME.apply(state, rng.choice(actions), seat)
            states += 1
    assert states > 60


def test_choice_labels_say_the_dice_held_by_colour():
    state = start()
    found = [GAME.describe_action(state, a) for a in GAME.legal_actions(state, ANN)]
    assert found[:4] == ["Roll 1 red", "Roll 1 white", "Roll 1 blue", "Roll 2 red"]
    assert "Roll 2 red, 1 white, 1 blue" in found
    assert GAME.describe_action(state, ["choose", 0, 2, 1]) == "Roll 2 white, 1 blue"  # a JSON list


def test_allocation_labels_name_the_cards_taken_and_the_dice_on_them():
    state = start(("1H", "3C", "6D"), rolls=(R[1], B[3]))
    both_choose(state, (1, 0, 1), (3, 0, 0))
    assert [GAME.describe_action(state, a) for a in GAME.legal_actions(state, ANN)] == [
        "Take 3♣ with blue 3", "Take 1♥ with red 1", "Take 1♥ with red 1 and 3♣ with blue 3"]
    assert GAME.describe_action(state, ["allocate", ["R1"], ["B3"], []]) == "Take 1♥ with red 1 and 3♣ with blue 3"


def test_when_no_card_can_be_defeated_every_die_goes_back():
    state = start(("4H", "3C", "5D"), rolls=(R[1], R[0], R[1], W[1], B[1]))
    both_choose(state, (2, 0, 0), (1, 1, 1))
    assert GAME.describe_action(state, ("allocate", (), (), ())) == "Take nothing: all dice back to the pool"


def test_a_card_name_on_the_table_twice_is_told_apart_by_its_place():
    assert action_words(["allocate", ["R2"], [], ["W2"]], ["red", "white"], ["2H", "5S", "2H"]) == \
        "Take 2♥ in place 1 with red 2 and 2♥ in place 3 with white 2"


@pytest.mark.parametrize("action", [("dance",), (), "choose", None, ("choose", 0, 0, 0), ("choose", 5, 0, 0),
                                    ("choose", [1], 0, 0), ("allocate", ("R1",), (), ())])
def test_an_action_no_seat_may_take_now_is_refused_with_a_sentence(action):
    with pytest.raises(RuleError) as error:
        GAME.describe_action(start(), action)
    assert error.value.message.endswith(".")


def test_a_choice_is_refused_while_allocating_and_anything_once_the_game_is_over():
    state = start(("1H", "3C", "6D"), rolls=(R[1], B[3]))
    both_choose(state, (1, 0, 1), (3, 0, 0))
    with pytest.raises(RuleError):
        GAME.describe_action(state, ("choose", 1, 0, 0))
    with pytest.raises(RuleError):
        GAME.describe_action(state, ("allocate", ("R1",), ("R1",), ()))
    over = GAME.new_game({}, ["Ann", "Bob"], seed=1)
    rng = random.Random(1)
    while not GAME.is_over(over):
        for seat in GAME.to_move(over):
            GAME.apply(over, rng.choice(GAME.legal_actions(over, seat)), seat)
    for action in (("choose", 1, 0, 0), ("allocate", (), (), ())):
        with pytest.raises(RuleError):
            GAME.describe_action(over, action)


def test_the_layout_shows_the_engines_labels():
    from cardgames.selectors import TableView, action_label
    from cardgames.templatetags.command_dice import command_dice_board

    state = GAME.new_game({}, ["Ann", "Bob"], dice=Dice(5))
    actions = [(action_label(GAME, state, a), json.dumps(a)) for a in GAME.legal_actions(state, BOB)]
    board = command_dice_board(TableView(match=SimpleNamespace(config={}), seat=BOB, view=GAME.view(state, BOB),
                                         actions=actions, log=[], to_move=[ANN, BOB], over=False))
    assert [(m["label"], m["action"]) for m in board["moves"]] == actions
    assert board["moves"][0]["label"] == "Roll 1 red"
