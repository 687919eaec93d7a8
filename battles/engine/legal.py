"""What a commander may do now: `legal_actions` for each step, in a stable order, and the checks behind it
(able to play, Rituals allowed, reaction and healing options). A commander with no choice is never asked."""

from __future__ import annotations

from .effects import CHOICE_SIDE, CHOICE_TARGET
from .powers import SHAPESHIFTER_ROLES
from .state import (
    DEFENSE,
    DISABLED,
    EXHAUSTED,
    FIRST,
    HAND,
    HEAL,
    HEALER,
    KILLED,
    MENDER,
    MENDER_PICK,
    NECRO,
    OFFENSE,
    ONCE_ETHEREALIST,
    ONCE_PSIONICIST,
    ONCE_SHAPESHIFTER,
    OVER,
    PLAY_DEFENSE,
    PLAY_OFFENSE,
    REACT,
    RITUAL,
    ROLES,
    SAVE,
    SIDES,
    BattleState,
)

EVOKED, ILLUSION = 1, 2
"""Bits of `power_this_skirmish`: Evoker and Illusionist are each once per Skirmish."""

PASS_ACT, DECLINE_ACT, PSIONICIST_ACT = ("pass",), ("decline",), ("power", "Psionicist")
EVOKER_ACTS = tuple(("power", "Evoker", side) for side in SIDES)
ILLUSIONIST_ACTS = tuple(("power", "Illusionist", side) for side in SIDES)
"""Actions built once (the reaction window always has an Offense card; Defense may be empty)."""


def can_play(st: BattleState, seat: int) -> bool:
    """Able to play: a card with a Strength in hand (units without one cannot be played)."""
    where = st.where
    for u in st.roster.playable[seat]:  # noqa: SIM110 - a plain loop is faster on the hot path
        if where[u] == HAND:
            return True
    return False


def hand_of(st: BattleState, seat: int) -> list[int]:
    """The cards in `seat`'s hand, in army order."""
    r = st.roster
    return [u for u in range(r.lo[seat], r.hi[seat]) if st.where[u] == HAND]


def _play_actions(st: BattleState, seat: int) -> list[tuple]:
    r = st.roster
    lo, hi = r.lo[seat], r.hi[seat]
    acts = [a for w, plays in zip(st.where[lo:hi], r.seat_plays[seat], strict=True) if w == HAND for a in plays]
    if r.psionicist[seat] and not st.once_used[seat] & ONCE_PSIONICIST and st.where[lo:hi].count(HAND) >= 2:
        acts.append(PSIONICIST_ACT)
    acts.append(PASS_ACT)
    return acts


def ritual_allowed(st: BattleState, seat: int, u: int) -> bool:
    """Rituals: two per Battle and one per Phase (an Animist four and two), and the army must hold at
    least two units (not Killed) of the Ritual's Path."""
    r = st.roster
    animist = "Animist" in r.powers[seat]
    if st.rituals_battle[seat] >= (4 if animist else 2):
        return False
    if st.rituals_phase[seat] >= (2 if animist else 1):
        return False
    path = r.path[u]
    if path < 0:
        return False
    paths, roles, where = r.path, r.role, st.where
    count = 0
    for v in range(r.lo[seat], r.hi[seat]):
        if paths[v] == path and roles[v] != RITUAL and where[v] != KILLED:
            count += 1
            if count == 2:
                return True
    return False


def return_targets(st: BattleState, seat: int, u: int) -> list[int]:
    """Cards a 'return' effect of card `u` may bring back to hand."""
    r = st.roster
    targets = []
    for effect in r.fx[u].discard:
        if effect[0] == "return":
            piles, limit = effect[1], effect[2]
            for t in range(r.lo[seat], r.hi[seat]):
                if t != u and st.where[t] in piles and (limit < 0 or max(r.strength[t], 0) <= limit):
                    targets.append(t)
    return targets


