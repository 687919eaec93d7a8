"""Every rule of command-dice-battle.txt (with RULINGS.md), played with scripted dice and decks."""

from __future__ import annotations

import pytest

from cardgames.engine.command_dice import DEFAULT_CONFIG, GAME, CommandDiceState, shuffle_outcomes
from gamekit.dice import Dice
from gamekit.errors import RuleError

CARDS: list[str] = DEFAULT_CONFIG["battle_deck"]
ANN, BOB = 0, 1
RED_TO_BOB, BLACK_TO_BOB = 1, 15
"""Outcomes of the side deal: the 1st side card is the 7 of hearts, the 15th the 7 of clubs."""
R = {0: 1, 1: 3, 2: 6}
W = {0: 1, 1: 2, 2: 5}
B = {1: 1, 2: 4, 3: 6}
"""The d6 outcome that shows a given number of swords on a red, white or blue die."""
ANY_ORDER = shuffle_outcomes(CARDS, CARDS)
"""A Round's shuffle (any order will do)."""


def start(cards: tuple[str, ...] = ("2H", "3C", "5D"), *, bob_red: bool = True,
          rolls: tuple[int, ...] = ()) -> CommandDiceState:
    """A new game whose Battle Deck begins with `cards`, then the scripted `rolls`."""
    deck = [*cards, *(c for c in CARDS if c not in cards)]
    script = [RED_TO_BOB if bob_red else BLACK_TO_BOB, *shuffle_outcomes(CARDS, deck), *rolls]
    return GAME.new_game({}, ["Ann", "Bob"], dice=Dice.scripted(script))


def position(rolls: tuple[int, ...] = (), **fields: object) -> CommandDiceState:
    """A game part-way through a Round (fields as in a dump), with scripted dice from here on."""
    data = GAME.dump(start())
    data.update(fields)
    state = GAME.load(data)
    state.dice = Dice.scripted(rolls)
    return state


def both_choose(state: CommandDiceState, ann: tuple[int, int, int], bob: tuple[int, int, int]) -> list:
    return GAME.apply(state, ("choose", *ann), ANN) + GAME.apply(state, ("choose", *bob), BOB)


def texts(events: list) -> str:
    return " | ".join(e.text for e in events)


# -- set-up ---------------------------------------------------------------------------------------

def test_battle_deck_is_the_24_cards_marked_1_to_6_and_each_pool_is_a_full_set():
    state = start()
    assert sorted(CARDS) == sorted(f"{v}{s}" for v in range(1, 7) for s in "HDCS")
    assert sorted(state.deck) == list(range(24))
    assert state.pools == [(4, 3, 2), (4, 3, 2)]
    assert GAME.view(state, ANN)["deck_left"] == 21


def test_the_card_dealt_to_the_other_player_gives_their_side_and_the_dealer_is_the_opposite():
    assert start(bob_red=True).red == BOB
    assert start(bob_red=False).red == ANN
    assert GAME.view(start(bob_red=False), None)["sides"] == {"red": ANN, "black": BOB}


def test_a_turn_begins_with_three_cards_dealt_face_up():
    assert GAME.view(start(("6S", "1H", "4D")), None)["table"] == ["6S", "1H", "4D"]


# -- the secret choice ----------------------------------------------------------------------------

def test_both_players_choose_at_once_and_each_only_once():
    state = start()
    assert GAME.to_move(state) == (ANN, BOB)
    GAME.apply(state, ("choose", 1, 0, 0), ANN)
    assert GAME.to_move(state) == (BOB,)
    assert GAME.legal_actions(state, ANN) == []
    with pytest.raises(RuleError) as error:
        GAME.apply(state, ("choose", 1, 0, 0), ANN)
    assert error.value.rule == "turn"


def test_a_simultaneous_choice_must_say_whose_it_is():
    with pytest.raises(RuleError) as error:
        GAME.apply(start(), ("choose", 1, 0, 0))
    assert error.value.rule == "turn"


