"""What every game engine shares: the dice source, rule errors, events, the game protocol, replay.

Every engine (the Army Combat battle and the four card games) is a `Game` object
whose methods take plain states and return plain data; nothing here imports Django.

The protocol (shared/DESIGN.md, "The game protocol"):

- ``new_game(config, players, seed=None, dice=None) -> state``
- ``to_move(state) -> tuple[int, ...]``: the seats that may act now; several seats
  for a simultaneous secret choice (each sends its own action); ``()`` when over.
- ``legal_actions(state, player) -> list[Action]``: JSON-able tuples, stable order.
- ``apply(state, action, player=None) -> list[Event]``: raises `RuleError` for an
  illegal action. Chance comes only from ``state.dice``.
- ``is_over(state)``, ``result(state) -> dict`` (at least ``{"winner": seat|None, "scores": [...]}``).
- ``view(state, player) -> dict``: what that seat may see (``player=None``: a spectator,
  public information only).
- ``clone(state)``: fast copy whose dice get their own stream.
- ``determinize(state, player, rng) -> state``: a full state consistent with what
  `player` has seen (hidden cards re-dealt at random), for search players.
- ``dump(state) -> dict`` / ``load(dict) -> state``: JSON round trip.
- ``heuristic(state, player) -> float``: a quick estimate in [-1, 1] of how well
  `player` stands, used by the greedy player and by search cut-offs.

Two optional parts, used when an engine offers them:

- ``quiet``: the same game without event text (clones and searches never read it).
- ``describe_action(state, action) -> str``: a short label for a button
  ("Play Spearmen (Str 2) on Offense"); the web table falls back to the action's parts.

A stored game is `GameRecord`: config, players, seed, actions and every chance
outcome drawn. `replay` re-runs it through scripted dice, so a game played at a
real table (with the dice people rolled) and a simulated one are the same kind of record.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

Action = tuple
"""An action: a tuple of small ints and strings, e.g. ``("play", 3)`` or ``("pass",)``."""

EVERYONE = None
"""Event visibility meaning every seat (and spectators) may see it."""


class RuleError(ValueError):
    """An illegal action. `rule` names the rule broken; the message says what to do instead."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


class DiceScriptExhausted(RuleError):
    """Scripted dice ran out: a test or a replayed record supplied fewer outcomes than the game drew."""

    def __init__(self) -> None:
        super().__init__("dice", "The scripted dice ran out: supply more outcomes for this game.")


class Dice:
    """The only source of chance in a game.

    Seeded (``Dice(seed=7)``) or scripted (``Dice.scripted([5, 2, 4])``: the outcomes
    people rolled at a table, or a test's dice). Every outcome drawn is appended to
    ``log`` unless logging is off (``log=None``), so a game can be stored and replayed.
    A scripted die that does not fit the dice asked for is refused.
    """

    __slots__ = ("_random", "_script", "log", "seed")

    def __init__(self, seed: int | None = None, *, script: Iterable[int] | None = None,
                 log: bool = True) -> None:
        self.seed = seed
        self._random = random.Random(seed).random
        self._script: deque[int] | None = deque(script) if script is not None else None
        self.log: list[int] | None = [] if log else None

    @classmethod
    def scripted(cls, outcomes: Iterable[int]) -> Dice:
        return cls(script=outcomes)

    def roll(self, sides: int) -> int:
        """One die with `sides` faces: 1..sides."""
        if self._script is not None:
            if not self._script:
                raise DiceScriptExhausted()
            value = self._script.popleft()
            if not 1 <= value <= sides:
                raise RuleError("dice", f"A scripted d{sides} showed {value}: it must be 1 to {sides}.")
        else:
            value = int(self._random() * sides) + 1
        if self.log is not None:
            self.log.append(value)
        return value

    def d6(self) -> int:
        return self.roll(6)

    def below(self, n: int) -> int:
        """A uniform index 0..n-1 (recorded as a d`n` outcome 1..n)."""
        return self.roll(n) - 1

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place; each swap index is one recorded outcome."""
        for i in range(len(items) - 1, 0, -1):
            j = self.roll(i + 1) - 1
            items[i], items[j] = items[j], items[i]

    def fork(self, seed: int) -> Dice:
        """A new, independent, unlogged stream (for clones used by search and simulation)."""
        return Dice(seed, log=False)

    @property
    def scripted_left(self) -> int:
        return len(self._script) if self._script is not None else 0

    def dump(self) -> dict[str, Any]:
        """JSON-able: the seed, the log, what is left of a script, and (when nothing was logged)
        the generator's state, so `load` resumes the same stream."""
        data: dict[str, Any] = {"seed": self.seed, "log": None if self.log is None else list(self.log),
                                "script": None if self._script is None else list(self._script)}
        if self.log is None and self._script is None:
            version, internal, gauss = self._random.__self__.getstate()  # type: ignore[attr-defined]
            data["state"] = [version, list(internal), gauss]
        return data

    @classmethod
    def load(cls, data: dict[str, Any]) -> Dice:
        """The dice `dump` described, resuming where they left off."""
        dice = cls(data.get("seed"), script=data.get("script"), log=data.get("log") is not None)
        if data.get("state") is not None:
            version, internal, gauss = data["state"]
            dice._random.__self__.setstate((version, tuple(internal), gauss))  # type: ignore[attr-defined]
        elif dice._script is None and data.get("log"):
            draw = dice._random
            for _ in data["log"]:  # one draw per outcome, whatever the die
                draw()
        if data.get("log") is not None:
            dice.log = list(data["log"])
        return dice


