"""The course of a Battle: first turn, Offense and Defense, Pass and Unable, the reaction window,
Healers after a Skirmish, the two Phases and the end. `legal_actions` and `apply` live here.

Actions (tuples, in this stable order within each step)::

    ("first", seat)                          the chosen commander names who takes the first turn
    ("power", "Mender") / ("decline",)       before the Battle; then ("disable", id) / ("decline",)
    ("play", id) / ("play", id, role) / ("power", "Psionicist") / ("pass",)    Offense or Defense
    ("react", id[, side | target id]) / ("power", name, arg) / ("decline",)   reaction window
    ("save", "influence" | "morale") / ("accept_kill",)                       a unit would be Killed
    ("heal", healer id, target id) / ("power", "Cleric", id) / ("skip_heal",)  after a Skirmish
    ("power", "Necromancer", id) / ("decline",)                                start of Phase 2

A commander with no choice is never asked: Unable to play, nothing to react with, nothing to heal.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamekit.errors import RuleError
from gamekit.events import Event
from gamekit.protocol import as_action

from .effects import CHOICE_SIDE, CHOICE_TARGET
from .outcome import (
    can_save,
    disable,
    discard,
    end_battle,
    gain_morale,
    lose_morale,
    morale_of,
    restore_base,
)
from .powers import EVOKER_ADD, PSIONICIST_ADD, SHAPESHIFTER_ROLES
from .skirmish import add_power, resolve, save
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
    PILES,
    PLAY_DEFENSE,
    PLAY_OFFENSE,
    PLAYED,
    RANGED,
    REACT,
    RITUAL,
    ROLES,
    SAVE,
    SIDE_TITLES,
    SIDES,
    STEPS,
    BattleState,
    emit,
    note_power,
)

EVOKED, ILLUSION = 1, 2
"""Bits of `power_this_skirmish`: Evoker and Illusionist are each once per Skirmish."""

PASS_ACT, DECLINE_ACT, PSIONICIST_ACT = ("pass",), ("decline",), ("power", "Psionicist")
EVOKER_ACTS = tuple(("power", "Evoker", side) for side in SIDES)
ILLUSIONIST_ACTS = tuple(("power", "Illusionist", side) for side in SIDES)
"""Actions built once (the reaction window always has an Offense card; Defense may be empty)."""


# ---------------------------------------------------------------- what a commander can do


def can_play(st: BattleState, seat: int) -> bool:
    """Able to play: a card with a Strength in hand (units without one cannot be played)."""
    where = st.where
    for u in st.roster.playable[seat]:  # noqa: SIM110 - a plain loop is faster on the hot path
        if where[u] == HAND:
            return True
    return False


def _hand(st: BattleState, seat: int) -> list[int]:
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
                acts.extend(("power", "Etherealist", r.uid[u]) for u in _hand(st, seat) if r.strength[u] >= 0)
    if acts:
        acts.append(DECLINE_ACT)
    return acts


def _healers(st: BattleState, seat: int) -> list[int]:
    """Cards in hand that can heal: Healers, or (Shapeshifter unused) any unit made a Healer."""
    r = st.roster
    if "Shapeshifter" in r.powers[seat] and not st.once_used[seat] & ONCE_SHAPESHIFTER:
        return [u for u in _hand(st, seat) if r.strength[u] >= 0]
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


# ---------------------------------------------------------------- the course of the battle


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
    _advance_necro(st)


def _advance_necro(st: BattleState) -> None:
    r = st.roster
    while st.queue:
        seat = st.queue[0]
        if any(st.where[u] == DISABLED for u in range(r.lo[seat], r.hi[seat])):
            st.step, st.actor = NECRO, seat
            return
        st.queue.pop(0)
    start_turn(st)


def _advance_mender(st: BattleState) -> None:
    while st.queue:
        seat = st.queue.pop(0)
        if _hand(st, 1 - seat):
            st.step, st.actor = MENDER, seat
            return
    start_turn(st)


def _play(st: BattleState, seat: int, u: int, role: int, bonus: int) -> None:
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
    _reveal(st)


def _reveal(st: BattleState) -> None:
    r = st.roster
    if st.verbose:
        o, d = st.card
        emit(st, "reveal", f"Revealed: {r.name[o]} on Offense"
                           + (f" against {r.name[d]} on Defense." if d >= 0 else ", Unopposed."))
    st.declines = 0
    _open_window(st, st.attacker)


def _open_window(st: BattleState, seat: int) -> None:
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
            _resolve(st)
            return
        seat = 1 - seat


def _resolve(st: BattleState) -> None:
    resolve(st)
    _continue(st)


def _continue(st: BattleState) -> None:
    """After a Skirmish's results (and any save choices): Healers, then the next turn."""
    if st.step == OVER:
        return
    if st.pending:
        st.step, st.actor = SAVE, st.roster.owner[st.pending[0]]
        return
    if st.card[DEFENSE] < 0:
        _next_turn(st)
        return
    st.queue = [st.attacker, 1 - st.attacker]
    _advance_heal(st)


