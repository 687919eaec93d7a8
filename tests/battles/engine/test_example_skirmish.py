"""The rules' own Example Skirmish (army-combat.txt, "Example Skirmish")."""

from battles.engine import GAME
from battles.engine.state import STEPS

from .helpers import SOLDIER_FX, act, battle, legal, pile, texts, unit

SPEARMEN = unit(1, "Spearmen", 2, "Aggressor", "Steel", ("Reach",))


def soldiers() -> list[dict]:
    return [
        unit(1, "Soldier", effects=SOLDIER_FX),
        unit(2, "Soldier", effects=SOLDIER_FX),
        unit(3, "Shieldwall", 2, "Guardian", traits=("Slow",)),
    ]


def test_example_skirmish_second_soldier_saves_the_first():
    # Spearmen roll 4 and 2 (keep 4): 2 + 4 + 1 Reach = 7; the Soldier rolls 2: 2 + 2 = 4, a Kill...
    st = battle([SPEARMEN], soldiers(), dice=[4, 2, 2])
    act(st, ("play", 1), ("play", 1))
    assert STEPS[st.step] == "reaction"
    assert st.actor == 1  # A has nothing to react with
    assert ("react", 2, "defense") in legal(st)
    # ...until Commander B discards a second Soldier for +1: 7 against 5 only Disables it.
    events = texts(act(st, ("react", 2, "defense")))
    assert "Spearmen (Offense, Aggressor) roll 4 and 2, keep 4: 2 + 4 + 1 Reach = 7" in events
    assert "Soldier (Defense, Aggressor) roll 2: 2 + 2 + 1 from cards = 5" in events
    assert pile(st, 1, 1) == "disabled"
    assert pile(st, 1, 2) == "disabled"  # the discarded Soldier
    assert pile(st, 0, 1) == "exhausted"
    # Commander B is on Offense for the next Skirmish.
    assert STEPS[st.step] == "offense"
    assert st.actor == 1
    assert st.attacker == 1
    assert GAME.result(st)["kills"] == [0, 0]


def test_example_skirmish_without_the_discard_the_soldier_would_be_killed():
    st = battle([SPEARMEN], soldiers(), dice=[4, 2, 1])
    act(st, ("play", 1), ("play", 1), ("decline",))
    # B (a non-player commander with 5 Morale) may spend 3 Morale to save it: a choice, not automatic.
    assert STEPS[st.step] == "save"
    assert st.actor == 1
    assert legal(st) == [("save", "morale"), ("accept_kill",)]
    act(st, ("accept_kill",))
    assert pile(st, 1, 1) == "killed"
    assert st.kills == [1, 0]