@pytest.mark.parametrize("choice", [(0, 0, 0), (3, 2, 0), (4, 1, 0), (0, 0, 3), (5, 0, 0)])
def test_choose_from_one_to_four_dice_you_still_have(choice):
    with pytest.raises(RuleError) as error:
        GAME.apply(start(), ("choose", *choice), ANN)
    assert error.value.rule == "choose"


def test_choices_are_every_one_to_four_dice_from_the_pool_fewest_first():
    choices = GAME.legal_actions(start(), ANN)
    assert choices[:3] == [("choose", 1, 0, 0), ("choose", 0, 1, 0), ("choose", 0, 0, 1)]
    assert all(1 <= sum(c[1:]) <= 4 for c in choices)
    assert len(choices) == len(set(choices)) == 29


def test_a_choice_is_hidden_from_the_other_player_until_both_have_chosen():
    state = start()
    events = GAME.apply(state, ("choose", 2, 0, 1), ANN)
    assert [e.see for e in events if e.kind == "choice"] == [(ANN,)]
    assert all(e.see is None for e in events if e.kind != "choice")
    assert GAME.view(state, ANN)["chosen"][ANN] == {"red": 2, "white": 0, "blue": 1}
    assert GAME.view(state, BOB)["chosen"][ANN] == "chosen"
    assert GAME.view(state, None)["chosen"][ANN] == "chosen"


def test_both_choices_are_revealed_together():
    state = start(rolls=(R[1], R[1], B[1]))
    events = both_choose(state, (1, 0, 0), (1, 0, 1))
    assert "One, two, three... Fight! Ann (Black) shows 1 red; Bob (Red) shows 1 red, 1 blue." in texts(events)
    assert GAME.view(state, ANN)["chosen"][BOB] == {"red": 1, "white": 0, "blue": 1}


# -- initiative -----------------------------------------------------------------------------------

def test_the_player_holding_fewest_dice_has_the_initiative():
    state = start(rolls=(R[1],))
    events = both_choose(state, (1, 0, 0), (2, 0, 0))
    assert GAME.to_move(state) == (ANN,)
    assert "Ann (Black) holds fewer dice and goes first." in texts(events)


@pytest.mark.parametrize(("first_card", "first_seat"), [("2H", BOB), ("2D", BOB), ("2C", ANN), ("2S", ANN)])
def test_on_equal_dice_the_colour_of_the_card_next_to_the_deck_goes_first(first_card, first_seat):
    state = start((first_card, "3C", "5D"), bob_red=True, rolls=(R[1],))
    both_choose(state, (1, 0, 0), (1, 0, 0))
    assert GAME.to_move(state) == (first_seat,)


def test_equal_dice_and_a_red_first_card_favour_red_whoever_red_is():
    state = start(("2H", "3C", "5D"), bob_red=False, rolls=(R[1],))
    both_choose(state, (0, 1, 0), (1, 0, 0))
    assert GAME.to_move(state) == (ANN,)


# -- rolling and allocating -----------------------------------------------------------------------

def test_the_player_with_the_initiative_rolls_then_the_second_player_after_them():
    state = start(("2H", "3C", "5D"), rolls=(R[2], W[1], R[0], R[1], B[3]))
    both_choose(state, (1, 1, 0), (2, 0, 1))
    assert GAME.view(state, None)["roll"] == ["R2", "W1"]
    events = GAME.apply(state, ("allocate", ("R2",), (), ()), ANN)
    assert GAME.to_move(state) == (BOB,)
    assert GAME.view(state, None)["roll"] == ["R0", "R1", "B3"]
    assert "Bob (Red) rolls red 0 + red 1 + blue 3: 4 swords." in texts(events)


def test_a_player_who_can_defeat_a_card_must():
    state = start(("2H", "3C", "5D"), rolls=(B[2],))
    both_choose(state, (1, 0, 0), (0, 0, 1))
    assert GAME.legal_actions(state, BOB) == [("allocate", ("B2",), (), ())]
    with pytest.raises(RuleError) as error:
        GAME.apply(state, ("allocate", (), (), ()), BOB)
    assert error.value.rule == "must-defeat"


