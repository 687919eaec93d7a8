"""Resolving a Skirmish: Strength, dice, modifiers, ties, Disabled / Killed / Exhausted, Unopposed."""

from __future__ import annotations

from typing import cast

from . import words
from .effects import matches
from .outcome import disable, kill, lose_morale, would_kill
from .state import (
    AGGRESSOR,
    DEFENSE,
    DISABLED,
    ELEMENTAL,
    EQUIPMENT,
    EXHAUSTED,
    GUARDIAN,
    HEALER,
    OFFENSE,
    RANGED,
    REACH,
    ROLES,
    SAVANT,
    SIDE_TITLES,
    UNDEAD,
    BattleState,
    emit,
)

KILL_MARGIN = 3


def modifiers(st: BattleState, side: int, parts: list[tuple[int, str]] | None) -> int:
    """A unit's Strength before its die: base Strength; Reach +1 when the opponent has neither
    Reach nor Ranged; retinue +1; its own reveal text; Adds from other cards (a Savant gets +2
    more for each); the commander's Adds (Adept, Master of Arms, Necromancer, Animist, Shaman,
    Dervish, Scout, Evoker, Illusionist, Psionicist), which never trigger Savant."""
    r = st.roster
    u = st.card[side]
    o = st.card[1 - side]
    role, traits = st.role_now[side], st.traits_now[side]
    if o >= 0:
        orole, otraits, opath = st.role_now[1 - side], st.traits_now[1 - side], r.path[o]
    else:
        orole, otraits, opath = -1, 0, -1
    total = r.strength[u]
    bonus = 0
    if traits & REACH and not otraits & (REACH | RANGED):
        bonus += _add(parts, 1, "Reach")
    if r.retinue[u]:
        bonus += _add(parts, 1, "retinue")
    fx = r.fx
    for amount, to, against in fx[u].reveal:
        if to == "own" and (against is None or matches(against, orole, opath, otraits)):
            bonus += _add(parts, amount, r.name[u])
    if o >= 0:
        for amount, to, against in fx[o].reveal:
            if to == "enemy" and (against is None or matches(against, role, r.path[u], traits)):
                bonus += _add(parts, amount, r.name[o])
                if amount > 0 and role == SAVANT:
                    bonus += _add(parts, 2, "Savant")
    if st.add_card[side]:
        bonus += _add(parts, st.add_card[side], "from cards")
    if role == SAVANT and st.add_card_n[side]:
        bonus += _add(parts, 2 * st.add_card_n[side], "Savant")
    owner = r.owner[u]
    powers = r.powers[owner]
    if powers:
        if "Adept" in powers and role == GUARDIAN:
            bonus += _add(parts, 1, "Adept")
        if "Master of Arms" in powers and role == AGGRESSOR:
            bonus += _add(parts, 1, "Master of Arms")
        if "Necromancer" in powers and traits & UNDEAD:
            bonus += _add(parts, 1, "Necromancer")
        if "Animist" in powers and role == HEALER:
            bonus += _add(parts, 1, "Animist")
        if "Shaman" in powers and (traits & ELEMENTAL or role == SAVANT):
            bonus += _add(parts, 1, "Shaman")
        if "Scout" in powers and side == OFFENSE and r.traits[u] & RANGED:
            bonus += _add(parts, 1, "Scout")
        dervish = r.dervish[owner]
        if dervish is not None and o >= 0 and (orole if dervish[0] == 0 else opath) == dervish[1]:
            bonus += _add(parts, 1, "Dervish")
    if st.add_power[side]:
        bonus += _add(parts, st.add_power[side], "from powers")
    return total + bonus


def _add(parts: list[tuple[int, str]] | None, amount: int, source: str) -> int:
    """One modifier: its amount, noted with its source for the roll's line when there is one."""
    if parts is not None:
        parts.append((amount, source))
    return amount


def roll(st: BattleState, side: int) -> tuple[int, str]:
    """The die: none for Equipment; best of 2d6 for an Aggressor on Offense unless the defender is
    a Guardian, and for a Guardian on Defense unless the attacker is an Aggressor; else 1d6."""
    role = st.role_now[side]
    if role == EQUIPMENT:
        return 0, "roll no die"
    orole = st.role_now[1 - side] if st.card[1 - side] >= 0 else -1
    d = st.dice.roll
    first = d(6)
    if (role == AGGRESSOR and side == OFFENSE and orole != GUARDIAN) or (
            role == GUARDIAN and side == DEFENSE and orole != AGGRESSOR):
        second = d(6)
        best = max(first, second)
        return best, (f"roll {first} and {second}, keep {best}" if st.verbose else "")
    return first, (f"roll {first}" if st.verbose else "")


def _line(st: BattleState, side: int, parts: list[tuple[int, str]] | None, die: int, text: str,
          total: int) -> None:
    """The roll's line in the log; `parts` is what `modifiers` noted (a list while the log is on)."""
    r = st.roster
    u = st.card[side]
    role = st.role_now[side]
    added = words.strength_sum(r.strength[u], die if role != EQUIPMENT else None, cast(list, parts))
    emit(st, "roll", f"{r.name[u]} ({SIDE_TITLES[side]}, {ROLES[role] if role >= 0 else 'no Role'}) "
                     f"{text}: {added} = {total}")


