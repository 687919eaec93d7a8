"""What a commander may see, the result the campaign writes back, and the words for actions.

A commander sees their own hand, the opponent's hand only as a count, every pile (piles are
on the table), and a face-down card only once both are revealed (or if it is their own).
"""

from __future__ import annotations

from typing import Any

from gamekit.errors import RuleError
from gamekit.events import events_for
from gamekit.protocol import as_action

from .legal import legal_actions
from .outcome import morale_of
from .state import (
    DEFENSE,
    DISABLED,
    EXHAUSTED,
    HAND,
    KILLED,
    MENDER,
    MENDER_PICK,
    NECRO,
    OFFENSE,
    OVER,
    PLAY_DEFENSE,
    PLAY_OFFENSE,
    RITUAL,
    ROLES,
    SIDES,
    STEPS,
    BattleState,
)


def _pile(st: BattleState, seat: int, pile: int) -> list[dict[str, Any]]:
    r = st.roster
    return [r.unit_dict(u) for u in range(r.lo[seat], r.hi[seat]) if st.where[u] == pile]


def _revealed(st: BattleState) -> bool:
    """Both Skirmish cards are revealed once Defense is played (or passed); before, face down."""
    return st.step not in (PLAY_OFFENSE, PLAY_DEFENSE)


def view(st: BattleState, seat: int | None) -> dict[str, Any]:
    """What `seat` may see (``None``: a spectator, public information only)."""
    r = st.roster
    skirmish: dict[str, Any] = {}
    for side in (OFFENSE, DEFENSE):
        u = st.card[side]
        if u < 0 or st.step in (PLAY_OFFENSE, OVER):  # no Skirmish under way
            skirmish[SIDES[side]] = None
        elif _revealed(st) or r.owner[u] == seat:
            role = st.role_now[side]
            skirmish[SIDES[side]] = {**r.unit_dict(u), "role_now": ROLES[role] if role >= 0 else None}
        else:
            skirmish[SIDES[side]] = {"face_down": True}
    commanders = []
    for s in (0, 1):
        commanders.append({
            "name": r.names[s], "player": st.players[s] if s < len(st.players) else None,
            "powers": sorted(r.powers[s]), "morale": morale_of(st, s), "base_morale": st.base[s],
            "influence": st.influence[s], "kills": st.kills[s],
            "hand_count": sum(1 for u in range(r.lo[s], r.hi[s]) if st.where[u] == HAND),
            "exhausted": _pile(st, s, EXHAUSTED), "disabled": _pile(st, s, DISABLED),
            "killed": _pile(st, s, KILLED)})
    data: dict[str, Any] = {
        "game": "army-combat", "seat": seat, "phase": st.phase, "step": STEPS[st.step],
        "to_move": [] if st.step == OVER else [st.actor], "attacker": st.attacker,
        "commanders": commanders, "skirmish": skirmish,
        "hand": _pile(st, seat, HAND) if seat is not None else None,
        "legal_actions": [list(a) for a in legal_actions(st, seat)] if seat is not None else [],
        "events": events_for(st.log, seat), "over": st.step == OVER,
        "result": result(st) if st.step == OVER else None,
    }
    if seat is not None and st.mender_shown and "Mender" in r.powers[seat]:
        data["mender_revealed"] = [r.unit_dict(u) for u in st.mender_shown]
    return data


def result(st: BattleState) -> dict[str, Any]:
    """The outcome for the campaign: winner, kills, Morale, which cards ended where (by id),
    Base Morale spent (gone for the Day), Influence left, and the powers used (per-Day ones
    included, so the campaign can mark them used)."""
    r = st.roster
    over = st.step == OVER
    return {
        "winner": st.winner if over else None, "over": over, "reason": st.end_reason,
        "routed": st.routed if st.routed >= 0 else None,
        "scores": list(st.kills), "kills": list(st.kills),
        "morale": [morale_of(st, s) for s in (0, 1)],
        "base_morale_spent": list(st.base_spent),
        "influence": list(st.influence),
        "killed": [[r.uid[u] for u in range(r.lo[s], r.hi[s]) if st.where[u] == KILLED] for s in (0, 1)],
        "disabled": [[r.uid[u] for u in range(r.lo[s], r.hi[s]) if st.where[u] == DISABLED] for s in (0, 1)],
        "exhausted": [[r.uid[u] for u in range(r.lo[s], r.hi[s]) if st.where[u] == EXHAUSTED]
                      for s in (0, 1)],
        "powers_used": [dict(d) for d in st.powers_used],
        "day_powers_used": [sorted({*r.used_today[s], *(["Cleric"] if st.cleric_used[s] else [])})
                            for s in (0, 1)],
    }