def test_a_player_who_cannot_defeat_a_card_returns_all_dice():
    state = start(("4H", "3C", "5D"), rolls=(R[1], R[0], R[1], W[1], B[1]))
    both_choose(state, (2, 0, 0), (1, 1, 1))
    assert GAME.legal_actions(state, ANN) == [("allocate", (), (), ())]
    events = GAME.apply(state, ("allocate", (), (), ()), ANN)
    assert state.pools[ANN] == (4, 3, 2)
    assert "Ann (Black) cannot defeat a card; 2 dice back to the pool." in texts(events)


def test_a_card_takes_enough_swords_to_match_its_number():
    state = start(("2H", "3C", "5D"), rolls=(R[1],))
    both_choose(state, (1, 0, 0), (2, 0, 0))
    with pytest.raises(RuleError) as error:
        GAME.apply(state, ("allocate", (), ("R1",), ()), ANN)
    assert error.value.rule == "defeat"


def test_more_swords_than_required_only_when_the_dice_force_it():
    state = start(("2H", "6C", "6D"), rolls=(B[3],))
    both_choose(state, (0, 0, 1), (2, 0, 0))
    assert GAME.legal_actions(state, ANN) == [("allocate", ("B3",), (), ())]


def test_no_more_swords_than_required_when_other_dice_make_the_number_exactly():
    state = start(("2H", "6C", "6D"), rolls=(R[2], B[3]))
    both_choose(state, (1, 0, 1), (3, 0, 0))
    assert GAME.legal_actions(state, ANN) == [("allocate", ("R2",), (), ())]
    with pytest.raises(RuleError) as error:
        GAME.apply(state, ("allocate", ("B3",), (), ()), ANN)
    assert error.value.rule == "over-allocation"


def test_no_die_on_a_card_that_does_not_need_it():
    state = start(("3H", "6C", "6D"), rolls=(R[1], B[3]))
    both_choose(state, (1, 0, 1), (3, 0, 0))
    with pytest.raises(RuleError) as error:
        GAME.apply(state, ("allocate", ("R1", "B3"), (), ()), ANN)
    assert error.value.rule == "over-allocation"
    assert GAME.legal_actions(state, ANN) == [("allocate", ("B3",), (), ())]


def test_two_dice_may_overshoot_when_no_set_makes_the_number():
    state = start(("3H", "6C", "6D"), rolls=(W[2], W[2]))
    both_choose(state, (0, 2, 0), (3, 0, 0))
    assert GAME.legal_actions(state, ANN) == [("allocate", ("W2", "W2"), (), ())]


def test_a_die_is_never_split_or_used_twice():
    state = start(("1H", "2C", "6D"), rolls=(W[2],))
    both_choose(state, (0, 1, 0), (3, 0, 0))
    with pytest.raises(RuleError) as error:
        GAME.apply(state, ("allocate", ("W2",), ("W2",), ()), ANN)
    assert error.value.rule == "whole-dice"
    assert ("allocate", (), ("W2",), ()) in GAME.legal_actions(state, ANN)


def test_a_blank_die_never_goes_on_a_card():
    state = start(("1H", "2C", "6D"), rolls=(R[0], R[2]))
    both_choose(state, (2, 0, 0), (3, 0, 0))
    assert not any("R0" in group for action in GAME.legal_actions(state, ANN) for group in action[1:])


def test_dice_may_defeat_several_cards_but_need_not():
    state = start(("1H", "3C", "6D"), rolls=(R[1], B[3]))
    both_choose(state, (1, 0, 1), (3, 0, 0))
    assert GAME.legal_actions(state, ANN) == [
        ("allocate", (), ("B3",), ()), ("allocate", ("R1",), (), ()), ("allocate", ("R1",), ("B3",), ()),
    ]


