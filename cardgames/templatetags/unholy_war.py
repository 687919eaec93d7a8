"""The Unholy War view laid out for a phone: the phase and any Engagement, my moves in words, my hand as
cards, then every side (mine first) with its Power, dice and cards in play. Reads only the engine's view for
this seat, which already hides other hands and other players' facedown cards."""

from __future__ import annotations

import json
from typing import Any

from django import template

from cardgames.engine.unholy_war.table import card_no, card_ref, target_ref

from .board_parts import Moves, seats_from

register = template.Library()

PHASES = {"strategy": "Strategy Phase", "command": "Command Phase", "ambush": "Ambush window",
          "backlash": "Backlash", "over": "The game is over"}
COMMAND_STEPS = ("command", "ambush", "backlash")
"""Phases in which a card's Power holds the Initiative (the Strategy Phase goes by the players' Power)."""
HINTS = {
    "strategy": "Play cards from your hand (each takes a die from your pool) and assign the rest of your pool to "
                "your cards; cards still in hand then go to the bottom of your deck.",
    "bottom": "Your pool is empty: put the cards left in your hand on the bottom of your deck, one at a time.",
    "command": "Your card with Power {power} has Initiative: engage, hide or pass.",
    "ambush": "You are engaged: ambush the attacker with a facedown card, which becomes the attacker, or let the "
              "Engagement resolve.",
    "backlash": "Your card Hit a player: the backlash Exerts it.",
}
"""What the seat to move may do, by phase ('bottom': the Strategy Phase once the pool is empty)."""


def _face(view: dict[str, Any], kind: int | None) -> dict[str, Any] | None:
    """A card kind as a person reads it: 'Zealot', ATK +3, DEF -2 (None: a card this seat may not see)."""
    if kind is None:
        return None
    name, attack, defense = view["cards"][kind]
    return {"name": name, "atk": f"{attack:+d}", "def": f"{defense:+d}"}


def _roles(view: dict[str, Any]) -> dict[tuple[int, int], str]:
    """(seat, slot) -> 'attacker' or 'defender' in the Engagement under way (slot -1: the player)."""
    eng = view["engagement"]
    if eng is None:
        return {}
    return {tuple(eng["attacker"]): "attacker", tuple(eng["defender"]): "defender"}


def _seen(view: dict[str, Any], seat: int, slot: int) -> tuple[str | None, bool]:
    """A card in play as this seat may see it: its name (None: hidden from this seat) and whether it is face up."""
    c = view["players"][seat]["field"][slot]
    return (None if c["card"] is None else view["cards"][c["card"]][0]), c["face_up"]


def _card(view: dict[str, Any], seat: int, slot: int) -> str:
    """In the engine's words, counted from 1: 'Zealot (card 2)', 'facedown card 2'."""
    return card_ref(slot, *_seen(view, seat, slot))


def _target(view: dict[str, Any], seat: int, slot: int) -> str:
    """A side in an Engagement: the player (slot -1), or one of their cards ("bastian's facedown card 2")."""
    name = view["players"][seat]["name"]
    return name if slot < 0 else target_ref(name, slot, *_seen(view, seat, slot))


def _engagement(view: dict[str, Any]) -> str | None:
    eng = view["engagement"]
    if eng is None:
        return None
    return f"{_target(view, *eng['attacker'])} engages {_target(view, *eng['defender'])}."


def _side(view: dict[str, Any], seat: int, me: int | None, roles: dict) -> dict[str, Any]:
    player = view["players"][seat]
    field = [{"slot": slot, "number": card_no(slot), "face": _face(view, c["card"]), "dice": c["dice"],
              "face_up": c["face_up"], "tapped": c["tapped"], "role": roles.get((seat, slot))}
             for slot, c in enumerate(player["field"])]
    return {
        "seat": seat, "name": player["name"], "me": seat == me, "to_move": seat in view["to_move"],
        "power": player["power"], "dice": player["dice"], "defeated": player["defeated"],
        "hand_size": player["hand_size"], "deck_size": player["deck_size"],
        "discard": [view["cards"][k][0] for k in player["discard"]], "field": field,
        "role": roles.get((seat, -1)),
    }


