"""The Command Dice view laid out for a phone: my side first, the three cards, the roll, and moves in words."""

from __future__ import annotations

import json
from typing import Any

from django import template

from cardgames.engine.command_dice.glossary import FIST
from cardgames.engine.command_dice.rules import card_is_red
from cardgames.engine.command_dice.words import PHASE_TITLES, SUITS, card_label

register = template.Library()


def card(name: str | None) -> dict[str, Any] | None:
    """'3H' -> 3 of hearts, red; the number is the swords needed to defeat it."""
    if name is None:
        return None
    value, suit = name[:-1], name[-1]
    return {"name": name, "value": value, "suit": SUITS.get(suit, suit), "red": card_is_red(name),
            "label": card_label(name)}


def die(name: str, colours: dict[str, str]) -> dict[str, Any]:
    """'R2' -> a red die showing 2 swords."""
    return {"name": name, "colour": colours.get(name[0], name[0]), "swords": int(name[1:])}


@register.simple_tag
def command_dice_board(table) -> dict[str, Any]:
    """The view of `table` (a selectors.TableView) arranged for the template: sides me-first, cards, roll, and
    moves (a choice carries its dice colour by colour, so a phone shows it as dice rather than words)."""
    view = table.view
    colours = list(view["pools"][0])
    initials = {c[0].upper(): c for c in colours}
    first = table.seat if table.seat is not None else 0
    red = view["sides"]["red"]

    def side(seat: int) -> dict[str, Any]:
        chosen = view["chosen"][seat]
        return {
            "seat": seat, "name": view["players"][seat], "me": seat == table.seat,
            "colour": "red" if seat == red else "black", "victories": view["victories"][seat],
            "pool": [(c, view["pools"][seat][c]) for c in colours], "dice_left": sum(view["pools"][seat].values()),
            "chosen": chosen if chosen in (None, "chosen") else [(c, chosen[c]) for c in colours if chosen[c]],
            "won": [card(c) for c in view["won"][seat]], "score": view["scores"][seat],
            "to_move": seat in table.to_move, "rolling": view["roller"] == seat,
        }

    moves = []
    for label, action in table.actions:  # labelled by the engine's describe_action
        parsed = json.loads(action)
        dice = [c for c, n in zip(colours, parsed[1:], strict=True) for _ in range(n)] if parsed[0] == "choose" else []
        moves.append({"label": label, "action": action, "dice": dice})
    return {
        "sides": [side(first), side(1 - first)],
        "cards": [card(c) for c in view["table"]],
        "roll": [die(d, initials) for d in view["roll"]],
        "roller": view["players"][view["roller"]] if view["roller"] is not None else None,
        "rounds": [view["players"][w] if w is not None else "draw" for w in view["rounds"]],
        "moves": moves,
        "phase": PHASE_TITLES.get(view["phase"], view["phase"]),
        "fist_help": FIST.text,
    }