def test_dice_on_a_defeated_card_are_spent_and_all_others_return():
    state = start(("2H", "3C", "6D"), rolls=(R[1], R[1], B[3], R[0], R[0], R[0], R[0]))
    both_choose(state, (2, 0, 1), (4, 0, 0))
    events = GAME.apply(state, ("allocate", ("R1", "R1"), (), ()), ANN)
    assert state.pools[ANN] == (2, 3, 2)
    assert GAME.view(state, None)["won"][ANN] == ["2H"]
    assert GAME.view(state, None)["table"] == [None, "3C", "6D"]
    assert "Ann (Black) defeats the 2♥ with red 1 + red 1." in texts(events)
    assert "Ann (Black) spends 2 dice for the Round; 1 back to the pool." in texts(events)


def test_the_second_player_plays_on_the_cards_left():
    state = start(("2H", "3C", "6D"), rolls=(B[2], B[2]))
    both_choose(state, (0, 0, 1), (0, 0, 1))
    GAME.apply(state, ("allocate", ("B2",), (), ()), BOB)
    assert GAME.to_move(state) == (ANN,)
    with pytest.raises(RuleError) as error:
        GAME.apply(state, ("allocate", ("B2",), (), ()), ANN)
    assert error.value.rule == "no-card"
    assert GAME.legal_actions(state, ANN) == [("allocate", (), (), ())]


def test_the_turn_ends_with_the_table_cleared_and_three_fresh_cards():
    state = start(("2H", "3C", "6D", "1S", "4S", "5S"), rolls=(B[2], R[0]))
    both_choose(state, (1, 0, 0), (0, 0, 1))
    GAME.apply(state, ("allocate", ("B2",), (), ()), BOB)
    events = GAME.apply(state, ("allocate", (), (), ()), ANN)
    assert GAME.view(state, None)["table"] == ["1S", "4S", "5S"]
    assert state.turn == 2
    assert GAME.to_move(state) == (ANN, BOB)
    assert "Turn 2: 1♠, 4♠, 5♠ are dealt." in texts(events)


# -- the end of a Round ---------------------------------------------------------------------------

def test_the_round_ends_when_both_players_use_their_last_dice_at_the_same_time():
    state = position(rolls=(B[2], B[3], *ANY_ORDER), pools=[[0, 0, 1], [0, 0, 1]])
    both_choose(state, (0, 0, 1), (0, 0, 1))
    GAME.apply(state, ("allocate", ("B2",), (), ()), BOB)
    events = GAME.apply(state, ("allocate", (), ("B3",), ()), ANN)
    assert "both players used their last dice at the same time" in texts(events)
    assert state.rounds == (ANN,)
    assert state.victories == [1, 0]


def test_a_player_starting_a_turn_with_no_dice_leaves_the_other_one_final_turn():
    state = position(rolls=(R[0], B[2], R[0], *ANY_ORDER), pools=[[0, 0, 1], [2, 0, 0]])
    both_choose(state, (0, 0, 1), (1, 0, 0))
    GAME.apply(state, ("allocate", (), (), ()), BOB)
    events = GAME.apply(state, ("allocate", ("B2",), (), ()), ANN)
    assert "Ann (Black) has no dice left: Bob (Red) plays one final Turn." in texts(events)
    assert GAME.to_move(state) == (BOB,)
    assert GAME.view(state, None)["final_turn"] is True
    GAME.apply(state, ("choose", 1, 0, 0), BOB)
    assert GAME.to_move(state) == (BOB,)
    events = GAME.apply(state, ("allocate", (), (), ()), BOB)
    assert "the final Turn is over" in texts(events)
    assert state.rounds == (ANN,)
    assert state.round == 2


def test_the_round_ends_when_the_battle_deck_has_no_cards_left():
    state = position(rolls=(R[0], R[0], *ANY_ORDER), dealt=24, turn=8)
    both_choose(state, (1, 0, 0), (1, 0, 0))
    GAME.apply(state, ("allocate", (), (), ()), BOB)
    events = GAME.apply(state, ("allocate", (), (), ()), ANN)
    assert "the Battle Deck is empty" in texts(events)
    assert state.round == 2


