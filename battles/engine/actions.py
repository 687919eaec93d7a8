"""Applying one action to a Battle: `apply` checks it against `legal_actions` and hands it to its step.

Actions (tuples, in this stable order within each step)::

    ("first", seat)                          the chosen commander names who takes the first turn
    ("power", "Mender") / ("decline",)       before the Battle; then ("disable", id) / ("decline",)
    ("play", id) / ("play", id, role) / ("power", "Psionicist") / ("pass",)    Offense or Defense
    ("react", id[, side | target id]) / ("power", name, arg) / ("decline",)   reaction window
    ("save", "influence" | "morale") / ("accept_kill",)                       a unit would be Killed
    ("heal", healer id, target id) / ("power", "Cleric", id) / ("skip_heal",)  after a Skirmish
    ("power", "Necromancer", id) / ("decline",)                                start of Phase 2

The steps are in `phases`, the powers in `power_actions`, the refusals in `refusals`.
"""

from __future__ import annotations

from gamekit.errors import RuleError
from gamekit.events import Event
from gamekit.protocol import as_action

from . import words
from .legal import legal_actions
from .outcome import (
    disable,
    discard,
    end_battle,
    gain_morale,
    lose_morale,
    restore_base,
)
from .phases import (
    advance_heal,
    advance_mender,
    advance_necro,
    after_skirmish,
    next_turn,
    open_window,
    play_card,
    resolve_skirmish,
    reveal,
)
from .power_actions import POWER_ACTIONS
from .refusals import explain
from .skirmish import save
from .state import (
    DEFENSE,
    HAND,
    HEALER,
    MENDER,
    MENDER_PICK,
    OFFENSE,
    ONCE_SHAPESHIFTER,
    OVER,
    PILES,
    PLAY_DEFENSE,
    REACT,
    RITUAL,
    ROLES,
    SIDE_TITLES,
    SIDES,
    STEPS,
    BattleState,
    emit,
    note_power,
)


def _on_first(st: BattleState, seat: int, action: tuple) -> None:
    st.attacker = action[1]
    r = st.roster
    if st.verbose:
        emit(st, "first", words.first_turn(r.names, seat, action[1]))
    st.queue = [s for s in (st.attacker, 1 - st.attacker) if "Mender" in r.powers[s]]
    advance_mender(st)


def _on_play(st: BattleState, seat: int, action: tuple) -> None:
    r = st.roster
    u = r.index[seat][action[1]]
    if len(action) == 3:
        note_power(st, seat, "Adept" if action[2] == "Guardian" else "Master of Arms")
        play_card(st, seat, u, ROLES.index(action[2]), 0)
    else:
        play_card(st, seat, u, r.role[u], 0)


def _on_pass(st: BattleState, seat: int, action: tuple) -> None:
    """Pass on Offense: lose 1 Morale, the turn ends; two Passes in a row end the Battle.
    Pass on Defense: the attacker is Unopposed."""
    r = st.roster
    if st.step == PLAY_DEFENSE:
        if st.verbose:
            emit(st, "pass", f"{r.names[seat]} Passes on Defense.")
        reveal(st)
        return
    if st.verbose:
        emit(st, "pass", f"{r.names[seat]} Passes on Offense.")
    st.pass_streak += 1
    if lose_morale(st, seat, 1, "Passing"):
        return
    if st.pass_streak >= 2:
        end_battle(st, "both commanders Passed")
        return
    next_turn(st)


def _on_decline(st: BattleState, seat: int, action: tuple) -> None:
    if st.step == REACT:
        st.declines += 1
        if st.declines >= 2:
            resolve_skirmish(st)
        else:
            open_window(st, 1 - seat)
    elif st.step in (MENDER, MENDER_PICK):
        advance_mender(st)
    else:
        st.queue.pop(0)
        advance_necro(st)


def _on_react(st: BattleState, seat: int, action: tuple) -> None:
    """Discard a card (or play a Ritual) for its effect."""
    r = st.roster
    u = r.index[seat][action[1]]
    mine = OFFENSE if seat == st.attacker else DEFENSE
    if st.verbose:
        verb = "plays" if r.role[u] == RITUAL else "discards"
        aim = ""
        if len(action) == 3 and isinstance(action[2], str):
            side = SIDES.index(action[2])
            aim = f" for {r.name[st.card[side]]} on {SIDE_TITLES[side]}"
        emit(st, "react", f"{r.names[seat]} {verb} {r.name[u]}{aim}.")
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
                change = (f"becomes {words.a_role(ROLES[effect[1]])}" if kind == "set_role"
                          else f"gains {words.traits_of(effect[1])}")
                emit(st, "effect", f"{r.name[st.card[mine]]} {change} ({r.name[u]}).")
    st.declines = 0
    open_window(st, 1 - seat)


def _on_power(st: BattleState, seat: int, action: tuple) -> None:
    name = action[1]
    note_power(st, seat, name)
    POWER_ACTIONS[name](st, seat, action)


def _on_disable(st: BattleState, seat: int, action: tuple) -> None:
    """Mender: spend 1 Morale to Disable one of the revealed cards."""
    u = st.roster.index[1 - seat][action[1]]
    disable(st, u)
    if not lose_morale(st, seat, 1, "Mender"):
        advance_mender(st)


def _on_save(st: BattleState, seat: int, action: tuple) -> None:
    save(st, action[1] if action[0] == "save" else None)
    after_skirmish(st)


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
        advance_heal(st)


def _on_skip_heal(st: BattleState, seat: int, action: tuple) -> None:
    st.queue.pop(0)
    advance_heal(st)


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
