"""Command Dice in words a person reads: cards as '3♥', dice by colour, and button labels for actions.

The one place these words are built: the engine's `describe_action` and event texts, and the table layout
(cardgames/templatetags/command_dice.py), all use them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

SUITS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}
"""Suit letters of the config's card names ('3H') as the suits printed on the cards."""

NOTHING = "Take nothing: all dice back to the pool"
"""The allocation when no card can be defeated: every die returns."""

PHASE_TITLES = {"choose": "Choosing dice in secret", "allocate": "Rolling to defeat cards",
                "over": "The battle is over"}
"""Each phase of a Turn as the table names it (the view's ``phase`` is a code)."""


def card_label(name: str) -> str:
    """'3H' -> '3♥' (the number is the swords needed to defeat it)."""
    return f"{name[:-1]}{SUITS.get(name[-1], name[-1])}"


def deck_words(names: Sequence[str], config: dict[str, Any]) -> str:
    """A deck of the config as its cards are printed: '1♥, 2♥, 3♥' (a setting's words on the table page)."""
    return ", ".join(map(card_label, names))


def pool_words(counts: Sequence[int], colours: Sequence[str]) -> str:
    """Dice by colour, '2 red, 1 white' (colours with none left out), or 'no dice'."""
    return ", ".join(f"{n} {c}" for n, c in zip(counts, colours, strict=True) if n) or "no dice"


def dice_words(dice: Sequence[str], colours: Sequence[str]) -> str:
    """Rolled dice ('R1' is a red die showing 1 sword) as 'red 1 + white 2'."""
    by_initial = {c[0].upper(): c for c in colours}
    return " + ".join(f"{by_initial.get(d[0], d[0])} {d[1:]}" for d in dice)


def action_words(action: Sequence[Any], colours: Sequence[str], table: Sequence[str | None]) -> str:
    """A choice or an allocation as a person says it: 'Roll 2 red, 1 white' (the dice held in the fist) or
    'Take 3♥ with red 1 + red 2' (the dice placed on each card defeated, each with the swords it shows).
    `table` holds the card names in place (None: no card); a card whose name is on the table twice is told
    apart by its place, counted from 1."""
    if action[0] == "choose":
        return f"Roll {pool_words(action[1:], colours)}"
    taken = []
    for place, dice in enumerate(action[1:]):
        name = table[place]
        if dice and name is not None:
            where = f" in place {place + 1}" if table.count(name) > 1 else ""
            taken.append(f"{card_label(name)}{where} with {dice_words(dice, colours)}")
    return f"Take {' and '.join(taken)}" if taken else NOTHING
