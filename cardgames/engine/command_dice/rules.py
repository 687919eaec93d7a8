"""Command Dice battle: the rules as data (decks, dice, house rules) compiled for the hot path.

A config is plain JSON data; `DEFAULT_CONFIG` is the game as written
(shared/rules/command-dice-battle.txt with the Command Dice section of RULINGS.md).
A match may override any key. `Rules` is the compiled, immutable form shared by a
state and all its clones; it caches the legal choices and allocations it has worked out.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from cardgames.engine.command_dice.words import pool_words
from gamekit.errors import RuleError
from gamekit.protocol import Action

MAX_COLOURS, MAX_DICE_OF_A_COLOUR = 4, 9
"""Bounds on a config's dice that keep the secret choices few (the text's pool: 4 red, 3 white, 2 blue)."""
CACHE_LIMIT = 200_000
"""Allocations cached per compiled config before the cache starts afresh (bounds memory)."""

SUITS = frozenset("HDCS")
SUITS_RED = frozenset("HD")
"""Hearts and diamonds are red cards; clubs and spades are black."""

DEFAULT_CONFIG: dict[str, Any] = {
    "battle_deck": [f"{value}{suit}" for suit in "HDCS" for value in range(1, 7)],
    "side_deck": [f"{value}{suit}" for suit in "HDCS" for value in ("7", "8", "9", "10", "J", "Q", "K")],
    "dice": {
        "red": {"count": 4, "faces": [0, 0, 1, 1, 1, 2]},
        "white": {"count": 3, "faces": [0, 1, 1, 1, 2, 2]},
        "blue": {"count": 2, "faces": [1, 1, 1, 2, 2, 3]},
    },
    "min_dice": 1,
    "max_dice": 4,
    "cards_per_turn": 3,
    "victories": 3,
}


def colour_order(dice: dict[str, Any]) -> tuple[str, ...]:
    """The colours of a config's dice in one order whatever order its JSON came in (PostgreSQL's jsonb sorts an
    object's keys): the text's red, white, blue first, then any other colour by name. A choice
    ``("choose", n_red, n_white, n_blue)`` and a stored pool mean the same dice in every process, fresh or
    loaded, since `rules_for` compiles one `Rules` per config whatever its key order."""
    known = list(DEFAULT_CONFIG["dice"])
    return tuple(sorted(dice, key=lambda c: (known.index(c) if c in known else len(known), c)))


def full_config(config: dict[str, Any] | None) -> dict[str, Any]:
    """The default config with a match's overrides: a record then holds every rule it was played by."""
    merged = dict(DEFAULT_CONFIG)
    merged.update(config or {})
    unknown = set(merged) - set(DEFAULT_CONFIG)
    if unknown:
        raise RuleError("config", f"Unknown Command Dice settings {sorted(unknown)}: "
                                  f"use only {sorted(DEFAULT_CONFIG)}.")
    _check(merged)
    return merged


