"""Which engines the app can play, by the name each engine's `GAME.name` carries: how many seats each takes
and the settings a match may choose at its start (decks, squads, hand sizes, house rules), with their defaults.

A match's config is the engine's own config holding only what differs from the defaults, so a record names
exactly what was changed; `game_start` is the one check of a config, the engine's `new_game` itself.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any

from gamekit.errors import RuleError
from gamekit.protocol import Game

ENGINES: dict[str, tuple[str, str]] = {
    "command-dice": ("cardgames.engine.command_dice", "Command Dice battle"),
    "unholy-war": ("cardgames.engine.unholy_war", "Unholy War (level 1)"),
    "squad-combat": ("cardgames.engine.squad_combat", "Squad Combat"),
    "unity": ("cardgames.engine.unity", "Unity"),
    "army-combat": ("battles.engine", "Army Combat battle"),
}

CARD_GAMES = ("command-dice", "unholy-war", "squad-combat", "unity")

MAX_SEATS = 6
"""The most seats a table page lays out."""
SHOWN_CHARS = 80
"""Data shown in a settings list is cut to this many characters."""

SEATS: dict[str, tuple[int, int]] = {
    "command-dice": (2, 2),   # "A game for two players"
    "unholy-war": (2, MAX_SEATS),  # "until only one player is remaining"; the engine takes any number from 2
    "squad-combat": (2, 6),   # turn order goes "around the table"; the engine seats 2 to 6
    "unity": (2, 6),          # "if there are three players ..."; the engine seats 2 to 6
    "army-combat": (2, 2),    # two commanders
}
"""The fewest and most seats of each game."""


@dataclass(frozen=True)
class Setting:
    """One choice a match makes at its start: `key` of the engine's config (inside the dict `group` when the
    engine keeps it there), a number (from `minimum` to `maximum`, bounds that keep a game playable and its
    engine quick), a yes/no or JSON data, with its default and a one-line help."""

    key: str
    label: str
    help: str
    default: Any
    kind: str = "int"
    group: str = ""
    minimum: int = 1
    maximum: int = 100
    words: Callable[[Any, dict[str, Any]], str] | None = None
    """How the table page says the value (given the match's whole config) when its data would show codes: card
    keys, '6S'; None: `_words`."""

    @property
    def name(self) -> str:
        """The setting's name in forms and errors: ``hand_size``, ``house_rules.start_dice``."""
        return f"{self.group}.{self.key}" if self.group else self.key

    def value_in(self, config: dict[str, Any]) -> Any:
        holder = (config.get(self.group) or {}) if self.group else config
        return holder.get(self.key, self.default)


@dataclass(frozen=True)
class SettingShown:
    """A setting as the table page lists it: its value in a few words, and whether the match changed it."""

    name: str
    label: str
    shown: str
    changed: bool


class SettingsError(ValueError):
    """A match cannot start with this config; `setting` names the setting at fault when one is (``seats`` for
    a seat count the game does not take; None when no one setting is)."""

    def __init__(self, message: str, setting: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.setting = setting


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


CARD_GAME_CHOICES = card_game_choices()
"""The card games a match or an encounter may be (Army Combat Battles start from the battles app)."""


def seats_refusal(name: str, count: int) -> str | None:
    """Why `count` seats cannot play this game, in words (None when they can)."""
    low, high = SEATS[name]
    if low <= count <= high:
        return None
    wanted = f"exactly {low}" if low == high else f"{low} to {high}"
    return f"{game_title(name)} takes {wanted} seats, not {count}: " + ("add" if count < low else "remove") \
        + " seats."


@cache
def game_settings(name: str) -> tuple[Setting, ...]:
    """The settings a match of this game may choose (none for a game the card-game pages do not start)."""
    return _SETTINGS[name]() if name in _SETTINGS else ()


OTHER_KEYS: dict[str, frozenset[str]] = {"unholy-war": frozenset({"decks"}),
                                         "squad-combat": frozenset({"squads", "decks"}),
                                         "unity": frozenset({"deck_order"})}
"""Config keys an engine takes beyond its settings (per-seat decks and squads, a fixed deck order): the API
may pass them, the start form does not offer them."""


def config_from(name: str, values: dict[str, Any]) -> dict[str, Any]:
    """The config of a match whose settings are `values` (by setting name; missing ones keep their default):
    only what differs from the defaults."""
    config: dict[str, Any] = {}
    for setting in game_settings(name):
        value = values.get(setting.name, setting.default)
        if value != setting.default:
            (config.setdefault(setting.group, {}) if setting.group else config)[setting.key] = value
    return config


def _check_keys(name: str, config: Any) -> None:
    """Refuse a setting the game does not have (a game with no settings described, Army Combat, leaves its
    config to its engine)."""
    if not isinstance(config, dict):
        raise SettingsError("The settings are an object of setting names and values, like {\"hand_size\": 6}.")
    if name not in _SETTINGS:
        return
    settings = game_settings(name)
    groups = {s.group for s in settings if s.group}
    other = OTHER_KEYS.get(name, frozenset())
    known = {s.key for s in settings if not s.group} | groups | other
    unknown = sorted(set(config) - known)
    for group in groups & set(config):
        if not isinstance(config[group], dict):
            raise SettingsError(f"{group} is an object of setting names and values.")
        unknown += [f"{group}.{key}" for key in sorted(set(config[group]) - _keys(name, group))]
    if unknown:
        raise SettingsError(f"{game_title(name)} has no setting {', '.join(unknown)}: use "
                            f"{', '.join(sorted({s.name for s in settings} | other))}.")


def _check_values(name: str, config: dict[str, Any]) -> None:
    """Numbers and yes/no settings are of their kind and numbers within their bounds (the engine checks data)."""
    for setting in game_settings(name):
        value = setting.value_in(config)
        if setting.kind == "bool" and not isinstance(value, bool):
            raise SettingsError(f"{setting.label} ({setting.name}) is true or false, not {value!r}.", setting.name)
        if setting.kind == "int" and (not isinstance(value, int) or isinstance(value, bool)
                                      or not setting.minimum <= value <= setting.maximum):
            raise SettingsError(f"{setting.label} ({setting.name}) is a whole number from {setting.minimum} to "
                                f"{setting.maximum}, not {value!r}.", setting.name)


def _keys(name: str, group: str) -> set[str]:
    return {s.key for s in game_settings(name) if s.group == group}


def game_start(name: str, config: dict[str, Any], players: list[str], seed: int) -> Any:
    """The engine's first state for these players and settings, or a `SettingsError` saying what to fix: the
    seat count, a setting the game does not have, or whatever the engine's own check refuses."""
    refusal = seats_refusal(name, len(players))
    if refusal:
        raise SettingsError(refusal, "seats")
    _check_keys(name, config)
    _check_values(name, config)
    try:
        return game_for(name).new_game(config, players, seed=seed)
    except RuleError as exc:
        names = {s.name for s in game_settings(name)}
        raise SettingsError(exc.message, exc.rule if exc.rule in names else None) from None
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
        raise SettingsError(f"These settings cannot be read ({exc}): compare them with the defaults.") from None


def settings_shown(name: str, config: dict[str, Any]) -> list[SettingShown]:
    """Every setting of the game with the match's value, then any per-seat data the match was given."""
    rows = [SettingShown(s.name, s.label, _setting_words(s, config), s.value_in(config) != s.default)
            for s in game_settings(name)]
    rows += [SettingShown(key, key.replace("_", " ").capitalize(), json.dumps(config[key])[:SHOWN_CHARS], True)
             for key in sorted(OTHER_KEYS.get(name, frozenset()) & set(config))]
    return rows


def _setting_words(setting: Setting, config: dict[str, Any]) -> str:
    value = setting.value_in(config)
    return setting.words(value, config) if setting.words else _words(value)


def _words(value: Any) -> str:
    """A setting's value in a few words: a number, yes or no, a deck's cards counted, a named deck, the start
    of any other data."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(f"{n} {card}" for card, n in Counter(value).items()) or "none"
    if isinstance(value, dict) and value and all(isinstance(v, int) for v in value.values()):
        return ", ".join(f"{n} {key}" for key, n in value.items())
    if isinstance(value, dict) and value and all(isinstance(v, dict) and "count" in v for v in value.values()):
        return ", ".join(f"{v['count']} {key}" for key, v in value.items())
    if isinstance(value, dict) and isinstance(value.get("name"), str):
        return value["name"]
    if isinstance(value, list) and all(isinstance(v, list) and v and isinstance(v[0], str) for v in value):
        return ", ".join(v[0] for v in value)
    if isinstance(value, list | dict):
        return json.dumps(value)[:SHOWN_CHARS]
    return str(value)


def _command_dice() -> tuple[Setting, ...]:
    from cardgames.engine.command_dice import DEFAULT_CONFIG as d
    from cardgames.engine.command_dice.words import deck_words

    return (
        Setting("battle_deck", "Battle Deck", "The cards dealt each Turn: swords to defeat and a suit (\"6S\").",
                d["battle_deck"], "json", words=deck_words),
        Setting("side_deck", "Side deck", "One card from it decides who plays Red and who Black.",
                d["side_deck"], "json", words=deck_words),
        Setting("dice", "Command dice", "Each colour's count per player and the swords on its six faces.",
                d["dice"], "json"),
        Setting("min_dice", "Fewest dice chosen", "The fewest dice a player chooses in secret each Turn.",
                d["min_dice"], maximum=6),
        Setting("max_dice", "Most dice chosen", "The most dice a player chooses in secret each Turn.",
                d["max_dice"], maximum=6),
        Setting("cards_per_turn", "Cards per Turn", "Cards dealt face up from the Battle Deck each Turn.",
                d["cards_per_turn"], maximum=6),
        Setting("victories", "Victories to win", "Rounds a player must win to win the battle.", d["victories"],
                maximum=9),
    )


def _unholy_war() -> tuple[Setting, ...]:
    from cardgames.engine.unholy_war import DEFAULT_CARDS, DEFAULT_DECK
    from cardgames.engine.unholy_war import DEFAULT_HOUSE_RULES as h

    return (
        Setting("deck", "Deck (every player)", "The names of the cards in each player's deck.", list(DEFAULT_DECK),
                "json"),
        Setting("cards", "Cards", "Every card a deck may name, as [name, ATK, DEF].",
                [list(c) for c in DEFAULT_CARDS], "json"),
        Setting("start_dice", "Starting dice", "Dice in each player's pool at the start.", h["start_dice"],
                group="house_rules", maximum=20),
        Setting("max_dice", "Dice limit", "A player who controls more dice than this is defeated.", h["max_dice"],
                group="house_rules", maximum=30),
        Setting("attacker_wins_ties", "Ties hit", "A tied roll Hits the defender (the text's reading).",
                h["attacker_wins_ties"], "bool", "house_rules"),
        Setting("ambush_protects_facedown", "Ambush protects facedown cards",
                "A facedown card that is Engaged may be protected by an Ambush.",
                h["ambush_protects_facedown"], "bool", "house_rules"),
        Setting("discard_cost", "Discard cost", "Cards discarded from the deck when a card is discarded from play.",
                h["discard_cost"], group="house_rules", minimum=0, maximum=10),
        Setting("round_limit", "Round limit", "After this many rounds the game is a draw.", h["round_limit"],
                group="house_rules", maximum=1000),
    )


def _squad_combat() -> tuple[Setting, ...]:
    from cardgames.engine.squad_combat.cards import default_set
    from cardgames.engine.squad_combat.labels import deck_words, squad_words
    from cardgames.engine.squad_combat.state import HOUSE_RULES as h

    raw = default_set().raw
    return (
        Setting("squad", "Squad (every player)", "Three character keys from the card set, left to right.",
                list(raw["squad"]), "json", words=squad_words),
        Setting("deck", "Deck (every player)", "Each card key from the card set and how many copies.",
                dict(raw["deck"]), "json", words=deck_words),
        Setting("hand_size", "Hand size", "Cards in the opening hand and drawn up to at the end of a turn.",
                h["hand_size"], maximum=20),
        Setting("end_discards", "Discards at end of turn", "Cards a player may discard before drawing up.",
                h["end_discards"], minimum=0, maximum=20),
        Setting("max_turns", "Turn limit", "After this many turns the game is a draw.", h["max_turns"],
                maximum=500),
        Setting("reshuffle", "Reshuffle", "An empty deck is refilled from the shuffled discard pile.",
                h["reshuffle"], "bool"),
        Setting("rotate_first_player", "Rotate the first player", "The next player goes first each turn.",
                h["rotate_first_player"], "bool"),
        Setting("set", "Card set", "Every character and card the squads and decks may name.", raw, "json"),
    )


def _unity() -> tuple[Setting, ...]:
    from cardgames.engine.unity import HOUSE_RULES as h
    from cardgames.engine.unity.deck import default_data

    return (
        Setting("deck", "Deck", "Every card, its category, value and power, and the categories.", default_data(),
                "json"),
        Setting("hand_size", "Hand size", "Cards dealt to each player.", h["hand_size"], maximum=30),
        Setting("max_turns", "Turn limit", "After this many free turns the game ends with no winner.",
                h["max_turns"], maximum=10_000),
    )


_SETTINGS = {"command-dice": _command_dice, "unholy-war": _unholy_war, "squad-combat": _squad_combat,
             "unity": _unity}
