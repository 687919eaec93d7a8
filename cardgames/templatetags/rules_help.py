"""Rules help beside a table (#17 item 4): the term for the phase it is in, for each move it offers and for each
power or word it shows, each from the game's glossary (cardgames.rules_help); and links into the rules page."""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.urls import reverse

from cardgames import rules_help
from gamekit.glossary import Term

register = template.Library()


@register.simple_tag
def phase_term(table) -> Term | None:
    """The term for the phase `table` (a selectors.TableView) is in."""
    return rules_help.phase_term(table.match.game, table.view)


@register.simple_tag
def move_terms(table) -> list[Term]:
    """The terms for the moves `table` offers its viewer, each once."""
    return rules_help.move_terms(table.match.game, table.actions)


@register.simple_tag
def shown_terms(table, keys: Iterable[str]) -> list[Term]:
    """The terms for what the table shows, named by `keys` ('power:Evoker', 'trait:Reach')."""
    return rules_help.shown_terms(table.match.game, keys)


@register.simple_tag
def glossary_url(game: str, term: Term | None = None) -> str:
    """The rules page at `game`'s section, or at `term` in it."""
    return f"{reverse('glossary')}#{rules_help.anchor(game, term) if term else game}"
