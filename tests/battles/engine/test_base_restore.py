"""RULINGS.md: "Restoring a Base's Morale bonus is an effect a unit text or power may carry; once restored, the
bonus can be spent again that Day." Starting Morale is "plus a defended Base's bonus, which is spent first and
gone for the Day once spent"."""

from __future__ import annotations

from battles.engine import GAME
from battles.engine.legal import legal_actions
from tests.battles.engine.helpers import act, battle, texts, unit

ENGINEERS = [{"when": "discard", "do": "restore_base"}]


def _defended_base_spent():
    """B defends a Base worth 2 Morale; A's Unopposed Soldier deals 2 Morale damage, all from the Base."""
    st = battle([unit(1, strength=3), unit(2, strength=3)],
                [unit(1, strength=1), unit(2, "Rampart Engineers", 1, "Guardian", effects=ENGINEERS),
                 unit(3, strength=2)],
                dice=[5, 3, 3, 3, 3, 3, 3], b={"base_morale": 2}, verbose=True)
    act(st, ("play", 1), ("pass",))
    assert (st.base[1], st.base_spent[1], st.morale[1]) == (0, 2, 5)  # spent first
    return st


def test_a_unit_restores_the_spent_base_bonus_and_it_is_not_used_up_for_the_day():
    st = _defended_base_spent()
    act(st, ("play", 3), ("play", 2))
    assert ("react", 2) in legal_actions(st, 1)  # B may discard the Engineers in the reaction window
    events = texts(act(st, ("react", 2)))
    assert "B's Base bonus is restored (Rampart Engineers): 7 Morale." in events
    assert (st.base[1], st.base_spent[1]) == (2, 0)  # whole again, and not spent since
    assert GAME.result(st)["base_morale_spent"] == [0, 0]


def test_the_card_is_offered_only_while_a_base_bonus_is_spent():
    st = battle([unit(1, strength=3)], [unit(1, strength=1), unit(2, "Rampart Engineers", 1, "Guardian",
                                                                   effects=ENGINEERS)],
                dice=[3, 3, 3, 3, 3, 3], b={"base_morale": 2}, verbose=True)
    act(st, ("play", 1), ("play", 1))
    assert ("react", 2) not in legal_actions(st, 1)  # the Base's bonus is whole: nothing to restore