def describe(st: BattleState, action: tuple) -> str:
    """A short button label for one of the mover's actions, in the words of the rules."""
    action = as_action(action) if not isinstance(action, tuple) else action
    r = st.roster
    seat = st.actor
    kind = action[0] if action else None
    step = st.step

    def unit(owner: int, uid: Any) -> str:
        u = r.find(owner, uid)
        if u < 0:
            raise RuleError("action", f"There is no card with id {uid!r} in this Battle: choose a listed action.")
        return r.name[u]

    if kind == "first":
        return "Take the first turn" if action[1] == seat else f"Let {r.names[action[1]]} take the first turn"
    if kind == "play":
        u = r.find(seat, action[1])
        label = f"Play {unit(seat, action[1])} (Str {max(r.strength[u], 0)})"
        if len(action) == 3:
            label += f" as {action[2]}"
        return f"{label} on {'Offense' if step == PLAY_OFFENSE else 'Defense'}"
    if kind == "pass":
        return "Pass (lose 1 Morale)" if step == PLAY_OFFENSE else "Pass"
    if kind == "decline":
        return {MENDER: "Do not use Mender", MENDER_PICK: "Disable neither card",
                NECRO: "Do not use Necromancer"}.get(step, "Decline")
    if kind == "react":
        name = unit(seat, action[1])
        verb = "Play" if r.role[r.find(seat, action[1])] == RITUAL else "Discard"
        if len(action) == 3 and isinstance(action[2], str):
            side = SIDES.index(action[2])
            amount = next(e[1] for e in r.fx[r.find(seat, action[1])].discard if e[0] == "add")
            return f"{verb} {name}: Add {amount} to {r.name[st.card[side]]} on {action[2].title()}"
        if len(action) == 3:
            return f"{verb} {name}: return {unit(seat, action[2])} to hand"
        return f"{verb} {name}"
    if kind == "power":
        return _describe_power(st, seat, action, unit)
    if kind == "disable":
        return f"Spend 1 Morale to Disable {unit(1 - seat, action[1])}"
    if kind in ("save", "accept_kill"):
        name = r.name[st.pending[0]] if st.pending else "the unit"
        if kind == "accept_kill":
            return f"Let {name} be Killed"
        return f"Spend 1 Influence to save {name}" if action[1] == "influence" else f"Spend 3 Morale to save {name}"
    if kind == "heal":
        return f"Discard {unit(seat, action[1])} to return {unit(seat, action[2])} to hand (1 Morale)"
    if kind == "skip_heal":
        return "Do not heal"
    raise RuleError("action", f"{action!r} is not an Army Combat action: choose one of the listed actions.")


def _describe_power(st: BattleState, seat: int, action: tuple, unit: Any) -> str:
    name = action[1] if len(action) > 1 else None
    arg = action[2] if len(action) > 2 else None
    if name in ("Evoker", "Illusionist"):
        target = st.roster.name[st.card[SIDES.index(arg)]]
        return f"{name}: Add {'2' if name == 'Evoker' else 'a d6'} to {target} on {str(arg).title()}"
    labels = {
        "Shapeshifter": lambda: f"Shapeshifter: make your unit a {arg}",
        "Etherealist": lambda: f"Etherealist: swap in {unit(seat, arg)} from hand",
        "Psionicist": lambda: "Psionicist: play a random card from hand, Adding 3",
        "Mender": lambda: f"Mender: {st.roster.names[1 - seat]} reveals 2 random cards",
        "Necromancer": lambda: f"Necromancer: return {unit(seat, arg)} to hand",
        "Cleric": lambda: f"Cleric: spend 1 Morale to return {unit(seat, arg)} from the dead",
    }
    if name not in labels:
        raise RuleError("action", f"{action!r} is not an Army Combat action: choose one of the listed actions.")
    return labels[name]()
