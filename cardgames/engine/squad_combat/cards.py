"""Squad Combat card sets: characters and action, attack and edge cards, as data.

A set is a JSON-able dict (the default is ``cardgames/engine/data/squad_combat_default.json``):
``characters`` (life, energy, dice pool, dice refresh cost, traits), ``cards`` (kind, traits,
cost ``{"energy": n, "dice": [minimums], "cards": n}``, attack hit modifier and damage, edge
timing, effect), a default ``squad`` of three character keys and a default ``deck`` of
card counts. `CardSet` compiles it into tuples of small ints indexed by position.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from gamekit.errors import RuleError

DEFAULT_SET_PATH = Path(__file__).resolve().parent.parent / "data" / "squad_combat_default.json"

ACTION, ATTACK, EDGE = 0, 1, 2
KINDS = ("action", "attack", "edge")
ANY, WHEN_ATTACK, WHEN_DEFENCE = 0, 1, 2
WHENS = ("any", "attack", "defence")
NONE, DRAW, HEAL, ROLL, ENERGY, ATTACK_MOD, DEFENCE_MOD = range(7)
EFFECTS = ("none", "draw", "heal", "roll", "energy", "attack", "defence")
SQUAD = 3
"""Each player controls 3 characters."""
MAX_DECK = 200
"""The most cards a deck may hold (the default deck holds 25)."""
IN_PHASE, EDGE_ANY, EDGE_ATTACK, EDGE_DEFENCE = range(4)
"""When a card may be played: an action or attack in the action phase, or an edge by its timing."""
NO_AIM, AIM_ENEMY, AIM_WOUNDED = range(3)
"""What a card targets: nothing, a living enemy (attacks) or a wounded friend (heals)."""


def _bad(message: str) -> RuleError:
    return RuleError("card set", message)


def _count(entry: dict[str, Any], field: str, low: int, default: int | None = None) -> int:
    value = entry.get(field, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise _bad(f"{entry.get('key', '?')}: {field} must be a whole number of at least {low}.")
    return value


class CardSet:
    """A compiled, immutable card set shared by every state of a game."""

    __slots__ = ("_lineups", "amount", "card_index", "ch_energy", "ch_index", "ch_keys", "ch_life", "ch_names",
                 "ch_pool", "ch_refresh", "ch_traits", "damage", "deck", "dice", "discards", "effect",
                 "energy", "hit", "keys", "kind", "names", "play", "raw", "squad", "trait_names", "traits", "when")

    raw: dict[str, Any]
    trait_names: tuple[str, ...]
    # Characters, by index: keys, names, life, energy, dice pool, refresh cost, trait bits
    ch_keys: tuple[str, ...]
    ch_names: tuple[str, ...]
    ch_life: tuple[int, ...]
    ch_energy: tuple[int, ...]
    ch_pool: tuple[int, ...]
    ch_refresh: tuple[int, ...]
    ch_traits: tuple[int, ...]
    ch_index: dict[str, int]
    # Cards, by index
    keys: tuple[str, ...]
    names: tuple[str, ...]
    card_index: dict[str, int]
    traits: tuple[int, ...]
    kind: tuple[int, ...]
    when: tuple[int, ...]
    effect: tuple[int, ...]
    amount: tuple[int, ...]
    energy: tuple[int, ...]
    dice: tuple[tuple[int, ...], ...]
    """The dice cost: die minimums, highest first."""
    discards: tuple[int, ...]
    hit: tuple[int, ...]
    damage: tuple[int, ...]
    play: tuple[tuple[int, str, int, tuple[int, ...], int, int], ...]
    """Per card: what `_play` returns."""
    _lineups: dict[tuple[int, ...], Lineup]
    squad: tuple[int, ...]
    deck: tuple[int, ...]

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw
        self.trait_names = tuple(raw.get("traits") or ())
        bits = {t: 1 << i for i, t in enumerate(self.trait_names)}

        def mask(entry: dict[str, Any]) -> int:
            names = entry.get("traits") or []
            unknown = [t for t in names if t not in bits]
            if unknown or not names:
                raise _bad(f"{entry.get('key', '?')}: traits must be a non-empty list of the set's traits.")
            return sum(bits[t] for t in set(names))

        chars = raw.get("characters") or []
        self.ch_keys = tuple(c["key"] for c in chars)
        self.ch_names = tuple(c.get("name", c["key"]) for c in chars)
        self.ch_life = tuple(_count(c, "life", 1) for c in chars)
        self.ch_energy = tuple(_count(c, "energy", 0) for c in chars)
        self.ch_pool = tuple(_count(c, "dice", 0) for c in chars)
        # A refresh of at least 1 energy keeps every turn finite.
        self.ch_refresh = tuple(_count(c, "refresh", 1) for c in chars)
        self.ch_traits = tuple(mask(c) for c in chars)
        self.ch_index = {k: i for i, k in enumerate(self.ch_keys)}

        cards = raw.get("cards") or []
        self.keys = tuple(c["key"] for c in cards)
        self.names = tuple(c.get("name", c["key"]) for c in cards)
        if len(set(self.keys)) != len(self.keys) or len(self.ch_index) != len(self.ch_keys):
            raise _bad("Card and character keys must be unique: rename the duplicates.")
        self.card_index = {k: i for i, k in enumerate(self.keys)}
        self.traits = tuple(mask(c) for c in cards)
        rows = [self._card(c) for c in cards]
        (self.kind, self.when, self.effect, self.amount, self.energy, self.dice, self.discards, self.hit,
         self.damage) = (tuple(r[0] for r in rows), tuple(r[1] for r in rows), tuple(r[2] for r in rows),
                         tuple(r[3] for r in rows), tuple(r[4] for r in rows), tuple(r[5] for r in rows),
                         tuple(r[6] for r in rows), tuple(r[7] for r in rows), tuple(r[8] for r in rows))
        self.play = tuple(self._play(c) for c in range(len(cards)))
        self._lineups = {}
        self.squad = tuple(self.character(k) for k in raw.get("squad") or ())
        self.deck = self.deck_of(raw.get("deck") or {})

    def _card(self, c: dict[str, Any]) -> tuple[int, int, int, int, int, tuple[int, ...], int, int, int]:
        """Card `c` checked, as (kind, when, effect, amount, energy, dice, discards, hit, damage)."""
        key = c["key"]
        if c.get("kind") not in KINDS:
            raise _bad(f"{key}: kind must be one of {', '.join(KINDS)}.")
        kind = KINDS.index(c["kind"])
        cost = c.get("cost") or {}
        dice = cost.get("dice") or []
        if not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
            raise _bad(f"{key}: dice costs are die faces 1 to 6.")
        effect = EFFECTS.index(c.get("effect", "none")) if c.get("effect", "none") in EFFECTS else -1
        when = WHENS.index(c.get("when", "any")) if c.get("when", "any") in WHENS else -1
        if effect < 0 or when < 0:
            raise _bad(f"{key}: unknown effect or timing.")
        if (kind == ATTACK) != (effect == NONE):
            raise _bad(f"{key}: attacks have a hit modifier and damage; other cards have an effect.")
        if effect in (ATTACK_MOD, DEFENCE_MOD) and (kind != EDGE or when != effect - ATTACK_MOD + 1):
            raise _bad(f"{key}: an attack or defence modifier is an edge played when attacking or defending.")
        amount = _count(c, "amount", 1) if effect else 0
        energy = _count(cost, "energy", 0, 0)
        discards = _count(cost, "cards", 0, 0)
        hit = c.get("hit", 0) if kind == ATTACK else 0
        damage = _count(c, "damage", 1) if kind == ATTACK else 0
        if not isinstance(hit, int):
            raise _bad(f"{key}: the hit modifier must be a whole number.")
        return (kind, when if kind == EDGE else ANY, effect, amount, energy, tuple(sorted(dice, reverse=True)),
                discards, hit, damage)

    def _play(self, c: int) -> tuple[int, str, int, tuple[int, ...], int, int]:
        """Card `c` as legal-action generation reads it: (timing, verb, energy cost, dice cost,
        card cost, aim), one tuple so the hot path unpacks it in one step."""
        edge = self.kind[c] == EDGE
        timing = EDGE_ANY + self.when[c] if edge else IN_PHASE
        aim = AIM_ENEMY if self.kind[c] == ATTACK else AIM_WOUNDED if self.effect[c] == HEAL else NO_AIM
        return timing, "edge" if edge else "play", self.energy[c], self.dice[c], self.discards[c], aim

    def lineup(self, chdef: tuple[int, ...]) -> Lineup:
        """The characters `chdef` names (three a seat) as legal-action generation reads them, worked
        out once per squad line-up: `Lineup`."""
        found = self._lineups.get(chdef)
        if found is None:
            crews = tuple(tuple((slot, 3 * seat + slot, self.ch_energy[d], self.ch_refresh[d])
                                for slot, d in enumerate(chdef[3 * seat:3 * seat + 3]))
                          for seat in range(len(chdef) // 3))
            able = tuple(tuple(tuple(m[:3] for m in crew if self.ch_traits[chdef[m[1]]] & traits)
                               for traits in self.traits) for crew in crews)
            enemies = tuple(tuple((t, slot, ch) for t, crew in enumerate(crews) if t != seat
                                  for slot, ch, _, _ in crew) for seat in range(len(crews)))
            found = self._lineups[chdef] = Lineup(crews, able, enemies)
        return found

    def character(self, key: str) -> int:
        if key not in self.ch_index:
            raise _bad(f"There is no character {key!r} in this set: choose one of {', '.join(self.ch_keys)}.")
        return self.ch_index[key]

    def deck_of(self, counts: dict[str, int] | list[str]) -> tuple[int, ...]:
        """A deck as card indexes, from ``{key: count}`` or a list of keys."""
        if isinstance(counts, dict) and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                                            for n in counts.values()):
            keys = [k for k, n in counts.items() for _ in range(n)]
        elif isinstance(counts, list):
            keys = counts
        else:
            raise _bad('A deck is {"card key": count, ...} or a list of card keys, like {"sword-strike": 3}.')
        if len(keys) > MAX_DECK:
            raise _bad(f"A deck holds at most {MAX_DECK} cards, not {len(keys)}.")
        missing = [k for k in keys if k not in self.card_index]
        if missing:
            raise _bad(f"There is no card {missing[0]!r} in this set: choose one of {', '.join(self.keys)}.")
        return tuple(sorted(self.card_index[k] for k in keys))


class Lineup(NamedTuple):
    """Each seat's characters, fixed for a whole game."""

    crews: tuple[tuple[tuple[int, int, int, int], ...], ...]
    """Per seat: (slot, character, energy, refresh cost) of each of its characters."""
    able: tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...]
    """Per seat, per card: (slot, character, energy) of each character sharing a trait with it."""
    enemies: tuple[tuple[tuple[int, int, int], ...], ...]
    """Per seat: (seat, slot, character) of every other side's character, in seat order."""


@lru_cache(maxsize=1)
def default_set() -> CardSet:
    """The default set shipped with the project."""
    return CardSet(json.loads(DEFAULT_SET_PATH.read_text(encoding="utf-8")))


def card_set(config: dict[str, Any]) -> CardSet:
    """The set a game's config names: ``config["set"]`` (a set dict) or the default."""
    raw = config.get("set")
    return default_set() if raw is None else CardSet(raw)
