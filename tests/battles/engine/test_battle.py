"""The course of a Battle: first turn, Pass and Unable, Unopposed, Rout, Phases, the end, the
winner, Base Morale, Healers, Rituals and the reaction window."""

import pytest

from battles.engine import GAME
from battles.engine.state import STEPS
from gamekit.dice import Dice
from gamekit.errors import RuleError

from .helpers import SOLDIER_FX, act, battle, config, legal, pile, texts, unit


def test_a_random_commander_chooses_who_goes_first():
    st = GAME.new_game(config([unit(1)], [unit(1)]), ["a", "b"], dice=Dice.scripted([2]))
    assert GAME.to_move(st) == (1,)
    assert legal(st) == [("first", 0), ("first", 1)]
    act(st, ("first", 0))
    assert st.attacker == 0
    assert STEPS[st.step] == "offense"
    assert GAME.to_move(st) == (0,)


def test_pass_on_offense_costs_a_morale_and_ends_the_turn():
    st = battle([unit(1)], [unit(1)])
    act(st, ("pass",))
    assert st.morale[0] == 4
    assert st.attacker == 1
    assert st.actor == 1


def test_two_passes_in_a_row_end_the_battle():
    st = battle([unit(1)], [unit(1)], dice=[3, 5])
    act(st, ("pass",), ("pass",))
    assert GAME.is_over(st)
    assert st.end_reason == "both commanders Passed"
    assert GAME.result(st)["winner"] == 1  # equal kills and Morale: B wins the roll-off 5 to 3


def test_pass_on_defense_leaves_the_attacker_unopposed():
    # 2 + 6 = 8 Strength Unopposed deals 2 Morale (1 per 4 whole points); then it is Exhausted.
    st = battle([unit(1, role="Healer")], [unit(1, role="Healer")], dice=[6])
    act(st, ("play", 1), ("pass",))
    assert st.morale[1] == 3
    assert pile(st, 0, 1) == "exhausted"


def test_defender_unable_means_unopposed_without_morale_loss_for_being_unable():
    st = battle([unit(1, role="Healer")], [unit(1, "Banner", None, "Equipment")], dice=[3])
    events = texts(act(st, ("play", 1)))
    assert any("Unable to play on Defense" in t for t in events)
    assert st.morale[1] == 4  # 2 + 3 = 5: 1 Morale for the attack, nothing for being Unable


def test_offense_alternates_each_skirmish():
    st = battle(
        [unit(1, role="Healer"), unit(2, role="Healer")], [unit(1, role="Healer"), unit(2, role="Healer")], dice=[3, 2]
    )
    act(st, ("play", 1), ("play", 1))
    assert st.attacker == 1
    assert st.actor == 1


def test_rout_at_zero_morale_victor_rolls_for_disabled_and_exhausted_units():
    st = battle(
        [unit(1, role="Healer"), unit(2, role="Healer"), unit(3, role="Healer")],
        [unit(1, "Big", 9, "Healer"), unit(2, role="Healer")],
        dice=[1, 1, 5, 6],
        a={"morale": 1},
    )
    act(st, ("play", 1), ("play", 1))  # A's unit Disabled (3 against 10 is a Kill -> no Morale to save)
    assert pile(st, 0, 1) == "killed"
    act(st, ("play", 2))  # B attacks (Healer, no 2d6), A ...
    act(st, ("pass",))  # A Passes on Defense: Unopposed 2 + 5 = 7 -> 1 Morale: Routed
    assert st.routed == 0
    assert GAME.is_over(st)
    assert GAME.result(st)["winner"] == 1
    assert pile(st, 0, 3) == "hand"  # units in hand are safe


def test_rout_rolls_five_plus_kill():
    st = battle(
        [unit(1, role="Healer"), unit(2, role="Healer")],
        [unit(1, role="Healer"), unit(2, role="Healer")],
        dice=[6, 1, 5],
        a={"morale": 5},
        b={"morale": 1},
    )
    act(st, ("play", 1), ("play", 1))  # 8 against 3: a Kill B cannot pay for (1 Morale)
    assert pile(st, 1, 1) == "killed"
    act(st, ("pass",))  # B Passes on Offense: 0 Morale, Routed; A rolls 5 for nothing left... only hand
    assert st.routed == 1
    assert pile(st, 1, 2) == "hand"


def test_rout_kills_exhausted_units_on_five_plus():
    st = battle(
        [unit(1, role="Healer"), unit(2, role="Healer")],
        [unit(1, role="Healer"), unit(2, role="Healer")],
        dice=[1, 6, 5, 4],
        b={"morale": 2},
    )
    act(st, ("play", 1), ("play", 1))  # B's unit wins (8 against 3): Exhausted; A saves? A has 5 Morale
    act(st, ("accept_kill",))
    act(st, ("pass",), ("play", 2), ("pass",))  # B Passes (1 left); A attacks, B Passes: Unopposed 2+5=7
    assert st.routed == 1
    assert pile(st, 1, 1) == "exhausted"  # rolled 4: survives


def test_phase_two_returns_exhausted_and_starts_with_the_last_defender():
    st = battle([unit(1, role="Healer")], [unit(1, role="Healer"), unit(2, role="Healer")], dice=[3, 2, 1])
    act(st, ("play", 1), ("play", 1))  # A wins 5 to 4: B's unit Disabled, B the last defender
    events = texts(act(st, ("play", 2)))  # A is Unable: B's unit is Unopposed (3: no damage)
    assert st.phase == 2
    assert pile(st, 0, 1) == "hand"
    assert pile(st, 1, 2) == "hand"
    assert any("second Phase" in t for t in events)
    assert st.attacker == 1
    assert st.actor == 1  # B played the last Defense card, not A by alternation


