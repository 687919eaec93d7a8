"""Filters that turn an engine's view (plain dicts and lists) into something a person reads."""

from django import template

register = template.Library()

HIDDEN_KEYS = {"game", "you", "players", "to_move"}
GENERIC_LAYOUT = "cardgames/games/_generic.html"


@register.filter
def game_layout(game: str) -> list[str]:
    """The templates to lay out a game's table, best first: ``games/<game>.html`` (``unholy-war`` ->
    ``unholy_war.html``), else the generic key/value table. For ``{% include %}``, which takes the first
    that exists."""
    return [f"cardgames/games/{game.replace('-', '_')}.html", GENERIC_LAYOUT]


@register.filter
def pretty(value) -> str:
    """Lists as comma-separated items, dicts as 'key value' pairs, nothing as a dash."""
    if value is None or value == [] or value == {}:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return "; ".join(f"{k.replace('_', ' ')} {pretty(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(pretty(v) for v in value)
    return str(value).replace("_", " ")


@register.filter
def view_rows(view: dict) -> list[tuple[str, object]]:
    """The view's entries worth a row on the table, in the engine's order."""
    return [(key.replace("_", " ").capitalize(), value) for key, value in view.items() if key not in HIDDEN_KEYS]


@register.filter
def seat_name(seats, index):
    for seat in seats:
        if seat.seat == index:
            return seat.name
    return f"seat {index}"
