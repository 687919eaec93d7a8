"""What happened in a game, in words a person can read, tagged with the seats that may see it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

EVERYONE = None
"""Event visibility meaning every seat (and spectators) may see it."""


@dataclass(slots=True)
class Event:
    """Something that happened, in words a person can read.

    `see` is ``EVERYONE`` or the tuple of seats allowed to see it (a drawn card, a
    secret choice). Views and logs filter events through `visible_to`.
    """

    kind: str
    text: str
    see: tuple[int, ...] | None = EVERYONE
    data: dict[str, Any] = field(default_factory=dict)

    def visible_to(self, player: int | None) -> bool:
        return self.see is EVERYONE or (player is not None and player in self.see)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "see": list(self.see) if self.see else None,
                "data": self.data}


def events_for(events: Iterable[Event], player: int | None) -> list[dict[str, Any]]:
    """The events `player` may see, as JSON-able dicts."""
    return [e.as_dict() for e in events if e.visible_to(player)]
