"""How every engine's words put things together: a list as a sentence says it, and a count with its noun. The
terms themselves (cards, dice, Phases) are each engine's own, in its words or labels module."""

from __future__ import annotations

from collections.abc import Sequence


def and_list(items: Sequence[str]) -> str:
    """'A', 'A and B', 'A, B and C' ('' for none)."""
    return f"{', '.join(items[:-1])} and {items[-1]}" if len(items) > 1 else "".join(items)


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 card', '2 cards'; `many` for irregular words ('1 die', '3 dice')."""
    return f"{n} {word if n == 1 else many or word + 's'}"