def reaction_options(st: BattleState, seat: int) -> list[tuple]:
    """Discard-to-trigger cards, Rituals and commander powers usable in the reaction window."""
    r = st.roster
    mine = OFFENSE if seat == st.attacker else DEFENSE
    card = st.card
    acts: list[tuple] = []
    where = st.where
    for reactor in r.reactors[seat]:
        u = reactor[0]
        if where[u] != HAND:
            continue
        _, ritual, choice, always, needs_mine, needs_enemy, restores, react = reactor
        if ritual and not ritual_allowed(st, seat, u):
            continue
        if choice == CHOICE_SIDE:
            if card[OFFENSE] >= 0:
                acts.append(react[OFFENSE])
            if card[DEFENSE] >= 0:
                acts.append(react[DEFENSE])
        elif choice == CHOICE_TARGET:
            acts.extend(("react", r.uid[u], r.uid[t]) for t in return_targets(st, seat, u))
        elif (always or (needs_mine and card[mine] >= 0) or (needs_enemy and card[1 - mine] >= 0)
              or (restores and st.base[seat] < r.start_base[seat])):
            acts.append(react[0])
    if r.window_powers[seat]:
        powers = r.powers[seat]
        done = st.power_this_skirmish[seat]
        if "Evoker" in powers and st.evoker_left[seat] and not done & EVOKED:
            acts.append(EVOKER_ACTS[OFFENSE])
            if card[DEFENSE] >= 0:
                acts.append(EVOKER_ACTS[DEFENSE])
        if "Illusionist" in powers and st.illusionist_left[seat] and not done & ILLUSION:
            acts.append(ILLUSIONIST_ACTS[OFFENSE])
            if card[DEFENSE] >= 0:
                acts.append(ILLUSIONIST_ACTS[DEFENSE])
        if card[mine] >= 0:
            if "Shapeshifter" in powers and not st.once_used[seat] & ONCE_SHAPESHIFTER:
                acts.extend(("power", "Shapeshifter", role) for role in SHAPESHIFTER_ROLES
                            if ROLES.index(role) != st.role_now[mine])
            if "Etherealist" in powers and not st.once_used[seat] & ONCE_ETHEREALIST:
                acts.extend(("power", "Etherealist", r.uid[u]) for u in hand_of(st, seat) if r.strength[u] >= 0)
    if acts:
        acts.append(DECLINE_ACT)
    return acts


def _healers(st: BattleState, seat: int) -> list[int]:
    """Cards in hand that can heal: Healers, or (Shapeshifter unused) any unit made a Healer."""
    r = st.roster
    if "Shapeshifter" in r.powers[seat] and not st.once_used[seat] & ONCE_SHAPESHIFTER:
        return [u for u in hand_of(st, seat) if r.strength[u] >= 0]
    return [u for u in r.healers[seat] if st.where[u] == HAND]


def heal_options(st: BattleState, seat: int) -> list[tuple]:
    """After a Skirmish: spend 1 Morale and discard a Healer to return a card from Disabled or
    Exhausted (not a Healer, not above twice the Healer's Strength); a Cleric's Killed card."""
    r = st.roster
    if not r.heals[seat] or st.morale[seat] + st.base[seat] < 1:  # morale_of, inlined on the hot path
        return []
    acts: list[tuple] = []
    healers = _healers(st, seat)
    if healers:
        down = [t for t in range(r.lo[seat], r.hi[seat])
                if st.where[t] in (DISABLED, EXHAUSTED) and r.role[t] != HEALER]
        for h in healers:
            cap = 2 * r.strength[h]
            acts.extend(("heal", r.uid[h], r.uid[t]) for t in down if max(r.strength[t], 0) <= cap)
    if "Cleric" in r.powers[seat] and not st.cleric_used[seat]:
        acts.extend(("power", "Cleric", r.uid[t]) for t in range(r.lo[seat], r.hi[seat])
                    if st.where[t] == KILLED)
    if acts:
        acts.append(("skip_heal",))
    return acts


def _save_actions(st: BattleState, seat: int) -> list[tuple]:
    return [("save", "influence" if st.roster.pc[seat] else "morale"), ("accept_kill",)]


def _mender_actions(st: BattleState, seat: int) -> list[tuple]:
    return [("power", "Mender"), ("decline",)]


def _mender_pick_actions(st: BattleState, seat: int) -> list[tuple]:
    return [*(("disable", st.roster.uid[u]) for u in st.mender_shown if st.where[u] == HAND), ("decline",)]


def _necro_actions(st: BattleState, seat: int) -> list[tuple]:
    r = st.roster
    return [*(("power", "Necromancer", r.uid[u]) for u in range(r.lo[seat], r.hi[seat])
              if st.where[u] == DISABLED), ("decline",)]


_LEGAL = {
    FIRST: lambda st, seat: [("first", 0), ("first", 1)],
    MENDER: _mender_actions,
    MENDER_PICK: _mender_pick_actions,
    PLAY_OFFENSE: _play_actions,
    PLAY_DEFENSE: _play_actions,
    REACT: reaction_options,
    SAVE: _save_actions,
    HEAL: heal_options,
    NECRO: _necro_actions,
}


def legal_actions(st: BattleState, seat: int) -> list[tuple]:
    """The actions `seat` may take now, in a stable order (none when it is not their turn)."""
    cache = st.legal_cache
    if cache is not None and cache[0] == seat:
        return list(cache[1])
    acts = () if seat != st.actor or st.step == OVER else tuple(_LEGAL[st.step](st, seat))
    st.legal_cache = (seat, acts)
    return list(acts)
