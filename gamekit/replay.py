"""A stored game (`GameRecord`: config, players, seed, actions and every chance outcome) and `replay`, which
re-runs it through scripted dice: a game played at a real table and a simulated one are the same kind of record.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gamekit.dice import Dice
from gamekit.errors import RuleError
from gamekit.events import Event
from gamekit.protocol import Action, Game, as_action


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


def replay_states(game: Game, record: GameRecord) -> Iterator[Any]:
    """The state after 0, 1, ... every action of a record, in one pass: the same object advanced in place,
    so read what you need of each state before asking for the next."""
    state = game.new_game(record.config, record.players, seed=record.seed, dice=Dice.scripted(record.chance))
    yield state
    for player, action in record.actions:
        game.apply(state, action, player)
        yield state


def record_of(game: Game, state: Any) -> GameRecord:
    """The record of a game so far. Every engine's state carries `config`, `players`,
    `seed`, `actions` (``(seat, action)`` pairs, appended by `apply`) and `dice`."""
    if state.dice.log is None:
        raise RuleError("record", "This game was played with dice logging off, so it cannot be stored.")
    return GameRecord(game.name, state.config, list(state.players), state.seed,
                      list(state.actions), list(state.dice.log))
