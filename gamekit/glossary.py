"""The glossary every engine keeps: the words of its rules, each explained in one to three sentences taken
from a rules text, so a new player can play without the rulebook.

Each engine holds its terms in its own ``glossary.py`` as ``TERMS``, a tuple of `Term`. A term lists the
engine's own names it explains (`explains`: ``"phase:allocate"``, ``"action:engage"``, ``"power:Evoker"``),
so a table finds the term for its current phase, each move it offers and each power in play, and a test finds
any phase, action or power the glossary lacks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

KINDS = {"phase": "Phases and steps", "action": "Actions", "power": "Powers", "role": "Roles",
         "trait": "Traits", "term": "Terms"}
"""The kinds of term, in the order a glossary lists them, with their headings."""

SOURCES = ("army-combat.txt", "command-dice-battle.txt", "squad-combat.txt", "unholy-war-level-1.txt",
           "unity.txt", "RULINGS.md")
"""The rules texts (shared/rules/) a term's words may come from."""


@dataclass(frozen=True)
class Term:
    """One word of a game's rules: `text` explains it in the words of the rules text `source`."""

    word: str
    kind: str
    text: str
    source: str
    explains: tuple[str, ...] = ()
    """The engine's own names this term explains, as ``namespace:name`` ("phase:command", "trait:Reach")."""

    @property
    def slug(self) -> str:
        """The word as an anchor: 'Master of Arms' -> 'master-of-arms'."""
        return re.sub(r"[^a-z0-9]+", "-", self.word.lower()).strip("-")


def action_key(action: Sequence) -> str:
    """The key of the term that explains an action: its first word (``action:engage``), or, for an action that
    uses a commander power by name (Army Combat's ``("power", "Evoker", ...)``), that power (``power:Evoker``)."""
    if action[0] == "power" and len(action) > 1:
        return f"power:{action[1]}"
    return f"action:{action[0]}"


def by_key(terms: Iterable[Term]) -> dict[str, Term]:
    """Each name a term explains -> that term. A name two terms claim is a mistake in the glossary."""
    index: dict[str, Term] = {}
    for term in terms:
        for key in term.explains:
            if key in index:
                raise ValueError(f"{key!r} is explained by both {index[key].word!r} and {term.word!r}: keep one.")
            index[key] = term
    return index
