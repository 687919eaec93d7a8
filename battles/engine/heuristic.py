"""How well a commander stands in an unfinished Battle: the quick estimate greedy and search players use.

The winner is whoever Routs the other, else whoever Killed more, else whoever has more Morale; so
the estimate weighs the kill balance first, then Morale (each point worth more the closer a
commander is to being Routed), then the Strength each side can still bring to a Skirmish (cards in
hand, and Exhausted or Skirmish cards while they may return for the second Phase), and, while a revealed
Skirmish waits for its dice, the odds of what those dice will do.
"""

from __future__ import annotations

import math

from .outcome import morale_of
from .skirmish import KILL_MARGIN, modifiers
from .state import (
    AGGRESSOR,
    DEFENSE,
    EQUIPMENT,
    EXHAUSTED,
    GUARDIAN,
    HAND,
    OFFENSE,
    OVER,
    PLAYED,
    REACT,
    BattleState,
)

KILL = 1.0
"""A Kill: it decides the Battle unless someone is Routed."""
MORALE = 1.5
"""The first Morale point above a Rout (worth more than a Kill: a Rout loses outright); each further point
is worth `MORALE_DECAY` times the one before."""
MORALE_DECAY = 0.95
STRENGTH = 0.1
"""A point of Strength still able to fight; a card without a Strength counts `NO_STRENGTH`."""
NO_STRENGTH = 1
SCALE = 2.0
"""The score's spread: tanh(score / SCALE) maps one Kill ahead, all else equal, to about 0.46."""

NO_DIE, ONE_DIE, BEST_OF_TWO = range(3)
SPREAD = 30
"""Strength differences beyond this are settled whatever the dice."""


def _die(kind: int) -> list[float]:
    """The chance of each face 0..6 of one side's die: none (Equipment), 1d6, or the best of 2d6."""
    if kind == NO_DIE:
        return [1.0] + [0.0] * 6
    if kind == ONE_DIE:
        return [0.0] + [1 / 6] * 6
    return [0.0] + [(2 * k - 1) / 36 for k in range(1, 7)]


def _odds_table(off: int, dfn: int) -> tuple[tuple[float, float, float, float], ...]:
    """For each Strength difference d (offense minus defense, -SPREAD..SPREAD) once the modifiers are
    in: the chances the totals favour Offense, tie, Kill the defender, Kill the attacker."""
    po, pd = _die(off), _die(dfn)
    rows = []
    for d in range(-SPREAD, SPREAD + 1):
        win = tie = kill_d = kill_o = 0.0
        for a in range(7):
            for b in range(7):
                p = po[a] * pd[b]
                if not p:
                    continue
                margin = d + a - b
                win += p * (margin > 0)
                tie += p * (margin == 0)
                kill_d += p * (margin >= KILL_MARGIN)
                kill_o += p * (margin <= -KILL_MARGIN)
        rows.append((win, tie, kill_d, kill_o))
    return tuple(rows)


ODDS = {(o, d): _odds_table(o, d) for o in range(3) for d in range(3)}
MORALE_VALUE = tuple(MORALE * (1 - MORALE_DECAY ** m) / (1 - MORALE_DECAY) for m in range(64))


def _die_kind(st: BattleState, side: int) -> int:
    """The die `skirmish.roll` will throw for `side` (see there)."""
    role, other = st.role_now[side], st.role_now[1 - side]
    if role == EQUIPMENT:
        return NO_DIE
    if (role == AGGRESSOR and side == OFFENSE and other != GUARDIAN) or (
            role == GUARDIAN and side == DEFENSE and other != AGGRESSOR):
        return BEST_OF_TWO
    return ONE_DIE


def _pending(st: BattleState, seat: int) -> float:
    """The expected score change for `seat` of a revealed Skirmish about to be rolled: Kills either
    way, and in the first Phase the loser's Strength leaving the fight (the winner's comes back)."""
    r = st.roster
    o, d = st.card
    if d < 0 or r.fx[o].no_damage or r.fx[d].no_damage:
        return 0.0
    diff = modifiers(st, OFFENSE, None) - modifiers(st, DEFENSE, None)
    win, tie, kill_d, kill_o = ODDS[_die_kind(st, OFFENSE), _die_kind(st, DEFENSE)][
        max(-SPREAD, min(SPREAD, diff)) + SPREAD]
    base_o, base_d = r.strength[o], r.strength[d]
    win += tie if base_o > base_d else tie / 2 if base_o == base_d else 0.0
    value = KILL * (kill_d - kill_o)
    if st.phase == 1:
        value += STRENGTH * (win * max(base_d, 0) - (1 - win) * max(base_o, 0))
    return value if r.owner[o] == seat else -value


def heuristic(st: BattleState, seat: int) -> float:
    """How well `seat` stands, in [-1, 1]: the result when the Battle is over."""
    if st.step == OVER:
        return 1.0 if st.winner == seat else -1.0
    r = st.roster
    where, strength, owner = st.where, r.strength, r.owner
    fighting = (HAND, EXHAUSTED, PLAYED) if st.phase == 1 else (HAND,)
    force = [0, 0]
    for u in range(r.n):
        if where[u] in fighting:
            force[owner[u]] += strength[u] if strength[u] > 0 else NO_STRENGTH
    other = 1 - seat
    score = (KILL * (st.kills[seat] - st.kills[other])
             + MORALE_VALUE[min(morale_of(st, seat), 63)] - MORALE_VALUE[min(morale_of(st, other), 63)]
             + STRENGTH * (force[seat] - force[other]))
    if st.step == REACT:
        score += _pending(st, seat)
    return math.tanh(score / SCALE)
