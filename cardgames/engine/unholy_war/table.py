"""The Unholy War table: configuration (decks and house rules as data) and the state.

A card in play is a tuple ``(kind, dice, face_up, tapped)``; kinds are indices into the
match's card list. Hands, decks (top first) and discard piles are lists of kinds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamekit.dice import Dice
from gamekit.errors import RuleError

STRATEGY, COMMAND, AMBUSH, BACKLASH, OVER = range(5)
PHASES = ("strategy", "command", "ambush", "backlash", "over")

KIND, DICE, UP, TAPPED = range(4)

DEFAULT_CARDS = (
    ("Zealot", 3, -2),
    ("Mercenary", 2, -1),
    ("Guardsman", 0, 2),
    ("Sentinel", -1, 3),
    ("Slime", -1, 3),
)
DEFAULT_DECK = tuple(name for name, _, _ in DEFAULT_CARDS for _ in range(2))

DEFAULT_HOUSE_RULES: dict[str, Any] = {
    "start_dice": 5,
    "max_dice": 10,
    "attacker_wins_ties": True,
    "ambush_protects_facedown": False,
    "discard_cost": 1,
    "round_limit": 100,
}

ROLL_OFF_LIMIT = 100
"""Roll-offs that tie this many times in a row go to the lowest seat, so the engine always ends."""


def normalize_config(config: dict[str, Any] | None, seats: int) -> dict[str, Any]:
    """The full, JSON-able config of a match: cards, one deck per seat, house rules, verbose.

    Accepts ``cards`` (``[name, atk, def]`` rows), ``deck`` (names, for every seat),
    ``decks`` (one list of names per seat), ``house_rules`` (overrides) and ``verbose``.
    """
    config = dict(config or {})
    unknown = set(config) - {"cards", "deck", "decks", "house_rules", "verbose"}
    if unknown:
        raise RuleError("config", f"Unknown config keys {sorted(unknown)}: use cards, deck, decks, "
                                  "house_rules and verbose.")
    if seats < 2:
        raise RuleError("players", "Unholy War needs 2 or more players: add another player.")
    cards = [[str(n), int(a), int(d)] for n, a, d in config.get("cards", DEFAULT_CARDS)]
    names = [c[0] for c in cards]
    if not cards or len(set(names)) != len(names):
        raise RuleError("config", "The card list must name each card once: fix the cards.")
    decks = config.get("decks") or [config.get("deck", DEFAULT_DECK)] * seats
    if len(decks) != seats:
        raise RuleError("config", f"Give one deck per player: {seats} players, {len(decks)} decks.")
    for deck in decks:
        if not deck:
            raise RuleError("config", "A deck must hold at least one card: add cards to it.")
        missing = sorted(set(deck) - set(names))
        if missing:
            raise RuleError("config", f"The decks name unknown cards {missing}: add them to cards.")
    house = dict(DEFAULT_HOUSE_RULES)
    extra = set(config.get("house_rules", {})) - set(house)
    if extra:
        raise RuleError("config", f"Unknown house rules {sorted(extra)}: choose from {sorted(house)}.")
    house.update(config.get("house_rules", {}))
    if not 1 <= int(house["start_dice"]) <= int(house["max_dice"]):
        raise RuleError("config", "start_dice must be at least 1 and at most max_dice: fix the house rules.")
    if int(house["round_limit"]) < 1 or int(house["discard_cost"]) < 0:
        raise RuleError("config", "round_limit must be 1 or more and discard_cost 0 or more.")
    return {"cards": cards, "decks": [list(d) for d in decks], "house_rules": house,
            "verbose": bool(config.get("verbose", True))}


def score(faces: Sequence[int]) -> int:
    """A roll's result: the highest die, +1 for each 1 rolled (no dice: 0)."""
    return max(faces, default=0) + faces.count(1)


def card_no(slot: int) -> str:
    """A card in play as a person counts it: slot 0 is 'card 1' (actions keep the 0-based slot)."""
    return f"card {slot + 1}"


def card_ref(slot: int, name: str | None, face_up: bool = True) -> str:
    """'Zealot (card 2)', 'facedown Slime (card 3)' for a card the reader knows, or 'facedown card 3'
    (`name` None) for one they may not see."""
    if name is None:
        return f"facedown {card_no(slot)}"
    return f"{name} ({card_no(slot)})" if face_up else f"facedown {name} ({card_no(slot)})"


def target_ref(player: str, slot: int, name: str | None, face_up: bool = True) -> str:
    """Who is engaged: the player (`slot` -1), or one of their cards ("bastian's Guardsman (card 2)")."""
    return player if slot < 0 else f"{player}'s {card_ref(slot, name, face_up)}"


class State:
    """A whole match. Per-seat lists are indexed by seat; `cur` is the seat to act."""

    __slots__ = (
        "acted", "actions", "atk", "config", "cur", "deck", "defn", "dice", "discard", "discard_cost",
        "eng", "field", "forks", "fresh", "hand", "init_power", "max_dice", "names", "opening_events",
        "out", "phase", "players", "pool", "protect_facedown", "round", "round_limit", "seed",
        "ties_hit", "verbose", "winner",
    )

    def __init__(self, config: dict[str, Any], players: Sequence[str], seed: int | None,
                 dice: Dice) -> None:
        self.config = config
        self.players = list(players)
        self.seed = seed
        self.dice = dice
        self.actions: list[tuple[int, tuple]] = []
        self.verbose = config["verbose"]
        self.names = tuple(c[0] for c in config["cards"])
        self.atk = tuple(c[1] for c in config["cards"])
        self.defn = tuple(c[2] for c in config["cards"])
        house = config["house_rules"]
        self.max_dice = int(house["max_dice"])
        self.ties_hit = bool(house["attacker_wins_ties"])
        self.protect_facedown = bool(house["ambush_protects_facedown"])
        self.discard_cost = int(house["discard_cost"])
        self.round_limit = int(house["round_limit"])
        n = len(self.players)
        index = {name: i for i, name in enumerate(self.names)}
        self.deck = [[index[name] for name in d] for d in config["decks"]]
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.discard: list[list[int]] = [[] for _ in range(n)]
        self.field: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
        self.pool = [int(house["start_dice"])] * n
        self.out = [False] * n
        self.acted = [False] * n
        self.phase = STRATEGY
        self.cur = 0
        self.round = 0
        self.fresh = False
        self.init_power = 0
        self.eng: tuple[int, int, int, int] | None = None
        self.winner: int | None = None
        self.forks = 0
        self.opening_events: list = []

    def total_dice(self, seat: int) -> int:
        """Every die a player controls: their pool and the dice on their cards."""
        return self.pool[seat] + sum(c[DICE] for c in self.field[seat])

    def clone(self, dice: Dice) -> State:
        """A copy sharing nothing mutable (cards are tuples), with its own dice."""
        new = object.__new__(State)
        for name in ("config", "players", "seed", "verbose", "names", "atk", "defn", "max_dice",
                     "ties_hit", "protect_facedown", "discard_cost", "round_limit", "phase", "cur",
                     "round", "fresh", "init_power", "eng", "winner"):
            setattr(new, name, getattr(self, name))
        new.dice = dice
        new.forks = 0
        new.opening_events = []
        new.actions = self.actions[:]
        new.pool = self.pool[:]
        new.out = self.out[:]
        new.acted = self.acted[:]
        new.deck = [x[:] for x in self.deck]
        new.hand = [x[:] for x in self.hand]
        new.discard = [x[:] for x in self.discard]
        new.field = [x[:] for x in self.field]
        return new