def _advance_heal(st: BattleState) -> None:
    while st.queue:
        seat = st.queue[0]
        options = heal_options(st, seat)
        if options:
            st.step, st.actor = HEAL, seat
            st.legal_cache = (seat, tuple(options))
            return
        st.queue.pop(0)
    _next_turn(st)


def _next_turn(st: BattleState) -> None:
    """Offense alternates each Skirmish."""
    st.attacker = 1 - st.attacker
    start_turn(st)


# ---------------------------------------------------------------- applying actions


def _on_first(st: BattleState, seat: int, action: tuple) -> None:
    st.attacker = action[1]
    r = st.roster
    if st.verbose:
        emit(st, "first", f"{r.names[seat]} chooses {r.names[action[1]]} to take the first turn.")
    st.queue = [s for s in (st.attacker, 1 - st.attacker) if "Mender" in r.powers[s]]
    _advance_mender(st)


def _on_play(st: BattleState, seat: int, action: tuple) -> None:
    r = st.roster
    u = r.index[seat][action[1]]
    if len(action) == 3:
        note_power(st, seat, "Adept" if action[2] == "Guardian" else "Master of Arms")
        _play(st, seat, u, ROLES.index(action[2]), 0)
    else:
        _play(st, seat, u, r.role[u], 0)


def _on_pass(st: BattleState, seat: int, action: tuple) -> None:
    """Pass on Offense: lose 1 Morale, the turn ends; two Passes in a row end the Battle.
    Pass on Defense: the attacker is Unopposed."""
    r = st.roster
    if st.step == PLAY_DEFENSE:
        if st.verbose:
            emit(st, "pass", f"{r.names[seat]} Passes on Defense.")
        _reveal(st)
        return
    if st.verbose:
        emit(st, "pass", f"{r.names[seat]} Passes on Offense.")
    st.pass_streak += 1
    if lose_morale(st, seat, 1, "Passing"):
        return
    if st.pass_streak >= 2:
        end_battle(st, "both commanders Passed")
        return
    _next_turn(st)


def _on_decline(st: BattleState, seat: int, action: tuple) -> None:
    if st.step == REACT:
        st.declines += 1
        if st.declines >= 2:
            _resolve(st)
        else:
            _open_window(st, 1 - seat)
    elif st.step in (MENDER, MENDER_PICK):
        _advance_mender(st)
    else:
        st.queue.pop(0)
        _advance_necro(st)


