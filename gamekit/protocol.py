"""The game protocol every engine offers, so the web layer, the AI players, the simulator, the odds and the
replay code are written once.

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
- ``search_settings``: the game's tuned settings for the search player (gamekit.players.search_player).

A stored game is `gamekit.replay.GameRecord`: config, players, seed, actions and every chance
outcome drawn. `replay` re-runs it through scripted dice, so a game played at a
real table (with the dice people rolled) and a simulated one are the same kind of record.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from gamekit.dice import Dice
from gamekit.errors import RuleError
from gamekit.events import Event

Action = tuple
"""An action: a tuple of small ints and strings, e.g. ``("play", 3)`` or ``("pass",)``."""


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
