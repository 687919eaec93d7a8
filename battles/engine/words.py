"""Army Combat in words, the rules' own (army-combat.txt): a button label for each action, and the terms the
battle log is told in (a Role with its article, a roll's sum with signed modifiers, who takes the first turn,
what a discarded card is for, why the Battle ended). The log's sentences are written where they happen, with
these words; nothing here runs unless the log is on."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamekit.errors import RuleError
from gamekit.protocol import as_action
from gamekit.words import and_list

from .state import (
    MENDER,
    MENDER_PICK,
    NECRO,
    PLAY_OFFENSE,
    REACT,
    RITUAL,
    SIDE_TITLES,
    SIDES,
    TRAITS,
    BattleState,
)

END_REASONS = {"both commanders Passed": "both commanders Passed",
               "both Unable in the second Phase": "both commanders are Unable to play in the second Phase"}
"""Why a Battle ended (the result's ``reason``), as the log says it; a Rout names who was Routed."""


def a_role(role: str) -> str:
    """A Role with its article: 'an Aggressor', 'a Guardian', 'an Equipment'."""
    return f"{'an' if role[0] in 'AEIOU' else 'a'} {role}"


def traits_of(bits: int) -> str:
    """Trait bits as their names: 'Fly', 'Reach and Ranged'."""
    return and_list([name for i, name in enumerate(TRAITS) if bits >> i & 1])


def strength_sum(base: int, die: int | None, mods: Sequence[tuple[int, str]]) -> str:
    """A unit's total as the log adds it up: base Strength, the die (none for Equipment), then each modifier
    with its sign and source: '2 + 6 + 1 Reach - 1 from cards'."""
    out = str(base) + ("" if die is None else f" + {die}")
    for amount, source in mods:
        out += f" - {-amount} {source}" if amount < 0 else f" + {amount} {source}"
    return out


def first_turn(names: Sequence[str], chooser: int, first: int) -> str:
    """The chosen commander's choice of who takes the first turn."""
    if chooser == first:
        return f"{names[chooser]} chooses to take the first turn."
    return f"{names[chooser]} chooses {names[first]} to take the first turn."


def battle_end(reason: str, names: Sequence[str], routed: int) -> str:
    """Why the Battle ended: a Rout names the commander Routed; the others say what both commanders did."""
    return f"{names[routed]} is Routed" if reason == "rout" else END_REASONS.get(reason, reason)


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
                NECRO: "Do not use Necromancer", REACT: "Do not react"}.get(step, "Decline")
    if kind == "react":
        name = unit(seat, action[1])
        verb = "Play" if r.role[r.find(seat, action[1])] == RITUAL else "Discard"
        if len(action) == 3 and isinstance(action[2], str):
            side = SIDES.index(action[2])
            amount = next(e[1] for e in r.fx[r.find(seat, action[1])].discard if e[0] == "add")
            return f"{verb} {name}: Add {amount} to {r.name[st.card[side]]} on {SIDE_TITLES[side]}"
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
        side = SIDES.index(arg)
        target = st.roster.name[st.card[side]]
        return f"{name}: Add {'2' if name == 'Evoker' else 'a d6'} to {target} on {SIDE_TITLES[side]}"
    labels = {
        "Shapeshifter": lambda: f"Shapeshifter: make your unit {a_role(str(arg))}",
        "Etherealist": lambda: f"Etherealist: swap in {unit(seat, arg)} from hand",
        "Psionicist": lambda: "Psionicist: play a random card from hand, Adding 3",
        "Mender": lambda: f"Mender: {st.roster.names[1 - seat]} reveals 2 random cards",
        "Necromancer": lambda: f"Necromancer: return {unit(seat, arg)} to hand",
        "Cleric": lambda: f"Cleric: spend 1 Morale to return {unit(seat, arg)} from the dead",
    }
    if name not in labels:
        raise RuleError("action", f"{action!r} is not an Army Combat action: choose one of the listed actions.")
    return labels[name]()