def _on_react(st: BattleState, seat: int, action: tuple) -> None:
    """Discard a card (or play a Ritual) for its effect."""
    r = st.roster
    u = r.index[seat][action[1]]
    mine = OFFENSE if seat == st.attacker else DEFENSE
    if st.verbose:
        emit(st, "react", f"{r.names[seat]} discards {r.name[u]}"
                          + (f" ({action[2]})" if len(action) == 3 and isinstance(action[2], str) else "") + ".")
    target = r.index[seat][action[2]] if len(action) == 3 and isinstance(action[2], int) else -1
    discard(st, u)
    if r.role[u] == RITUAL:
        st.rituals_battle[seat] += 1
        st.rituals_phase[seat] += 1
    for effect in r.fx[u].discard:
        kind = effect[0]
        if kind == "add":
            to = effect[2]
            side = mine if to == "own" else 1 - mine if to == "enemy" else SIDES.index(action[2])
            if st.card[side] >= 0:
                st.add_card[side] += effect[1]
                if effect[1] > 0:
                    st.add_card_n[side] += 1
                if st.verbose:
                    emit(st, "effect", f"{r.name[st.card[side]]} Adds {effect[1]} ({r.name[u]}).")
        elif kind == "morale":
            gain_morale(st, seat, effect[1], r.name[u])
        elif kind == "restore_base":
            restore_base(st, seat, r.name[u])
        elif kind == "return":
            if target >= 0 and st.where[target] != HAND:
                st.where[target] = HAND
                if st.verbose:
                    emit(st, "effect", f"{r.name[target]} returns to {r.names[seat]}'s hand ({r.name[u]}).")
        elif st.card[mine] >= 0:
            if kind == "set_role":
                st.role_now[mine] = effect[1]
            else:
                st.traits_now[mine] |= effect[1]
            if st.verbose:
                emit(st, "effect", f"{r.name[st.card[mine]]} changes ({r.name[u]}).")
    st.declines = 0
    _open_window(st, 1 - seat)


def _on_power(st: BattleState, seat: int, action: tuple) -> None:
    name = action[1]
    note_power(st, seat, name)
    _POWERS[name](st, seat, action)


def _evoker(st: BattleState, seat: int, action: tuple) -> None:
    """Evoker: three times per Battle, once per Skirmish, Add 2 to any unit in a Skirmish."""
    st.evoker_left[seat] -= 1
    st.power_this_skirmish[seat] |= EVOKED
    add_power(st, seat, SIDES.index(action[2]), EVOKER_ADD)
    st.declines = 0
    _open_window(st, 1 - seat)


def _illusionist(st: BattleState, seat: int, action: tuple) -> None:
    """Illusionist: twice per Battle, once per Skirmish, roll a d6 and either unit Adds it."""
    st.illusionist_left[seat] -= 1
    st.power_this_skirmish[seat] |= ILLUSION
    add_power(st, seat, SIDES.index(action[2]), st.dice.d6())
    st.declines = 0
    _open_window(st, 1 - seat)


def _shapeshifter(st: BattleState, seat: int, action: tuple) -> None:
    """Shapeshifter: once per Battle, change the Role of your card as it is revealed."""
    mine = OFFENSE if seat == st.attacker else DEFENSE
    st.once_used[seat] |= ONCE_SHAPESHIFTER
    st.role_now[mine] = ROLES.index(action[2])
    if st.verbose:
        emit(st, "power", f"Shapeshifter: {st.roster.name[st.card[mine]]} becomes {action[2]}.")
    st.declines = 0
    _open_window(st, 1 - seat)


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
    _open_window(st, 1 - seat)


def _psionicist(st: BattleState, seat: int, action: tuple) -> None:
    """Psionicist: once per Battle, shuffle the hand; the next card is drawn at random and Adds 3."""
    r = st.roster
    st.once_used[seat] |= ONCE_PSIONICIST
    choices = [u for u in _hand(st, seat) if r.strength[u] >= 0]
    u = choices[st.dice.below(len(choices))]
    if st.verbose:
        emit(st, "power", f"{r.names[seat]} shuffles their hand (Psionicist): a random card, Adding 3.")
    _play(st, seat, u, r.role[u], PSIONICIST_ADD)