@dataclass(slots=True)
class Event:
    """Something that happened, in words a person can read.

    `see` is ``EVERYONE`` or the tuple of seats allowed to see it (a drawn card, a
    secret choice). Views and logs filter events through `visible_to`.
    """

    kind: str
    text: str
    see: tuple[int, ...] | None = EVERYONE
    data: dict[str, Any] = field(default_factory=dict)

    def visible_to(self, player: int | None) -> bool:
        return self.see is EVERYONE or (player is not None and player in self.see)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "see": list(self.see) if self.see else None,
                "data": self.data}


def dice_text(faces: Iterable[int]) -> str:
    """Dice as a person reads them in a log: '5', '2 and 2', '6, 3 and 1' ('no dice' for none)."""
    words = [str(f) for f in faces]
    if len(words) < 2:
        return words[0] if words else "no dice"
    return f"{', '.join(words[:-1])} and {words[-1]}"


def events_for(events: Iterable[Event], player: int | None) -> list[dict[str, Any]]:
    """The events `player` may see, as JSON-able dicts."""
    return [e.as_dict() for e in events if e.visible_to(player)]


def as_action(obj: Any) -> Action:
    """An action read back from JSON (lists) as the engine's tuple form."""
    if isinstance(obj, list | tuple):
        return tuple(as_action(x) if isinstance(x, list) else x for x in obj)
    raise RuleError("action", f"An action must be a list such as ['pass'], not {obj!r}.")


class Game(Protocol):
    """The protocol every engine implements (see the module docstring)."""

    name: str

    def new_game(self, config: dict[str, Any], players: Sequence[str], seed: int | None = None,
                 dice: Dice | None = None) -> Any: ...
    def to_move(self, state: Any) -> tuple[int, ...]: ...
    def legal_actions(self, state: Any, player: int) -> list[Action]: ...
    def apply(self, state: Any, action: Action, player: int | None = None) -> list[Event]: ...
    def is_over(self, state: Any) -> bool: ...
    def result(self, state: Any) -> dict[str, Any]: ...
    def view(self, state: Any, player: int | None) -> dict[str, Any]: ...
    def clone(self, state: Any) -> Any: ...
    def determinize(self, state: Any, player: int, rng: random.Random) -> Any: ...
    def dump(self, state: Any) -> dict[str, Any]: ...
    def load(self, data: dict[str, Any]) -> Any: ...
    def heuristic(self, state: Any, player: int) -> float: ...


@dataclass(slots=True)
class GameRecord:
    """A stored game: enough to replay it bit for bit."""

    game: str
    config: dict[str, Any]
    players: list[str]
    seed: int | None
    actions: list[tuple[int, Action]]
    chance: list[int]

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "config": self.config, "players": self.players, "seed": self.seed,
                "actions": [[p, list(a)] for p, a in self.actions], "chance": list(self.chance)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        return cls(data["game"], data["config"], list(data["players"]), data.get("seed"),
                   [(int(p), as_action(a)) for p, a in data["actions"]], [int(c) for c in data["chance"]])


def replay(game: Game, record: GameRecord, *, upto: int | None = None) -> tuple[Any, list[list[Event]]]:
    """Re-run a record through scripted dice: the state after `upto` actions (all by default)
    and the events of each action. Raises `RuleError` if the record is not a legal game."""
    dice = Dice.scripted(record.chance)
    state = game.new_game(record.config, record.players, seed=record.seed, dice=dice)
    events: list[list[Event]] = []
    for player, action in record.actions[:upto]:
        events.append(game.apply(state, action, player))
    return state, events


def record_of(game: Game, state: Any) -> GameRecord:
    """The record of a game so far. Every engine's state carries `config`, `players`,
    `seed`, `actions` (``(seat, action)`` pairs, appended by `apply`) and `dice`."""
    if state.dice.log is None:
        raise RuleError("record", "This game was played with dice logging off, so it cannot be stored.")
    return GameRecord(game.name, state.config, list(state.players), state.seed,
                      list(state.actions), list(state.dice.log))
