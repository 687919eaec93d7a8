"""The course of a Battle: the first turn, Offense and Defense, Pass and Unable, the reaction window, Healers
after a Skirmish, the two Phases and the end. Each step here says which commander acts next and in which step."""

from __future__ import annotations

from .legal import can_play, hand_of, heal_options, reaction_options
from .outcome import end_battle
from .skirmish import resolve
from .state import (
    DEFENSE,
    DISABLED,
    EXHAUSTED,
    HAND,
    HEAL,
    MENDER,
    NECRO,
    OFFENSE,
    OVER,
    PLAY_DEFENSE,
    PLAY_OFFENSE,
    PLAYED,
    RANGED,
    REACT,
    ROLES,
    SAVE,
    SIDE_TITLES,
    BattleState,
    emit,
)


def start_turn(st: BattleState) -> None:
    """The attacker plays on Offense; if Unable, the other commander attacks (no penalty);
    if both are Unable the Phase ends."""
    a = st.attacker
    if not can_play(st, a):
        b = 1 - a
        if not can_play(st, b):
            end_phase(st)
            return
        if st.verbose:
            emit(st, "unable", f"{st.roster.names[a]} is Unable to play on Offense.")
        st.pass_streak = 0
        st.attacker = a = b
    st.step, st.actor = PLAY_OFFENSE, a


def end_phase(st: BattleState) -> None:
    """Both Unable: the first Phase ends (Exhausted cards return to hand; the last commander to
    play on Defense begins), or the second Phase and the Battle end."""
    r = st.roster
    if st.phase == 2:
        end_battle(st, "both Unable in the second Phase")
        return
    st.phase = 2
    where = st.where
    for u in range(r.n):
        if where[u] == EXHAUSTED:
            where[u] = HAND
    st.rituals_phase[0] = st.rituals_phase[1] = 0
    st.battlemage_done[0] = st.battlemage_done[1] = 0
    if st.last_defender >= 0:
        st.attacker = st.last_defender
    if st.verbose:
        emit(st, "phase", f"The second Phase begins: Exhausted cards return to hand; "
                          f"{r.names[st.attacker]} plays first.")
    st.queue = [s for s in (st.attacker, 1 - st.attacker) if "Necromancer" in r.powers[s]]
    advance_necro(st)


def advance_necro(st: BattleState) -> None:
    r = st.roster
    while st.queue:
        seat = st.queue[0]
        if any(st.where[u] == DISABLED for u in range(r.lo[seat], r.hi[seat])):
            st.step, st.actor = NECRO, seat
            return
        st.queue.pop(0)
    start_turn(st)


def advance_mender(st: BattleState) -> None:
    while st.queue:
        seat = st.queue.pop(0)
        if hand_of(st, 1 - seat):
            st.step, st.actor = MENDER, seat
            return
    start_turn(st)


def play_card(st: BattleState, seat: int, u: int, role: int, bonus: int) -> None:
    """A card face down on Offense (starting a Skirmish) or on Defense (then both are revealed)."""
    r = st.roster
    side = OFFENSE if st.step == PLAY_OFFENSE else DEFENSE
    if side == OFFENSE:
        st.card[0] = st.card[1] = -1
        st.add_card[0] = st.add_card[1] = st.add_card_n[0] = st.add_card_n[1] = 0
        st.add_power[0] = st.add_power[1] = 0
        st.power_this_skirmish[0] = st.power_this_skirmish[1] = 0
        st.role_now[1], st.traits_now[1] = -1, 0
        st.pass_streak = 0
    st.where[u] = PLAYED
    st.card[side] = u
    st.role_now[side] = role
    traits = r.traits[u]
    if side == OFFENSE and "Scout" in r.powers[seat]:
        traits |= RANGED
    st.traits_now[side] = traits
    st.add_power[side] += bonus
    if st.verbose:
        changed = f" as {ROLES[role]}" if role != r.role[u] else ""
        emit(st, "play", f"{r.names[seat]} plays a card face down on {SIDE_TITLES[side]}.")
        emit(st, "play_secret", f"(You played {r.name[u]}{changed}.)", (seat,))
    if side == OFFENSE:
        defender = 1 - seat
        if can_play(st, defender):
            st.step, st.actor = PLAY_DEFENSE, defender
            return
        if st.verbose:
            emit(st, "unable", f"{r.names[defender]} is Unable to play on Defense: "
                               f"{r.name[u]} is Unopposed (no Morale lost for being Unable).")
    else:
        st.last_defender = seat
    reveal(st)


def reveal(st: BattleState) -> None:
    r = st.roster
    if st.verbose:
        o, d = st.card
        emit(st, "reveal", f"Revealed: {r.name[o]} on Offense"
                           + (f" against {r.name[d]} on Defense." if d >= 0 else ", Unopposed."))
    st.declines = 0
    open_window(st, st.attacker)


def open_window(st: BattleState, seat: int) -> None:
    """The reaction window: attacker first, alternating, until both decline in a row. A commander
    with nothing to play declines without being asked."""
    while True:
        options = reaction_options(st, seat) if st.roster.window[seat] else None
        if options:
            st.step, st.actor = REACT, seat
            st.legal_cache = (seat, tuple(options))
            return
        st.declines += 1
        if st.declines >= 2:
            resolve_skirmish(st)
            return
        seat = 1 - seat


def resolve_skirmish(st: BattleState) -> None:
    resolve(st)
    after_skirmish(st)


def after_skirmish(st: BattleState) -> None:
    """After a Skirmish's results (and any save choices): Healers, then the next turn."""
    if st.step == OVER:
        return
    if st.pending:
        st.step, st.actor = SAVE, st.roster.owner[st.pending[0]]
        return
    if st.card[DEFENSE] < 0:
        next_turn(st)
        return
    st.queue = [st.attacker, 1 - st.attacker]
    advance_heal(st)


def advance_heal(st: BattleState) -> None:
    while st.queue:
        seat = st.queue[0]
        options = heal_options(st, seat)
        if options:
            st.step, st.actor = HEAL, seat
            st.legal_cache = (seat, tuple(options))
            return
        st.queue.pop(0)
    next_turn(st)


def next_turn(st: BattleState) -> None:
    """Offense alternates each Skirmish."""
    st.attacker = 1 - st.attacker
    start_turn(st)