def _mender(st: BattleState, seat: int, action: tuple) -> None:
    """Mender: before the Battle, the opponent reveals 2 random cards from hand."""
    r = st.roster
    hand = _hand(st, 1 - seat)
    shown = []
    for _ in range(min(2, len(hand))):
        shown.append(hand.pop(st.dice.below(len(hand))))
    st.mender_shown = shown
    if st.verbose:
        emit(st, "power", f"Mender: {r.names[1 - seat]} reveals "
                          f"{' and '.join(r.name[u] for u in shown)}.", (seat, 1 - seat))
    st.step = MENDER_PICK


def _on_disable(st: BattleState, seat: int, action: tuple) -> None:
    """Mender: spend 1 Morale to Disable one of the revealed cards."""
    u = st.roster.index[1 - seat][action[1]]
    disable(st, u)
    if not lose_morale(st, seat, 1, "Mender"):
        _advance_mender(st)


def _necromancer(st: BattleState, seat: int, action: tuple) -> None:
    """Necromancer: at the start of the second Phase, return 1 Disabled card to hand."""
    r = st.roster
    u = r.index[seat][action[2]]
    st.where[u] = HAND
    if st.verbose:
        emit(st, "power", f"Necromancer: {r.name[u]} returns to {r.names[seat]}'s hand.")
    st.queue.pop(0)
    _advance_necro(st)


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
        _advance_heal(st)


_POWERS = {"Evoker": _evoker, "Illusionist": _illusionist, "Shapeshifter": _shapeshifter,
           "Etherealist": _etherealist, "Psionicist": _psionicist, "Mender": _mender,
           "Necromancer": _necromancer, "Cleric": _cleric}


def _on_save(st: BattleState, seat: int, action: tuple) -> None:
    save(st, action[1] if action[0] == "save" else None)
    _continue(st)


def _on_heal(st: BattleState, seat: int, action: tuple) -> None:
    r = st.roster
    healer, target = r.index[seat][action[1]], r.index[seat][action[2]]
    if r.role[healer] != HEALER:
        st.once_used[seat] |= ONCE_SHAPESHIFTER
        note_power(st, seat, "Shapeshifter")
    if st.verbose:
        emit(st, "heal", f"{r.names[seat]} discards {r.name[healer]} to return {r.name[target]} "
                         f"from the {PILES[st.where[target]].title()} pile to hand.")
    discard(st, healer)
    st.where[target] = HAND
    if not lose_morale(st, seat, 1, "Healer"):
        _advance_heal(st)


def _on_skip_heal(st: BattleState, seat: int, action: tuple) -> None:
    st.queue.pop(0)
    _advance_heal(st)


_HANDLERS = {"first": _on_first, "play": _on_play, "pass": _on_pass, "decline": _on_decline,
             "react": _on_react, "power": _on_power, "disable": _on_disable, "save": _on_save,
             "accept_kill": _on_save, "heal": _on_heal, "skip_heal": _on_skip_heal}


def apply(st: BattleState, action: tuple, player: int | None = None) -> list[Event]:
    """Check and apply one action; returns its events (none when not verbose)."""
    if st.step == OVER:
        raise RuleError("Battle", "The Battle is over: no more actions; start a new Battle.")
    if not isinstance(action, tuple):
        action = as_action(action)
    seat = st.actor if player is None else player
    if seat != st.actor:
        raise RuleError("turn", f"It is {st.roster.names[st.actor]}'s turn ({STEPS[st.step]}): "
                                "wait for them to act.")
    cache = st.legal_cache
    legal = cache[1] if cache is not None and cache[0] == seat else tuple(legal_actions(st, seat))
    if action not in legal:
        raise explain(st, seat, action, legal)
    st.legal_cache = None
    st.actions.append((seat, action))
    out: list[Event] = []
    st.out = out
    _HANDLERS[action[0]](st, seat, action)
    if st.verbose:
        st.log.extend(out)
    return out