def _hand(view: dict[str, Any], me: int | None, moves: Moves) -> list[dict[str, Any]]:
    """My hand, one card per kind with how many I hold, each with its moves (play it, or to the deck)."""
    if me is None:
        return []
    kinds = view["players"][me]["hand"]
    return [{**_face(view, kind), "count": kinds.count(kind), "moves": moves.on_card.get(kind, [])}
            for kind in sorted(set(kinds))]


def _moves(view: dict[str, Any], table) -> Moves:
    """Each legal move under the engine's label (``describe_action``): playing a card, or putting it under the
    deck, goes on that card in the hand (by kind); the rest into groups, in the engine's order."""
    me = table.seat
    moves = Moves()
    for label, action in table.actions:
        parts = json.loads(action)
        kind = parts[0]
        if kind == "hurt":  # rarely wise: folded away
            moves.declare("hurt", "Start of your turn: hurt yourself", open_=False)
            moves.add("hurt", label, action)
        elif kind in ("play", "bottom"):
            moves.add_to_card(parts[1], label, action)
        elif kind == "assign":
            moves.add("assign", label, action,
                      title=f"Assign the dice in your pool ({view['players'][me]['power']} left)")
        elif kind in ("pass", "hide", "engage"):
            slot = parts[1]  # a card with Initiative: its moves, then (folded) its ways to hide with another card
            name = _card(view, me, slot)
            moves.declare(f"card-{slot}", f"Your {name} has Initiative")
            moves.declare(f"card-{slot}-hide", f"Hide your {name} with a facedown card", open_=False)
            moves.add(f"card-{slot}-hide" if kind == "hide" and parts[2] >= 0 else f"card-{slot}", label, action)
        elif kind in ("ambush", "decline"):
            moves.add("ambush", label, action, title="Ambush the attacker with a facedown card")
        elif kind == "exert":
            moves.add("backlash", label, action, title="Backlash: your card that Hit a player is Exerted")
    return moves


def _hint(view: dict[str, Any], me: int) -> str:
    bottom = view["phase"] == "strategy" and view["players"][me]["power"] == 0
    return HINTS["bottom" if bottom else view["phase"]].format(power=view["initiative_power"])


def _help_keys(view: dict[str, Any]) -> list[str]:
    """What the rules glossary explains on this table (unholy_war/glossary.py): Power and the dice that defeat,
    Initiative in the Command Phase, Command Cards, and facedown and Tapped cards when there are any."""
    field = [card for player in view["players"] for card in player["field"]]
    return ["term:power", "term:dice", *(["term:initiative"] if view["phase"] in COMMAND_STEPS else []),
            *(["term:card"] if field or any(p["hand"] for p in view["players"]) else []),
            *(["term:facedown"] if any(not c["face_up"] for c in field) else []),
            *(["term:tapped"] if any(c["tapped"] for c in field) else [])]


@register.simple_tag
def unholy_war_board(table) -> dict[str, Any]:
    """The view of `table` (a selectors.TableView) arranged for the template."""
    view = table.view
    roles = _roles(view)
    moves = _moves(view, table)
    return {
        "phase": PHASES.get(view["phase"], view["phase"]),
        "initiative": view["initiative_power"] if view["phase"] in COMMAND_STEPS else None,
        "max_dice": view["house_rules"]["max_dice"],
        "engagement": _engagement(view),
        "sides": [_side(view, seat, table.seat, roles) for seat in seats_from(len(view["players"]), table.seat)],
        "hand": _hand(view, table.seat, moves),
        "groups": moves.groups(),
        "hint": _hint(view, table.seat) if table.actions else None,
        "help_keys": _help_keys(view),
    }
