"""Commander powers used during a Battle: one function per power, applying its ``("power", name, ...)``
action and handing the Battle on to the next step."""

from __future__ import annotations

from . import words
from .legal import EVOKED, ILLUSION, hand_of
from .outcome import lose_morale
from .phases import advance_heal, advance_necro, open_window, play_card
from .powers import EVOKER_ADD, PSIONICIST_ADD
from .skirmish import add_power
from .state import (
    DEFENSE,
    HAND,
    MENDER_PICK,
    OFFENSE,
    ONCE_ETHEREALIST,
    ONCE_PSIONICIST,
    ONCE_SHAPESHIFTER,
    PLAYED,
    RANGED,
    ROLES,
    SIDES,
    BattleState,
    emit,
)


def _evoker(st: BattleState, seat: int, action: tuple) -> None:
    """Evoker: three times per Battle, once per Skirmish, Add 2 to any unit in a Skirmish."""
    st.evoker_left[seat] -= 1
    st.power_this_skirmish[seat] |= EVOKED
    add_power(st, seat, SIDES.index(action[2]), EVOKER_ADD, "Evoker")
    st.declines = 0
    open_window(st, 1 - seat)


def _illusionist(st: BattleState, seat: int, action: tuple) -> None:
    """Illusionist: twice per Battle, once per Skirmish, roll a d6 and either unit Adds it."""
    st.illusionist_left[seat] -= 1
    st.power_this_skirmish[seat] |= ILLUSION
    add_power(st, seat, SIDES.index(action[2]), st.dice.d6(), "Illusionist")
    st.declines = 0
    open_window(st, 1 - seat)


def _shapeshifter(st: BattleState, seat: int, action: tuple) -> None:
    """Shapeshifter: once per Battle, change the Role of your card as it is revealed."""
    mine = OFFENSE if seat == st.attacker else DEFENSE
    st.once_used[seat] |= ONCE_SHAPESHIFTER
    st.role_now[mine] = ROLES.index(action[2])
    if st.verbose:
        emit(st, "power", f"Shapeshifter: {st.roster.name[st.card[mine]]} becomes {words.a_role(action[2])}.")
    st.declines = 0
    open_window(st, 1 - seat)


def _etherealist(st: BattleState, seat: int, action: tuple) -> None:
    """Etherealist: once per Battle, swap a unit in hand with your unit in the Skirmish."""
    r = st.roster
    mine = OFFENSE if seat == st.attacker else DEFENSE
    st.once_used[seat] |= ONCE_ETHEREALIST
    new = r.index[seat][action[2]]
    old = st.card[mine]
    st.where[old], st.where[new] = HAND, PLAYED
    st.card[mine] = new
    st.role_now[mine] = r.role[new]
    st.traits_now[mine] = r.traits[new] | (RANGED if mine == OFFENSE and "Scout" in r.powers[seat] else 0)
    if st.verbose:
        emit(st, "power", f"Etherealist: {r.name[old]} returns to hand and {r.name[new]} takes its place.")
    st.declines = 0
    open_window(st, 1 - seat)


def _psionicist(st: BattleState, seat: int, action: tuple) -> None:
    """Psionicist: once per Battle, shuffle the hand; the next card is drawn at random and Adds 3."""
    r = st.roster
    st.once_used[seat] |= ONCE_PSIONICIST
    choices = [u for u in hand_of(st, seat) if r.strength[u] >= 0]
    u = choices[st.dice.below(len(choices))]
    if st.verbose:
        emit(st, "power", f"{r.names[seat]} shuffles their hand (Psionicist): a random card, Adding 3.")
    play_card(st, seat, u, r.role[u], PSIONICIST_ADD)


def _mender(st: BattleState, seat: int, action: tuple) -> None:
    """Mender: before the Battle, the opponent reveals 2 random cards from hand."""
    r = st.roster
    hand = hand_of(st, 1 - seat)
    shown = []
    for _ in range(min(2, len(hand))):
        shown.append(hand.pop(st.dice.below(len(hand))))
    st.mender_shown = shown
    if st.verbose:
        emit(st, "power", f"Mender: {r.names[1 - seat]} reveals "
                          f"{' and '.join(r.name[u] for u in shown)}.", (seat, 1 - seat))
    st.step = MENDER_PICK


def _necromancer(st: BattleState, seat: int, action: tuple) -> None:
    """Necromancer: at the start of the second Phase, return 1 Disabled card to hand."""
    r = st.roster
    u = r.index[seat][action[2]]
    st.where[u] = HAND
    if st.verbose:
        emit(st, "power", f"Necromancer: {r.name[u]} returns to {r.names[seat]}'s hand.")
    st.queue.pop(0)
    advance_necro(st)


def _cleric(st: BattleState, seat: int, action: tuple) -> None:
    """Cleric: once per Day, spend a Morale to return a Killed card to hand."""
    r = st.roster
    u = r.index[seat][action[2]]
    st.cleric_used[seat] = 1
    st.where[u] = HAND
    st.kills[1 - seat] -= 1
    if st.verbose:
        emit(st, "power", f"Cleric: {r.name[u]} returns from the dead to {r.names[seat]}'s hand.")
    if not lose_morale(st, seat, 1, "Cleric"):
        advance_heal(st)


POWER_ACTIONS = {"Evoker": _evoker, "Illusionist": _illusionist, "Shapeshifter": _shapeshifter,
           "Etherealist": _etherealist, "Psionicist": _psionicist, "Mender": _mender,
           "Necromancer": _necromancer, "Cleric": _cleric}
"""Power name -> the function applying its ``("power", name, ...)`` action."""
