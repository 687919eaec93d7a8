"""Where cards go and what Morale does: Disabled, discarded, Killed, Routed, the Battle's end."""

from __future__ import annotations

from . import words
from .state import DISABLED, EXHAUSTED, KILLED, OVER, PLAYED, BattleState, emit, note_power


def morale_of(st: BattleState, seat: int) -> int:
    """Morale a commander has now, a Base's bonus included."""
    return st.morale[seat] + st.base[seat]


def lose_morale(st: BattleState, seat: int, amount: int, why: str) -> bool:
    """Lose (or spend) Morale: a Base's bonus goes first (and is gone for the Day); at 0 the
    commander is Routed. Returns True when that ended the Battle."""
    from_base = min(st.base[seat], amount)
    if from_base:
        st.base[seat] -= from_base
        st.base_spent[seat] += from_base
    st.morale[seat] = max(0, st.morale[seat] - (amount - from_base))
    if st.verbose:
        emit(st, "morale", f"{st.roster.names[seat]} loses {amount} Morale ({why}): "
                           f"{morale_of(st, seat)} left.")
    if st.morale[seat] + st.base[seat] <= 0:
        rout(st, seat)
        return True
    return False


def restore_base(st: BattleState, seat: int, why: str) -> None:
    """The bonus of the Base this commander defends is whole again: it can be spent again this Day, and a
    bonus not spent again after it is not used up (RULINGS: restoring a Base's Morale bonus)."""
    st.base[seat], st.base_spent[seat] = st.roster.start_base[seat], 0
    if st.verbose:
        emit(st, "effect", f"{st.roster.names[seat]}'s Base bonus is restored ({why}): "
                           f"{morale_of(st, seat)} Morale.")


def gain_morale(st: BattleState, seat: int, amount: int, why: str) -> None:
    """Morale gained in a Battle may pass the starting value."""
    st.morale[seat] += amount
    if st.verbose:
        emit(st, "morale", f"{st.roster.names[seat]} gains {amount} Morale ({why}): {morale_of(st, seat)}.")


def disable(st: BattleState, u: int) -> None:
    """Disabled: out for the Battle. Oathbound's designated unit is only Exhausted."""
    r = st.roster
    seat = r.owner[u]
    if u == r.oathbound[seat]:
        st.where[u] = EXHAUSTED
        note_power(st, seat, "Oathbound")
        if st.verbose:
            emit(st, "pile", f"{r.name[u]} would be Disabled but is Oathbound: Exhausted instead.")
        return
    st.where[u] = DISABLED
    if st.verbose:
        emit(st, "pile", f"{r.name[u]} is Disabled.")


def discard(st: BattleState, u: int) -> None:
    """Discard from hand to the Disabled pile; the Oathbound unit goes to Exhausted, and a
    Battlemage's discard goes to Exhausted on a 5+ (succeeding at most once per Phase)."""
    r = st.roster
    seat = r.owner[u]
    if u == r.oathbound[seat]:
        disable(st, u)
        return
    if "Battlemage" in r.powers[seat] and not st.battlemage_done[seat]:
        roll = st.dice.d6()
        if roll >= 5:
            st.battlemage_done[seat] = 1
            st.where[u] = EXHAUSTED
            note_power(st, seat, "Battlemage")
            if st.verbose:
                emit(st, "pile", f"Battlemage rolls {roll}: the discarded {r.name[u]} goes to Exhausted.")
            return
        if st.verbose:
            emit(st, "pile", f"Battlemage rolls {roll}: no luck.")
    st.where[u] = DISABLED


def can_save(st: BattleState, seat: int) -> bool:
    """A unit that would be Killed can be saved for 1 Influence (a player character) or 3 Morale."""
    return st.influence[seat] >= 1 if st.roster.pc[seat] else morale_of(st, seat) >= 3


