"""What the card-game layouts share: seats in table order from the viewer, and the viewer's legal moves
sorted into titled groups or onto the cards they use. Not a template library (no ``register``): the game
modules beside it build on it, and the templates show its groups with ``games/_moves.html``."""

from __future__ import annotations

import json
from typing import Any


def seats_from(count: int, me: int | None) -> list[int]:
    """Every seat once, the viewer's first and then on round the table (a spectator starts at seat 0)."""
    start = me or 0
    return [(start + k) % count for k in range(count)]


def parsed_moves(table) -> list[tuple[list, str]]:
    """Each legal action of `table` (a selectors.TableView) as (its parts, its JSON for the button)."""
    return [(json.loads(action), action) for _, action in table.actions]


def plural(n: int, word: str) -> str:
    """'1 die', '3 dice', '2 cards'."""
    return f"{n} {word if n == 1 else {'die': 'dice'}.get(word, word + 's')}"


class Moves:
    """Buttons sorted into titled groups (in the order the groups were first named) or onto a card."""

    def __init__(self) -> None:
        self._groups: dict[str, dict[str, Any]] = {}
        self.on_card: dict[Any, list[dict[str, str]]] = {}

    def declare(self, key: str, title: str, *, open_: bool = True) -> None:
        """Name a group (its place among the groups is fixed now, even before it has moves)."""
        self._groups.setdefault(key, {"key": key, "title": title, "open": open_, "moves": []})

    def add(self, key: str, label: str, action: str, *, title: str | None = None) -> None:
        """A button in group `key`, which `title` names unless it was declared before."""
        if title is not None:
            self.declare(key, title)
        self._groups[key]["moves"].append({"label": label, "action": action})

    def add_to_card(self, card: Any, label: str, action: str, *, full: str | None = None) -> None:
        """A button on `card`; `full`, the engine's whole label, is read out when `label` is a short form."""
        self.on_card.setdefault(card, []).append({"label": label, "action": action, "full": full})

    def groups(self) -> list[dict[str, Any]]:
        """The groups that have moves, each ``{key, title, open, moves: [{label, action}]}``."""
        return [g for g in self._groups.values() if g["moves"]]
