"""The Command Dice view laid out for a phone: my side first, the three cards, the roll, and moves in words."""

from __future__ import annotations

import json
from typing import Any

from django import template

register = template.Library()

SUITS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}


def card(name: str | None) -> dict[str, Any] | None:
    """'3H' -> 3 of hearts, red; the number is the swords needed to defeat it."""
    if name is None:
        return None
    value, suit = name[:-1], name[-1]
    return {"name": name, "value": value, "suit": SUITS.get(suit, suit), "red": suit in "HD",
            "label": f"{value}{SUITS.get(suit, suit)}"}


def die(name: str, colours: dict[str, str]) -> dict[str, Any]:
    """'R2' -> a red die showing 2 swords."""
    return {"name": name, "colour": colours.get(name[0], name[0]), "swords": int(name[1:])}


def _counts(pool: dict[str, int]) -> str:
    return ", ".join(f"{n} {colour}" for colour, n in pool.items() if n) or "no dice"


def move_label(action: list, colours: list[str], table: list[str | None]) -> str:
    """A choice or an allocation as a person says it: 'Roll 2 red, 1 white' or 'Take 3♥ with R1+R2'."""
    if action[0] == "choose":
        return f"Roll {_counts(dict(zip(colours, action[1:], strict=True)))}"
    taken = [f"{card(table[place])['label']} with {'+'.join(dice)}"
             for place, dice in enumerate(action[1:]) if dice and table[place]]
    return f"Take {' and '.join(taken)}" if taken else "Take nothing: all dice back to the pool"


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
    for _, action in table.actions:
        parsed = json.loads(action)
        dice = [c for c, n in zip(colours, parsed[1:], strict=True) for _ in range(n)] if parsed[0] == "choose" else []
        moves.append({"label": move_label(parsed, colours, view["table"]), "action": action, "dice": dice})
    return {
        "sides": [side(first), side(1 - first)],
        "cards": [card(c) for c in view["table"]],
        "roll": [die(d, initials) for d in view["roll"]],
        "roller": view["players"][view["roller"]] if view["roller"] is not None else None,
        "rounds": [view["players"][w] if w is not None else "draw" for w in view["rounds"]],
        "moves": moves,
    }