def test_battle_ends_when_both_are_unable_in_phase_two_and_more_kills_win():
    st = battle(
        [unit(1, "Big", 6, "Healer")], [unit(1, role="Healer"), unit(2, "Banner", None, "Equipment")], dice=[1, 1, 6]
    )
    act(st, ("play", 1), ("play", 1), ("accept_kill",))
    assert st.phase == 2
    act(st, ("play", 1))  # B is Unable: Unopposed 6 + 6 = 12 -> 3 Morale
    assert GAME.is_over(st)
    assert st.end_reason == "both Unable in the second Phase"
    assert GAME.result(st)["winner"] == 0
    assert GAME.result(st)["kills"] == [1, 0]


def test_winner_by_morale_when_kills_tie():
    st = battle([unit(1)], [unit(1)], a={"morale": 6})
    act(st, ("pass",), ("pass",))
    assert st.winner == 0  # no kills; Morale 5 against 4


def test_roll_off_when_kills_and_morale_tie():
    st = battle([unit(1)], [unit(1)], dice=[2, 2, 3, 5])
    act(st, ("pass",), ("pass",))
    assert st.winner == 1
    assert texts(st.log)[-1].startswith("The Battle ends")


def test_base_morale_is_spent_first_and_reported():
    st = battle([unit(1)], [unit(1)], a={"base_morale": 2})
    act(st, ("pass",))
    assert st.base[0] == 1
    assert st.morale[0] == 5
    assert GAME.result(st)["base_morale_spent"] == [1, 0]


def test_starting_morale_is_four_plus_half_level():
    st = GAME.new_game(
        {"commanders": [{"level": 7, "units": [unit(1)]}, {"level": 2, "units": [unit(1)]}]}, ["a", "b"], seed=1
    )
    assert st.morale == [7, 5]


def test_healer_returns_a_card_for_a_morale():
    healer = unit(5, "Surgeon", 1, "Healer")
    st = battle(
        [unit(1, role="Guardian"), healer, unit(2, role="Guardian")],
        [unit(1, role="Guardian"), unit(2, role="Guardian")],
        dice=[1, 6, 2],
    )
    act(st, ("play", 1), ("play", 1))  # A's unit: 2 + 1 against 2 + 6 = 8 -> Killed? margin 5: save
    act(st, ("save", "morale"))
    assert STEPS[st.step] == "heal"
    assert st.actor == 0
    assert ("heal", 5, 1) in legal(st)
    act(st, ("heal", 5, 1))
    assert pile(st, 0, 1) == "hand"
    assert pile(st, 0, 5) == "disabled"
    assert st.morale[0] == 1


def test_healer_cannot_return_a_healer_or_more_than_twice_its_strength():
    st = battle(
        [unit(1, "Big", 3, "Guardian"), unit(5, "Surgeon", 1, "Healer"), unit(6, "Medic", 1, "Healer")],
        [unit(1, role="Guardian"), unit(2, role="Guardian")],
        dice=[1, 2, 2],
    )
    act(st, ("play", 1), ("play", 1))
    assert STEPS[st.step] != "heal"  # Big (3) is more than twice a Strength 1 Healer
    with pytest.raises(RuleError) as err:
        GAME.apply(st, ("heal", 5, 1), 0)
    assert err.value.rule == "turn"


def test_rituals_need_two_units_of_their_path_and_one_per_phase():
    rite = {"when": "discard", "do": "add", "amount": 2, "to": "own"}
    r1 = unit(7, "Rite", None, "Ritual", "Steel", effects=[rite])
    r2 = unit(8, "Rite", None, "Ritual", "Steel", effects=[rite])
    st = battle(
        [unit(1, role="Healer"), unit(2, role="Healer"), r1, r2], [unit(1, role="Healer"), unit(2)], dice=[3, 3]
    )
    act(st, ("play", 1), ("play", 1))
    assert legal(st) == [("react", 7), ("react", 8), ("decline",)]
    events = texts(act(st, ("react", 7)))  # the second Rite is not allowed this Phase: window closes
    assert "Soldier (Offense, Healer) roll 3: 2 + 3 + 2 from cards = 7" in events
    st = battle(
        [unit(1, role="Healer", path="Magic"), unit(2, role="Healer"), r1], [unit(1, role="Healer")], dice=[3, 2]
    )
    act(st, ("play", 1), ("play", 1))
    assert STEPS[st.step] != "reaction"  # only one Steel unit: the Ritual cannot be played


def test_reaction_window_attacker_first_then_alternating_until_both_decline():
    a = [unit(1, role="Healer"), unit(2, effects=SOLDIER_FX), unit(3, effects=SOLDIER_FX)]
    b = [unit(1, role="Healer"), unit(2, effects=SOLDIER_FX), unit(3, effects=SOLDIER_FX)]
    st = battle(a, b, dice=[3, 3, 4, 2])
    act(st, ("play", 1), ("play", 1))
    assert st.actor == 0
    act(st, ("decline",))
    assert st.actor == 1
    act(st, ("react", 2, "defense"))
    assert st.actor == 0  # a new effect: the attacker may answer
    act(st, ("react", 2, "offense"))
    assert st.actor == 1
    act(st, ("decline",))
    assert st.actor == 0
    act(st, ("decline",))
    assert STEPS[st.step] != "reaction"
