"""The Unity deck as flat tables built from plain data (``data/unity_deck.json`` by default).

Card ids are canonical: cards are numbered in descending point value (then category,
then name), so a hand kept sorted by id lists its strongest cards first and two copies
of one card sit side by side. Every selection is built in id order, which makes each
set of cards reachable by exactly one sequence of picks.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from gamekit.errors import RuleError

DATA = Path(__file__).resolve().parent.parent / "data" / "unity_deck.json"
MAX_COPIES = 20
"""The most copies of one card a deck may hold (the default deck holds at most 4)."""

RIGHTEOUS, EVIL, FESTIVAL = 0, 1, 2
SIDES = {"righteous": RIGHTEOUS, "evil": EVIL, "festival": FESTIVAL}
SIDE_NAMES = tuple(SIDES)

# Flag bits of a card.
HUMAN = 1 << 0        # Righteous Person, King, Twelve Tribes, Twelve Apostles: plays in unity
R_OBJECT = 1 << 1     # righteous object: adds its points to righteous characters
E_OBJECT = 1 << 2     # evil object: adds its points to any evil attack, or attacks alone
POLE = 1 << 3         # Asherah Pole: one more evil category in the same attack
COMBINE = 1 << 4      # Unity, Shofar: righteous cards of several categories together
WILD = 1 << 5         # "can be used to enter into righteousness with cards of another category"
UNITY = 1 << 6
TRINITY = 1 << 7
JUDGEMENT = 1 << 8
GLORY = 1 << 9
ANGEL = 1 << 10
DAVID = 1 << 11
POINTS = HUMAN | R_OBJECT  # the cards whose points count when playing in unity
ANSWERS = DAVID | TRINITY | JUDGEMENT | GLORY | ANGEL  # the special answers to an evil attack

POWER_FLAGS = {
    "david": DAVID, "trinity": TRINITY, "judgement": JUDGEMENT, "glory": GLORY,
    "angel": ANGEL | WILD, "unity": UNITY | COMBINE | WILD, "shofar": COMBINE, "pole": POLE,
}


class Deck:
    """Per-card tables (tuples indexed by card id) for one deck definition."""

    __slots__ = ("answers", "bit", "cat", "categories", "combining", "data", "draws", "evils", "festival", "flags",
                 "free", "joins", "name", "ncards", "pick", "points", "righteous", "seconds", "side", "targets", "text",
                 "twin", "unities", "value")

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        cats = data["categories"]
        self.categories: tuple[str, ...] = tuple(cats)
        cat_index = {c: i for i, c in enumerate(self.categories)}
        rows = []
        for pos, card in enumerate(data["cards"]):
            if card["category"] not in cat_index:
                raise RuleError("deck", f"Card {card['name']!r} has an unknown category: "
                                        f"use one of {', '.join(self.categories)}.")
            if card.get("power", "") not in ("", *POWER_FLAGS):
                raise RuleError("deck", f"Card {card['name']!r} has an unknown power {card['power']!r}.")
            copies = card.get("copies", 1)
            if not isinstance(copies, int) or not 1 <= copies <= MAX_COPIES:
                raise RuleError("deck", f"Card {card['name']!r}: copies is a whole number from 1 to {MAX_COPIES}.")
            rows.extend([(-int(card["value"]), cat_index[card["category"]], card["name"], pos)] * copies)
        rows.sort()
        names, cat, value, side, flags, festival, draws, targets, texts = [], [], [], [], [], [], [], [], []
        for neg_value, ci, name, pos in rows:
            card = data["cards"][pos]
            info = cats[self.categories[ci]]
            f = POWER_FLAGS.get(card.get("power", ""), 0)
            if info.get("human"):
                f |= HUMAN
            if info.get("object"):
                f |= R_OBJECT if info["side"] == "righteous" else E_OBJECT
            names.append(name)
            cat.append(ci)
            value.append(-neg_value)
            side.append(SIDES[info["side"]])
            flags.append(f)
            draws.append(int(card.get("attacker_draws", 0)))
            targets.append(card.get("defeats", ""))
            texts.append(card.get("text", ""))
            fest = card.get("festival")
            festival.append(None if fest is None else (
                fest["each"], frozenset(cat_index[c] for c in fest.get("categories", ())),
                int(fest.get("count", 1))))
        self.name: tuple[str, ...] = tuple(names)
        self.cat: tuple[int, ...] = tuple(cat)
        self.bit: tuple[int, ...] = tuple(1 << k for k in cat)   # the category as a mask bit
        self.value: tuple[int, ...] = tuple(value)
        self.side: tuple[int, ...] = tuple(side)
        self.flags: tuple[int, ...] = tuple(flags)
        self.draws: tuple[int, ...] = tuple(draws)
        self.targets: tuple[str, ...] = tuple(targets)
        self.text: tuple[str, ...] = tuple(texts)   # what is written on the card
        self.festival: tuple[tuple[str, frozenset[int], int] | None, ...] = tuple(festival)
        self.ncards = len(names)
        self.twin: tuple[bool, ...] = tuple(c > 0 and names[c - 1] == names[c] for c in range(len(names)))
        # sets of card ids, for quick "does this hand hold one" tests
        self.seconds = frozenset(c for c in range(len(names)) if self.twin[c])   # second copies of a card
        self.combining = frozenset(c for c in range(len(names)) if flags[c] & COMBINE)
        self.unities = frozenset(c for c in range(len(names)) if flags[c] & UNITY)
        self.answers = frozenset(c for c in range(len(names)) if flags[c] & ANSWERS)
        self.righteous = frozenset(c for c in range(len(names)) if side[c] == RIGHTEOUS)
        self.evils = frozenset(c for c in range(len(names)) if side[c] == EVIL)
        self.points = frozenset(c for c in range(len(names)) if flags[c] & POINTS)   # count in unity
        # the categories a card may join in a play of one category: its own, or any (-1) for a wild card
        self.joins: tuple[int, ...] = tuple(-1 if f & WILD else b for f, b in zip(flags, self.bit, strict=True))
        self.pick: tuple[tuple[str, int], ...] = tuple(("pick", c) for c in range(len(names)))
        self.free: tuple[tuple[str, int], ...] = tuple(("festival" if side[c] == FESTIVAL else "pick", c)
                                                       for c in range(len(names)))

    def card(self, c: int) -> dict[str, Any]:
        """A card as a person sees it face up: everything printed on it, so a client can draw it."""
        return {"id": c, "name": self.name[c], "category": self.categories[self.cat[c]],
                "value": self.value[c], "side": SIDE_NAMES[self.side[c]], "text": self.text[c]}

    def festival_asks(self, c: int) -> frozenset[int]:
        """The categories festival card `c` asks for (its written effect: discard one of them)."""
        festival = self.festival[c]
        if festival is None:
            raise RuleError("festival", f"{self.name[c]} is not a festival card.")
        return festival[1]

    def ids(self, name: str) -> list[int]:
        return [c for c in range(self.ncards) if self.name[c] == name]


@lru_cache(maxsize=1)
def default_data() -> dict[str, Any]:
    with DATA.open(encoding="utf-8") as f:
        return json.load(f)


_DEFAULT: list[Deck] = []


def deck_for(config: dict[str, Any]) -> Deck:
    """The deck a game's config names: ``config["deck"]`` (plain data) or the default deck."""
    if "deck" in config:
        try:
            return Deck(config["deck"])
        except RuleError:
            raise
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            problem = f"{exc} is missing" if isinstance(exc, KeyError) else "something has the wrong type"
            raise RuleError("deck", f"This deck cannot be read ({problem}): write it like the default deck, with "
                                    "categories and cards, each card with a name, a category and a value.") from None
    if not _DEFAULT:
        _DEFAULT.append(Deck(default_data()))
    return _DEFAULT[0]


def stacked_order(hands: list[list[str]], top: Sequence[str] = (), *, deck: Deck | None = None) -> list[int]:
    """A fixed deck order (``config["deck_order"]``, top card first) that deals `hands` (card names,
    seat 0 first) round-robin and then leaves `top` on top of the draw pile; unnamed cards follow."""
    deck = deck or deck_for({})
    free: dict[str, list[int]] = {}
    for c in range(deck.ncards):
        free.setdefault(deck.name[c], []).append(c)

    def take(name: str) -> int:
        if not free.get(name):
            raise RuleError("deck", f"The deck has no (more) {name!r} cards.")
        return free[name].pop(0)

    size = max((len(h) for h in hands), default=0)
    if any(len(h) != size for h in hands):
        raise RuleError("deck", "Stack every hand with the same number of cards.")
    order = [take(hands[s][i]) for i in range(size) for s in range(len(hands))]
    order += [take(name) for name in top]
    order += sorted(c for cs in free.values() for c in cs)
    return order
