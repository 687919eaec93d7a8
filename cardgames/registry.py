"""Which engines the app can play, by the name each engine's `GAME.name` carries."""

from __future__ import annotations

from importlib import import_module

from gamekit.protocol import Game

ENGINES: dict[str, tuple[str, str]] = {
    "command-dice": ("cardgames.engine.command_dice", "Command Dice battle"),
    "unholy-war": ("cardgames.engine.unholy_war", "Unholy War (level 1)"),
    "squad-combat": ("cardgames.engine.squad_combat", "Squad Combat"),
    "unity": ("cardgames.engine.unity", "Unity"),
    "army-combat": ("battles.engine", "Army Combat battle"),
}

CARD_GAMES = ("command-dice", "unholy-war", "squad-combat", "unity")


def game_for(name: str) -> Game:
    """The engine named `name`; a clear error for an unknown one."""
    try:
        module_path, _ = ENGINES[name]
    except KeyError:
        raise ValueError(f"Unknown game {name!r}: choose one of {', '.join(sorted(ENGINES))}.") from None
    return import_module(module_path).GAME


def game_title(name: str) -> str:
    return ENGINES[name][1] if name in ENGINES else name


def card_game_choices() -> list[tuple[str, str]]:
    return [(name, ENGINES[name][1]) for name in CARD_GAMES]
