"""The Unholy War view laid out for a phone: the phase and any Engagement, my moves in words, my hand as
cards, then every side (mine first) with its Power, dice and cards in play. Reads only the engine's view for
this seat, which already hides other hands and other players' facedown cards."""

from __future__ import annotations

from typing import Any

from django import template

from .board_parts import Moves, parsed_moves, plural, seats_from

register = template.Library()

PHASES = {"strategy": "Strategy Phase", "command": "Command Phase", "ambush": "Ambush window",
          "backlash": "Backlash", "over": "The game is over"}
COMMAND_STEPS = ("command", "ambush", "backlash")
"""Phases in which a card's Power holds the Initiative (the Strategy Phase goes by the players' Power)."""
PAYS = {"tap": "Tap it", "die": "pay a die"}
AMBUSH = "Ambush the attacker with a facedown card"
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


def _card_name(view: dict[str, Any], seat: int, slot: int) -> str:
    """'card 2 (Zealot)', or 'card 2 (face down)' when this seat may not see it."""
    face = _face(view, view["players"][seat]["field"][slot]["card"])
    return f"card {slot} ({face['name'] if face else 'face down'})"


def _target(view: dict[str, Any], seat: int, slot: int) -> str:
    """Who an Engagement is against: the player, or one of their cards."""
    name = view["players"][seat]["name"]
    return name if slot < 0 else f"{name}'s {_card_name(view, seat, slot)}"


def _engagement(view: dict[str, Any]) -> str | None:
    eng = view["engagement"]
    if eng is None:
        return None
    return f"{_target(view, *eng['attacker'])} engages {_target(view, *eng['defender'])}."


def _side(view: dict[str, Any], seat: int, me: int | None, roles: dict) -> dict[str, Any]:
    player = view["players"][seat]
    field = [{"slot": slot, "face": _face(view, c["card"]), "dice": c["dice"], "face_up": c["face_up"],
              "tapped": c["tapped"], "role": roles.get((seat, slot))} for slot, c in enumerate(player["field"])]
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


def _hide_label(view: dict[str, Any], me: int, slot: int, other: int, dice: int, first: int) -> str:
    """'Alone', or how a hide with a second facedown card shares the dice and orders the pair."""
    if other < 0:
        return "Hide it alone"
    field = view["players"][me]["field"]
    total = field[slot]["dice"] + field[other]["dice"]
    return (f"With {_card_name(view, me, other)}: {plural(dice, 'die')} on card {slot}, {total - dice} on card "
            f"{other}; card {slot if first else other} placed first")


def _command_groups(view: dict[str, Any], me: int, moves: Moves, parts: list, action: str) -> None:
    """Moves of a card with Initiative, grouped under that card: pass or hide alone, engage by Tapping or
    by paying a die, hide with a facedown card (folded away: many ways to share the dice)."""
    slot = parts[1]
    name = _card_name(view, me, slot)  # the four groups in this order, whichever move of the card comes first
    moves.declare(f"card-{slot}", f"Your {name} has Initiative")
    moves.declare(f"card-{slot}-tap", f"{name}: Tap it to engage")
    moves.declare(f"card-{slot}-die", f"{name}: pay a die to engage")
    moves.declare(f"card-{slot}-hide", f"{name}: hide with a facedown card", open_=False)
    if parts[0] == "pass":
        moves.add(f"card-{slot}", "Pass (it Taps)", action)
    elif parts[0] == "hide":
        key = f"card-{slot}" if parts[2] < 0 else f"card-{slot}-hide"
        moves.add(key, _hide_label(view, me, *parts[1:]), action)
    else:
        _, _, pay, seat, target = parts
        moves.add(f"card-{slot}-{pay}", f"Engage {_target(view, seat, target)}", action)


def _moves(view: dict[str, Any], table) -> Moves:
    """Playing a card, or putting it under the deck, goes on that card in the hand (by kind); the rest into
    groups, in the engine's order."""
    me = table.seat
    moves = Moves()
    pool = view["players"][me]["power"] if me is not None else 0
    for parts, action in parsed_moves(table):
        kind = parts[0]
        if kind == "hurt":  # rarely wise: folded away
            moves.declare("hurt", "Start of your turn: hurt yourself", open_=False)
            moves.add("hurt", "Hurt yourself: gain a die, shuffle your discard pile into your deck and draw", action)
        elif kind == "play":
            moves.add_to_card(parts[1], "Play face up" if parts[2] == "up" else "Play face down", action)
        elif kind == "bottom":
            moves.add_to_card(parts[1], "Put on the bottom of your deck", action)
        elif kind == "assign":
            dice = view["players"][me]["field"][parts[1]]["dice"]
            moves.add("assign", f"{_card_name(view, me, parts[1])}: {dice} → {dice + 1} dice", action,
                      title=f"Assign a die from your pool ({pool} left)")
        elif kind in ("pass", "hide", "engage"):
            _command_groups(view, me, moves, parts, action)
        elif kind == "ambush":
            moves.add("ambush", f"{_card_name(view, me, parts[1])}: {PAYS[parts[2]]}", action, title=AMBUSH)
        elif kind == "decline":
            moves.add("ambush", "No Ambush: the Engagement resolves", action, title=AMBUSH)
        elif kind == "exert":
            moves.add("backlash", PAYS[parts[1]].capitalize(), action,
                      title="Backlash: your card that Hit a player is Exerted")
    return moves


def _hint(view: dict[str, Any], me: int) -> str:
    bottom = view["phase"] == "strategy" and view["players"][me]["power"] == 0
    return HINTS["bottom" if bottom else view["phase"]].format(power=view["initiative_power"])


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
    }