def test_eight_turns_empty_the_battle_deck():
    state = GAME.new_game({}, ["Ann", "Bob"], seed=5)
    while state.round == 1:
        for seat in GAME.to_move(state):
            GAME.apply(state, GAME.legal_actions(state, seat)[-1], seat)
        if state.round == 1:
            assert state.turn <= 8
    assert state.rounds


def _end_round_with(won_ann: list[str], won_bob: list[str], **fields: object) -> CommandDiceState:
    state = position(rolls=(R[0], R[0], *ANY_ORDER), dealt=24, won=[won_ann, won_bob], **fields)
    both_choose(state, (1, 0, 0), (1, 0, 0))
    GAME.apply(state, ("allocate", (), (), ()), BOB)
    GAME.apply(state, ("allocate", (), (), ()), ANN)
    return state


def test_the_highest_total_score_wins_the_round():
    assert _end_round_with(["6H"], ["1C", "4C"]).rounds == (ANN,)


def test_on_equal_scores_the_fewest_defeated_cards_wins_the_round():
    assert _end_round_with(["1C", "4C"], ["5H"]).rounds == (BOB,)


def test_on_equal_scores_and_cards_the_round_is_a_draw():
    state = _end_round_with(["1C", "4C"], ["2H", "3H"])
    assert state.rounds == (None,)
    assert state.victories == [0, 0]


def test_a_new_round_reshuffles_every_card_and_returns_every_die():
    state = _end_round_with(["6H"], ["1C"], pools=[[1, 0, 0], [1, 0, 0]])
    assert state.round == 2
    assert state.pools == [(4, 3, 2), (4, 3, 2)]
    assert state.won == [(), ()]
    assert sorted(state.deck) == list(range(24))
    assert GAME.view(state, None)["deck_left"] == 21


def test_the_first_to_three_victories_wins_the_game():
    state = _end_round_with(["6H"], ["1C"], victories=[2, 2])
    assert GAME.is_over(state)
    assert GAME.result(state) == {"winner": ANN, "scores": [3, 2], "rounds": [ANN]}
    assert GAME.to_move(state) == ()
    assert GAME.legal_actions(state, ANN) == []
    with pytest.raises(RuleError) as error:
        GAME.apply(state, ("choose", 1, 0, 0), ANN)
    assert error.value.rule == "turn"


def test_house_rules_are_config():
    state = GAME.new_game({"victories": 1, "max_dice": 2}, ["Ann", "Bob"], seed=3)
    assert max(sum(a[1:]) for a in GAME.legal_actions(state, ANN)) == 2
    while not GAME.is_over(state):
        for seat in GAME.to_move(state):
            GAME.apply(state, GAME.legal_actions(state, seat)[0], seat)
    assert max(state.victories) == 1


@pytest.mark.parametrize(("config", "rule"), [
    ({"battle_deck": ["XX"]}, "battle_deck"), ({"battle_deck": ["1H", "2H"]}, "battle_deck"),
    ({"side_deck": []}, "side_deck"), ({"dice": {}}, "dice"), ({"dice": {"red": {"count": 2}}}, "dice"),
    ({"min_dice": 5}, "min_dice"), ({"max_dice": "4"}, "max_dice"), ({"victories": 0}, "victories"),
    ({"cards_per_turn": 0}, "cards_per_turn"), ({"dice": {"red": {"count": 100, "faces": [1]}}}, "dice"),
    ({"min_dice": 3, "dice": {"red": {"count": 2, "faces": [1]}}}, "dice"),
])
def test_a_config_the_game_cannot_be_played_by_is_refused_naming_the_setting(config, rule):
    with pytest.raises(RuleError) as error:
        GAME.new_game(config, ["Ann", "Bob"], seed=1)
    assert error.value.rule == rule


def test_unknown_settings_and_wrong_player_counts_are_refused():
    with pytest.raises(RuleError) as error:
        GAME.new_game({"victorys": 2}, ["Ann", "Bob"], seed=1)
    assert error.value.rule == "config"
    with pytest.raises(RuleError) as error:
        GAME.new_game({}, ["Ann", "Bob", "Cy"], seed=1)
    assert error.value.rule == "players"
