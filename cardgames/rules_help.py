"""Rules help for people at a table: every game's glossary (each engine's ``glossary.TERMS``) for the rules page,
and the terms a table shows beside its phase, its moves and what is in play.

The rules page filters the terms by the words asked for (the same filter its script, static/js/glossary.js,
applies as one types), and gives every term an anchor, ``<game>-<term slug>``, that the tables link to.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any

from cardgames.registry import CARD_GAMES, ENGINES
from gamekit.glossary import KINDS, Term, action_key, by_key

PAGE_ORDER = tuple(sorted(ENGINES, key=lambda game: game in CARD_GAMES))
"""The games in the order of the rules page: the Army Combat battle, then the card games in the registry's order."""


@dataclass(frozen=True)
class Entry:
    """A term on the rules page, at its anchor; `shown` when it matches the filter."""

    term: Term
    anchor: str
    shown: bool


@dataclass(frozen=True)
class Group:
    """The terms of one kind in one game's section ("Actions" of Unholy War)."""

    title: str
    entries: list[Entry]

    @property
    def shown(self) -> bool:
        return any(entry.shown for entry in self.entries)


@dataclass(frozen=True)
class Section:
    """One game on the rules page: its terms grouped by kind, and how many match the filter."""

    game: str
    title: str
    groups: list[Group]
    count: int


@cache
def glossary(game: str) -> tuple[Term, ...]:
    """The terms of `game` (a name of the registry's ENGINES), from its engine's glossary module."""
    module_path, _ = ENGINES[game]
    return import_module(f"{module_path}.glossary").TERMS


@cache
def terms_by_key(game: str) -> dict[str, Term]:
    return by_key(glossary(game))


def anchor(game: str, term: Term) -> str:
    """The id of `term` on the rules page: 'army-combat-morale'."""
    return f"{game}-{term.slug}"


def matches(term: Term, words: list[str]) -> bool:
    """Every one of `words` (lower case) is in the term's word, its text or its source."""
    seen = f"{term.word} {term.text} {term.source}".lower()
    return all(word in seen for word in words)


def glossary_sections(*, query: str = "") -> list[Section]:
    """Every game's section, in `PAGE_ORDER`, its terms grouped by kind, each marked shown when it
    matches `query` (all of them when it is empty). Every term is always there, so the page's script can filter
    again from the whole glossary; the others are hidden."""
    words = query.lower().split()
    sections = []
    for game in PAGE_ORDER:
        title = ENGINES[game][1]
        entries = [Entry(term, anchor(game, term), matches(term, words)) for term in glossary(game)]
        groups = [Group(heading, [e for e in entries if e.term.kind == kind]) for kind, heading in KINDS.items()]
        sections.append(Section(game, title, [g for g in groups if g.entries], sum(e.shown for e in entries)))
    return sections


def phase_term(game: str, view: dict[str, Any]) -> Term | None:
    """The term for the phase a table is in: its ``step`` where the engine's view has one (Army Combat, whose
    ``phase`` is the Battle's first or second; Squad Combat), else its ``phase``."""
    phase = view["step"] if "step" in view else view.get("phase")
    return terms_by_key(game).get(f"phase:{phase}")


def move_terms(game: str, actions: Iterable[tuple[str, str]]) -> list[Term]:
    """The terms explaining the moves on offer (each (label, action as JSON) of a table), each once, in the
    order the moves come."""
    index = terms_by_key(game)
    found = (index.get(action_key(json.loads(action))) for _, action in actions)
    return list(dict.fromkeys(term for term in found if term is not None))


def shown_terms(game: str, keys: Iterable[str]) -> list[Term]:
    """The terms for what a table shows (`keys` as the glossary names them: 'power:Evoker', 'trait:Reach'),
    each once, in the glossary's order."""
    index = terms_by_key(game)
    wanted = {index[key] for key in keys if key in index}
    return [term for term in glossary(game) if term in wanted]
