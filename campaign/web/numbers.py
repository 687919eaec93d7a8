"""Numbers typed by people or sent by phones, read in one place for pages and the API: an id is ASCII digits
that fit the database's bigint, a count is clamped to its bounds. Anything else ('²', '1e3', '-4', twenty
digits) is not an id, so it is a 404 or the default, never a 500 from the database."""

from __future__ import annotations

ID_PATTERN = "[0-9]{1,18}"
"""At most 18 digits: every such number fits PostgreSQL's bigint (19 digits may not)."""


def parse_id(text: object) -> int | None:
    """The id `text` spells, or None."""
    if not isinstance(text, str) or not (1 <= len(text) <= 18) or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


def parse_count(text: object, *, default: int, maximum: int) -> int:
    """A non-negative count from `text`, at most `maximum`; `default` when `text` is not a count."""
    value = parse_id(text)
    return default if value is None else min(value, maximum)


class IdConverter:
    """The `<id:...>` path converter: like `<int:...>`, but only ids that fit the database."""

    regex = ID_PATTERN

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


MAX_AMOUNT = 1_000_000
"""Lunari, Morale, Influence and stakes that people type are at most a million: far above any purse, far below
the database's integer limit."""