# ---------------------------------------------------------------- why an action is refused


def explain(st: BattleState, seat: int, action: tuple, legal: Sequence[tuple]) -> RuleError:
    """A RuleError naming the rule an illegal action breaks and saying what to do instead."""
    r = st.roster
    kind = action[0] if action else None
    step = st.step
    options = ", ".join(str(a) for a in legal)
    unit_id = action[1] if len(action) > 1 else None
    u = r.find(seat, unit_id) if kind in ("play", "react", "heal") else -1
    if kind in ("play", "react", "heal") and u < 0:
        return RuleError("Units", f"You have no card with id {unit_id!r} in this Battle: choose one of "
                                  f"your own cards ({options}).")
    if kind == "play":
        if step not in (PLAY_OFFENSE, PLAY_DEFENSE):
            return RuleError("Skirmish", f"Cards are played on Offense or Defense only; now it is the "
                                         f"{STEPS[step]} step: choose one of {options}.")
        if st.where[u] != HAND:
            return RuleError("Skirmish", f"{r.name[u]} is in your {PILES[st.where[u]]} pile, not your hand: "
                                         "play a card from your hand, or Pass.")
        if r.strength[u] < 0:
            return RuleError("Strength", f"{r.name[u]} has no Strength, and units without a Strength value "
                                         "cannot be played on Offense or Defense: choose another card or Pass.")
        return RuleError("Roles", "Only an Adept may play a card as a Guardian and only a Master of Arms "
                                  "as an Aggressor: play it with its own Role.")
    if kind == "react":
        if step != REACT:
            return RuleError("Discard", "Cards are discarded for their powers in the reaction window, after "
                                        f"both cards are revealed; now: {options}.")
        if st.where[u] != HAND:
            return RuleError("Discard", f"{r.name[u]} is not in your hand: only cards in hand can be discarded.")
        if not r.fx[u].discard:
            return RuleError("Discard", f"{r.name[u]} has no power triggered by discarding it: "
                                        f"choose one of {options}.")
        if r.role[u] == RITUAL and not ritual_allowed(st, seat, u):
            return RuleError("Rituals", "A commander may play two Rituals per Battle and one per Phase (an "
                                        "Animist four and two), with at least two units of the Ritual's Path in "
                                        "the army: decline, or play another card.")
        return RuleError("Discard", f"{r.name[u]} cannot be used that way now: choose one of {options}.")
    if kind == "heal":
        if step != HEAL:
            return RuleError("Healer", f"Healers are used after a Skirmish; now: {options}.")
        if morale_of(st, seat) < 1:
            return RuleError("Healer", "Using a Healer costs 1 Morale and you have none to spend: skip healing.")
        return RuleError("Healer", "A Healer must be a Healer card in your hand, and may return one card "
                                   "from your Disabled or Exhausted pile that is not a Healer and has at most "
                                   f"twice its Strength: choose one of {options}.")
    if kind == "save":
        need = "1 Influence (a player character)" if r.pc[seat] else "3 Morale (a non-player commander)"
        if step == SAVE and not can_save(st, seat):
            return RuleError("Killing a Unit", f"Saving a unit costs {need}, which you do not have: accept the Kill.")
        return RuleError("Killing a Unit", f"Saving a unit from being Killed costs {need} and is chosen when one "
                                           f"of your units would be Killed; now: {options}.")
    if kind == "power" and len(action) > 1 and action[1] not in r.powers[seat]:
        return RuleError("Commander powers", f"You do not have the {action[1]} power: choose one of {options}.")
    if kind == "power" and len(action) > 1:
        return RuleError(str(action[1]), f"{action[1]} cannot be used that way now (its limits may be spent): "
                                         f"choose one of {options}.")
    return RuleError(STEPS[step], f"{action!r} is not an action for the {STEPS[step]} step: "
                                  f"choose one of {options}.")