def resolve(st: BattleState) -> None:
    """Resolve the revealed Skirmish (or the Unopposed attack). The winner is Exhausted; the
    loser Disabled, or Killed when beaten by 3 or more; Equipment with Strength 0 is Killed
    whatever the totals. Kills its owner could save are left in
    `st.pending` for their choice."""
    if st.card[DEFENSE] < 0:
        _unopposed(st)
        return
    r = st.roster
    verbose = st.verbose
    parts_o: list[tuple[int, str]] | None = [] if verbose else None
    parts_d: list[tuple[int, str]] | None = [] if verbose else None
    mod_o = modifiers(st, OFFENSE, parts_o)
    mod_d = modifiers(st, DEFENSE, parts_d)
    rerolls = 0
    while True:
        die_o, text_o = roll(st, OFFENSE)
        die_d, text_d = roll(st, DEFENSE)
        total_o, total_d = mod_o + die_o, mod_d + die_d
        if verbose:
            _line(st, OFFENSE, parts_o, die_o, text_o, total_o)
            _line(st, DEFENSE, parts_d, die_d, text_d, total_d)
        if total_o != total_d:
            winner = OFFENSE if total_o > total_d else DEFENSE
            break
        base_o, base_d = r.strength[st.card[OFFENSE]], r.strength[st.card[DEFENSE]]
        if base_o != base_d:
            winner = OFFENSE if base_o > base_d else DEFENSE
            if verbose:
                emit(st, "tie", "A tie: the higher base Strength wins.")
            break
        no_dice = st.role_now[OFFENSE] == EQUIPMENT and st.role_now[DEFENSE] == EQUIPMENT
        if no_dice or rerolls >= r.reroll_limit:
            winner = OFFENSE
            if verbose:
                emit(st, "tie", "Still tied with no re-rolls left: the attacker wins.")
            break
        rerolls += 1
        if verbose:
            emit(st, "tie", "A tie with equal base Strength: both re-roll.")
    killed = abs(total_o - total_d) >= KILL_MARGIN
    no_damage = r.fx[st.card[OFFENSE]].no_damage or r.fx[st.card[DEFENSE]].no_damage
    won = st.card[winner]
    if verbose:
        emit(st, "result", f"{r.name[won]} wins the Skirmish.")
    for side in (winner, 1 - winner):
        u = st.card[side]
        if st.role_now[side] == EQUIPMENT and r.strength[u] == 0:  # Killed in any Skirmish
            if verbose:
                emit(st, "result", f"{r.name[u]} is Equipment with Strength 0: Killed in any Skirmish.")
            would_kill(st, u)
        elif side == winner:
            st.where[u] = EXHAUSTED
            if verbose:
                emit(st, "pile", f"{r.name[u]} is Exhausted.")
        elif no_damage:
            st.where[u] = EXHAUSTED
            if verbose:
                emit(st, "result", f"No damage is dealt: {r.name[u]} is Exhausted.")
        elif killed:
            would_kill(st, u)
        else:
            disable(st, u)


def _unopposed(st: BattleState) -> None:
    """Unopposed: the unit rolls and Adds as in a Skirmish, deals 1 Morale per 4 whole points,
    then goes to the Exhausted pile."""
    r = st.roster
    u = st.card[OFFENSE]
    parts: list[tuple[int, str]] | None = [] if st.verbose else None
    total = modifiers(st, OFFENSE, parts)
    die, text = roll(st, OFFENSE)
    total += die
    damage = 0 if r.fx[u].no_damage else max(0, total) // 4
    st.where[u] = EXHAUSTED
    if st.verbose:
        _line(st, OFFENSE, parts, die, text, total)
        emit(st, "result", f"{r.name[u]} is Unopposed and deals {damage} Morale damage, then is Exhausted.")
    if damage:
        lose_morale(st, 1 - st.attacker, damage, f"Unopposed {r.name[u]}")


def save(st: BattleState, how: str | None) -> None:
    """The owner's choice for a unit that would be Killed: 1 Influence (player character) or
    3 Morale (non-player commander) to have it Disabled instead, or accept the Kill."""
    u = st.pending.pop(0)
    r = st.roster
    seat = r.owner[u]
    if how is None:
        kill(st, u, rogue=True)
        return
    st.where[u] = DISABLED
    if how == "influence":
        st.influence[seat] -= 1
        if st.verbose:
            emit(st, "save", f"{r.names[seat]} spends 1 Influence: {r.name[u]} is Disabled, not Killed.")
    else:
        if st.verbose:
            emit(st, "save", f"{r.names[seat]} spends 3 Morale: {r.name[u]} is Disabled, not Killed.")
        lose_morale(st, seat, 3, "saving a unit")


def add_power(st: BattleState, seat: int, side: int, amount: int, power: str) -> None:
    """A commander power's Add (Evoker, Illusionist): never triggers Savant."""
    st.add_power[side] += amount
    if st.verbose:
        emit(st, "power", f"{st.roster.name[st.card[side]]} Adds {amount} ({power}, {st.roster.names[seat]}'s "
                          "power).")