def spared(st: BattleState, u: int) -> bool:
    """Powers that turn a Kill into Disabled without a choice: Oathbound's unit and Chirurgeon's Lab."""
    r = st.roster
    seat = r.owner[u]
    if u == r.oathbound[seat] or u == r.lab[seat]:
        st.where[u] = DISABLED
        note_power(st, seat, "Oathbound" if u == r.oathbound[seat] else "Chirurgeon")
        if st.verbose:
            emit(st, "pile", f"{r.name[u]} would be Killed but is only Disabled "
                             f"({'Oathbound' if u == r.oathbound[seat] else 'Chirurgeon'}).")
        return True
    return False


def would_kill(st: BattleState, u: int) -> None:
    """A unit that would be Killed: spared by a power, queued for its owner's save choice, or Killed."""
    if spared(st, u):
        return
    if can_save(st, st.roster.owner[u]):
        st.pending.append(u)
    else:
        kill(st, u, rogue=True)


def kill(st: BattleState, u: int, *, rogue: bool) -> None:
    """Killed: removed for good. The killer's Rogue gains a Morale on a 4+."""
    r = st.roster
    killer = 1 - r.owner[u]
    st.where[u] = KILLED
    st.kills[killer] += 1
    if st.verbose:
        emit(st, "pile", f"{r.name[u]} is Killed.")
    if rogue and "Rogue" in r.powers[killer]:
        roll = st.dice.d6()
        if roll >= 4:
            note_power(st, killer, "Rogue")
            gain_morale(st, killer, 1, f"Rogue rolls {roll}")
        elif st.verbose:
            emit(st, "power", f"Rogue rolls {roll}: no Morale.")


def rout(st: BattleState, seat: int) -> None:
    """Routed at 0 Morale: the Battle is lost at once; the victor rolls a d6 for each routed
    unit in the Disabled or Exhausted piles (or still in the Skirmish) and Kills it on a 5+."""
    r = st.roster
    st.routed = seat
    if st.verbose:
        emit(st, "rout", f"{r.names[seat]} is Routed!")
    st.pending.clear()
    for u in range(r.lo[seat], r.hi[seat]):
        if st.where[u] in (DISABLED, EXHAUSTED, PLAYED):
            roll = st.dice.d6()
            if st.verbose:
                emit(st, "rout", f"{r.names[1 - seat]} rolls {roll} for {r.name[u]} (Killed on a 5+).")
            if roll >= 5:
                if not spared(st, u):
                    kill(st, u, rogue=False)
            elif st.where[u] == PLAYED:
                st.where[u] = DISABLED
    end_battle(st, "rout")


def end_battle(st: BattleState, reason: str) -> None:
    """The winner: the other side of a Rout; else more enemy units Killed; else higher Morale;
    else the commanders roll off until one is higher."""
    r = st.roster
    st.step, st.actor, st.end_reason = OVER, -1, reason
    st.queue.clear()
    for u in range(r.n):
        if st.where[u] == PLAYED:
            st.where[u] = EXHAUSTED
    if st.routed >= 0:
        st.winner = 1 - st.routed
    elif st.kills[0] != st.kills[1]:
        st.winner = 0 if st.kills[0] > st.kills[1] else 1
    elif morale_of(st, 0) != morale_of(st, 1):
        st.winner = 0 if morale_of(st, 0) > morale_of(st, 1) else 1
    else:
        while True:
            a, b = st.dice.d6(), st.dice.d6()
            if st.verbose:
                emit(st, "roll_off", f"Roll-off: {r.names[0]} {a}, {r.names[1]} {b}.")
            if a != b:
                st.winner = 0 if a > b else 1
                break
    if st.verbose:
        emit(st, "end", f"The Battle ends: {words.battle_end(reason, r.names, st.routed)}. "
                        f"{r.names[st.winner]} wins. Kills {st.kills[0]}-"
                        f"{st.kills[1]}, Morale {morale_of(st, 0)}-{morale_of(st, 1)}.")
