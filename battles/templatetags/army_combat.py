"""The Army Combat view laid out for a phone: both commanders, the Skirmish, my hand as cards with their
actions on them, the other hand as a count. Reads only the engine's view for this seat (never the state)."""

from __future__ import annotations

import json
from typing import Any

from django import template

register = template.Library()

STEP_TITLES = {
    "choose_first": "Choosing who takes the first turn",
    "mender": "Before the Battle: Mender",
    "mender_pick": "Before the Battle: Mender",
    "offense": "Offense: a card goes face down",
    "defense": "Defense: answer the attack",
    "reaction": "Reactions before the dice",
    "save": "A unit would be Killed",
    "heal": "Healers after the Skirmish",
    "necromancer": "Second Phase: Necromancer",
    "over": "The Battle is over",
}
CARD_ACTIONS = ("play", "react", "heal")
"""Actions that use a card in hand (its id second): shown on that card."""
NEXT_TURN_EVENTS = ("play", "pass", "phase", "start", "first")
"""Event kinds after which the latest Skirmish's story is no longer news (a Pass before a reveal is
on Defense and is never reached: the walk back stops at the reveal)."""


def _skirmish_events(events: list[dict[str, Any]]) -> list[str]:
    """The texts of the latest Skirmish, from its reveal (modifiers, rolls, piles, heals), until the next
    card is played."""
    lines: list[str] = []
    for event in reversed(events):
        if event["kind"] in NEXT_TURN_EVENTS:
            return []
        lines.append(event["text"])
        if event["kind"] == "reveal":
            return lines[::-1]
    return []


def _commander(view: dict[str, Any], seat: int, me: int | None) -> dict[str, Any]:
    c = view["commanders"][seat]
    return {**c, "seat": seat, "me": seat == me, "to_move": seat in view["to_move"],
            "attacking": seat == view["attacker"] and not view["over"],
            "piles": [("Exhausted", c["exhausted"]), ("Disabled", c["disabled"]), ("Killed", c["killed"])]}


TABLE_WORDS = ("term:morale", "term:influence", "term:skirmish", "term:exhausted", "term:disabled", "term:killed")
"""Words every battle table shows, which the glossary explains."""


def _help_keys(view: dict[str, Any]) -> list[str]:
    """What the rules glossary explains on this table (battles/engine/glossary.py): the commanders' powers, each
    card's Role, Path and traits (in the Skirmish, in my hand, in the piles), a retinue and a Base's Morale."""
    commanders = view["commanders"]
    skirmish = [card for card in view["skirmish"].values() if card and not card.get("face_down")]
    piles = [unit for c in commanders for pile in ("exhausted", "disabled", "killed") for unit in c[pile]]
    keys = [f"power:{power}" for c in commanders for power in c["powers"]]
    for card in (*skirmish, *(view["hand"] or ()), *piles):
        keys += [f"role:{card.get('role_now') or card['role']}", f"path:{card['path']}",
                 *(f"trait:{trait}" for trait in card["traits"])]
        keys += ["term:retinue"] if card["retinue"] else []
    keys += ["term:base"] if any(c["base_morale"] for c in commanders) else []
    return [*keys, *TABLE_WORDS]


@register.simple_tag
def army_combat_board(table) -> dict[str, Any]:
    """The view of `table` (a cardgames.selectors.TableView) arranged for the template. When cards in hand
    can be played, the other actions (Pass, decline) come after the hand, else before it."""
    view = table.view
    me = table.seat
    on_card: dict[int, list[tuple[str, str]]] = {}
    other: list[tuple[str, str]] = []
    ids = {card["id"] for card in view["hand"] or ()}
    for label, action in table.actions:
        parts = json.loads(action)
        if parts[0] in CARD_ACTIONS and parts[1] in ids:
            on_card.setdefault(parts[1], []).append((label, action))
        else:
            other.append((label, action))
    order = [me, 1 - me] if me is not None else [0, 1]
    skirmish = view["skirmish"]
    live = skirmish["offense"] is not None
    return {
        "step": STEP_TITLES.get(view["step"], view["step"]),
        "phase": view["phase"],
        "commanders": [_commander(view, seat, me) for seat in order],
        "skirmish": [("Offense", skirmish["offense"]), ("Defense", skirmish["defense"])] if live else None,
        "skirmish_lines": _skirmish_events(view["events"]),
        "hand": [{**card, "actions": on_card.get(card["id"], [])} for card in view["hand"] or ()],
        "actions": other,
        "card_actions": bool(on_card),
        "mender_revealed": view.get("mender_revealed"),
        "help_keys": _help_keys(view),
    }