def _whole(config: dict[str, Any], key: str, low: int) -> int:
    value = config[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise RuleError(key, f"{key} must be a whole number of at least {low}, not {value!r}.")
    return value


def _check(config: dict[str, Any]) -> None:
    """Refuse a config the game cannot be played by, naming the setting and what to write instead: cards are
    a number and a suit letter ("6S", "KH"), each die colour has a count and its faces' swords, and a turn can
    always deal its cards and be answered with dice."""
    per_turn = _whole(config, "cards_per_turn", 1)
    _whole(config, "victories", 1)
    if _whole(config, "min_dice", 1) > _whole(config, "max_dice", 1):
        raise RuleError("min_dice", "min_dice must be at most max_dice: lower min_dice or raise max_dice.")
    deck = config["battle_deck"]
    if not isinstance(deck, list) or len(deck) < per_turn or not all(
            isinstance(c, str) and c[-1:] in SUITS and c[:-1].isdigit() and int(c[:-1]) >= 1 for c in deck):
        raise RuleError("battle_deck", f"The battle deck lists at least {per_turn} cards, each a number of swords "
                                       "from 1 and a suit letter H, D, C or S, like \"6S\".")
    side = config["side_deck"]
    if not isinstance(side, list) or not side or not all(isinstance(c, str) and c[-1:] in SUITS for c in side):
        raise RuleError("side_deck", "The side deck lists at least one card, each ending in its suit letter "
                                     "H, D, C or S, like \"KH\".")
    dice = config["dice"]
    if not isinstance(dice, dict) or not 0 < len(dice) <= MAX_COLOURS or not all(
            isinstance(d, dict) and isinstance(d.get("count"), int) and 0 <= d["count"] <= MAX_DICE_OF_A_COLOUR
            and isinstance(d.get("faces"), list) and d["faces"] and all(isinstance(f, int) for f in d["faces"])
            for d in dice.values()):
        raise RuleError("dice", f"Give 1 to {MAX_COLOURS} die colours each a count (at most {MAX_DICE_OF_A_COLOUR}) "
                                'and its faces\' swords, like {"red": {"count": 4, "faces": [0, 0, 1, 1, 1, 2]}}.')
    if sum(d["count"] for d in dice.values()) < config["min_dice"]:
        raise RuleError("dice", f"Each player's dice must number at least min_dice ({config['min_dice']}).")


def card_value(card: str) -> int:
    """A battle card's number: the swords needed to defeat it ("6S" needs 6)."""
    return int(card[:-1])


def card_is_red(card: str) -> bool:
    return card[-1] in SUITS_RED


def shuffle_outcomes(start: list[Any], target: list[Any]) -> list[int]:
    """The outcomes that make ``Dice.shuffle`` turn `start` into `target`: how a deck dealt at a
    real table (or a test's deck) is written into a game's record."""
    items, outcomes = list(start), []
    for i in range(len(items) - 1, 0, -1):
        j = items.index(target[i], 0, i + 1)
        outcomes.append(j + 1)
        items[i], items[j] = items[j], items[i]
    return outcomes


class Rules:
    """Compiled config: cards and dice as small ints, plus caches of legal choices and allocations.

    A die is an int ``colour * 16 + swords``; its name is the colour's initial and its swords
    ("R1", "W2", "B3"). Cards are indices into ``cards``.
    """

    __slots__ = ("_allocations", "_choices", "_groups_of", "_options", "cards", "cards_per_turn", "colours",
                 "die_colour", "die_faces", "die_name", "die_swords", "faces", "full_pool", "max_dice",
                 "mean_swords", "min_dice", "red_card", "side_red", "table_value", "value", "victories")

    def __init__(self, config: dict[str, Any]) -> None:
        self.cards: tuple[str, ...] = tuple(config["battle_deck"])
        self.value = tuple(card_value(c) for c in self.cards)
        self.table_value = (*self.value, 0)  # indexed by a table place's card; -1 (no card) is worth 0
        self.red_card = tuple(card_is_red(c) for c in self.cards)
        self.side_red = tuple(card_is_red(c) for c in config["side_deck"])
        self.colours: tuple[str, ...] = colour_order(config["dice"])
        initials = [c[0].upper() for c in self.colours]
        if len(set(initials)) != len(initials):
            raise RuleError("config", "Dice colours must start with different letters (red, white, blue).")
        self.faces = tuple(tuple(int(f) for f in config["dice"][c]["faces"]) for c in self.colours)
        if any(not 0 <= f <= 15 for faces in self.faces for f in faces):
            raise RuleError("config", "A die face shows 0 to 15 swords.")
        # per colour: the sides of its die, and the die int each outcome 1..sides shows
        self.die_faces = tuple((len(f), tuple(colour * 16 + swords for swords in f))
                               for colour, f in enumerate(self.faces))
        self.mean_swords = tuple(sum(f) / len(f) for f in self.faces)
        self.full_pool = tuple(int(config["dice"][c]["count"]) for c in self.colours)
        self.min_dice = int(config["min_dice"])
        self.max_dice = int(config["max_dice"])
        self.cards_per_turn = int(config["cards_per_turn"])
        self.victories = int(config["victories"])
        self.die_name: dict[int, str] = {}
        self.die_colour: dict[int, int] = {}
        self.die_swords: dict[int, int] = {}
        for colour, faces in enumerate(self.faces):
            for swords in set(faces):
                die = colour * 16 + swords
                self.die_name[die] = f"{initials[colour]}{swords}"
                self.die_colour[die] = colour
                self.die_swords[die] = swords
        self._choices: dict[tuple[int, ...], tuple[list[Action], frozenset[Action]]] = {}
        self._groups_of: dict[tuple[int, ...], list] = {}
        self._allocations: dict[tuple, dict[Action, tuple[tuple[int, ...], tuple[int, ...]]]] = {}
        self._options: dict[tuple, dict[Action, tuple[tuple[int, ...], tuple[int, ...]]]] = {}

    def values_of(self, table: tuple[int, ...] | list[int]) -> tuple[int, ...]:
        """The number on each card on the table; 0 where there is no card (-1)."""
        return tuple(map(self.table_value.__getitem__, table))

    def choices(self, pool: tuple[int, ...]) -> tuple[list[Action], frozenset[Action]]:
        """Every secret choice of min_dice..max_dice dice from `pool`, fewest dice first.

        A choice is ``("choose", n_red, n_white, n_blue)``: dice of one colour are alike.
        """
        found = self._choices.get(pool)
        if found is None:
            counts = [c for c in product(*(range(n + 1) for n in pool))
                      if self.min_dice <= sum(c) <= self.max_dice]
            counts.sort(key=lambda c: (sum(c), tuple(-n for n in c)))
            actions = [("choose", *c) for c in counts]
            found = self._choices[pool] = (actions, frozenset(actions))
        return found

    def allocations(self, roll: tuple[int, ...], values: tuple[int, ...]
                    ) -> dict[Action, tuple[tuple[int, ...], tuple[int, ...]]]:
        """Legal allocations of a sorted `roll` to the cards on the table (`values`, 0 = gone).

        An allocation is ``("allocate", dice_on_card_0, dice_on_card_1, ...)``, each a tuple of
        die names. Each die goes whole to one card or back to the pool (dice never split). A
        card given dice is defeated: its dice reach its number. No over-allocation unless the
        dice force it: every die on a card is needed (dropping the weakest would leave it
        short, so a blank die never goes on a card), and a card gets more swords than its
        number only when no set of the dice not placed on other cards makes it exactly.
        If a card can be defeated, at least one must be.
        Maps each allocation to (dice spent per colour, positions of the cards defeated).
        Cached as asked, and by what matters to the answer (many rolls and tables share one).
        """
        found = self._options.get((roll, values))
        if found is None:
            if len(self._options) >= CACHE_LIMIT:
                self._options.clear()
            found = self._options[roll, values] = self._allocations_of(roll, values)
        return found

    def _allocations_of(self, roll: tuple[int, ...], values: tuple[int, ...]
                        ) -> dict[Action, tuple[tuple[int, ...], tuple[int, ...]]]:
        live = tuple(d for d in roll if d & 15)  # blank dice never go on a card
        total = sum(d & 15 for d in live)
        key = (live, tuple(v if v <= total else 0 for v in values))  # nor can a card beyond every sword
        found = self._allocations.get(key)
        if found is None:
            if len(self._allocations) >= CACHE_LIMIT:
                self._allocations.clear()
            found = self._allocations[key] = self._combine(self._groups(live), key[1])
        return found

    def _groups(self, roll: tuple[int, ...]) -> list[tuple[int, int, int, tuple[str, ...], tuple[int, ...]]]:
        """Each set of rolled dice with no blank die: (mask, swords, weakest die, names, dice per colour)."""
        found = self._groups_of.get(roll)
        if found is None:
            found = []
            for mask in range(1, 1 << len(roll)):
                dice = [d for i, d in enumerate(roll) if mask >> i & 1]
                swords = [self.die_swords[d] for d in dice]
                if min(swords):
                    spent = [0] * len(self.colours)
                    for d in dice:
                        spent[self.die_colour[d]] += 1
                    found.append((mask, sum(swords), min(swords), tuple(self.die_name[d] for d in dice),
                                  tuple(spent)))
            self._groups_of[roll] = found
        return found

    def _combine(self, groups: list, values: tuple[int, ...]
                 ) -> dict[Action, tuple[tuple[int, ...], tuple[int, ...]]]:
        fits = [[g for g in groups if g[1] >= v > g[1] - g[2]] if v else [] for v in values]
        exact: dict[int, list[int]] = {}
        for mask, swords, *_ in groups:
            exact.setdefault(swords, []).append(mask)
        found: dict[Action, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        none = (0,) * len(self.colours)

        def forced(used: int, placed: tuple[tuple[int, int, int], ...]) -> bool:
            """Each card given more swords than its number had no exact set in the dice off other cards."""
            for mask, swords, value in placed:
                others = used & ~mask
                if swords > value and any(not e & others for e in exact.get(value, ())):
                    return False
            return True

        def place(position: int, used: int, names: tuple, spent: tuple[int, ...],
                  won: tuple[int, ...], placed: tuple[tuple[int, int, int], ...]) -> None:
            if position == len(values):
                action = ("allocate", *names)
                if action not in found and forced(used, placed):
                    found[action] = (spent, won)
                return
            place(position + 1, used, (*names, ()), spent, won, placed)
            for mask, swords, _, group, colours in fits[position]:
                if not mask & used:
                    place(position + 1, used | mask, (*names, group),
                          tuple(a + b for a, b in zip(spent, colours, strict=True)), (*won, position),
                          (*placed, (mask, swords, values[position])))

        place(0, 0, (), none, (), ())
        if len(found) > 1:
            del found[("allocate", *(() for _ in values))]
        return found

    def pool_text(self, counts: tuple[int, ...]) -> str:
        """Dice by colour in words ('2 red, 1 white'), as in every label and event."""
        return pool_words(counts, self.colours)
