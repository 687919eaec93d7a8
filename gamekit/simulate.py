"""Play many games between AI players, for balance checks and the ``manage.py simulate`` command."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from gamekit.dice import Dice
from gamekit.players import quiet
from gamekit.protocol import Game


def play(game: Game, state: Any, players: Sequence[Any]) -> Any:
    """Play `state` to the end. On a simultaneous move every mover chooses before any action is
    applied, so no player sees another's choice of the same move."""
    while not game.is_over(state):
        moves = [(seat, players[seat].choose(game, state, seat)) for seat in game.to_move(state)]
        for seat, action in moves:
            game.apply(state, action, seat)
    return state


def simulate(game: Game, config: dict[str, Any] | None, players: Sequence[Any], *, games: int = 100,
             seed: int | None = 0, alternate: bool = False, log: bool = True) -> dict[str, Any]:
    """Play `games` games; `players[i]` sits at seat i, or with `alternate` the seats rotate one
    place each game so a seat's advantage falls evenly on everyone.

    Returns wins per player and per seat, draws, the average length in actions and the speed.
    With `log` off the dice keep no history (the games cannot be stored, and run a little faster).
    """
    fast = quiet(game)
    rng = random.Random(seed)
    n = len(players)
    wins, seat_wins, draws, actions = [0] * n, [0] * n, 0, 0
    started = time.perf_counter()
    for number in range(games):
        shift = number % n if alternate else 0
        seated = [players[(s + shift) % n] for s in range(n)]
        game_seed = rng.getrandbits(63)
        state = fast.new_game(config or {}, [type(p).__name__ for p in seated], seed=game_seed,
                              dice=Dice(game_seed, log=log))
        play(fast, state, seated)
        actions += len(state.actions)
        winner = fast.result(state)["winner"]
        if winner is None:
            draws += 1
        else:
            seat_wins[winner] += 1
            wins[(winner + shift) % n] += 1
    elapsed = max(time.perf_counter() - started, 1e-9)
    return {"game": game.name, "games": games, "players": [type(p).__name__ for p in players],
            "wins": wins, "seat_wins": seat_wins, "draws": draws,
            "average_length": actions / games if games else 0.0,
            "games_per_second": games / elapsed, "actions_per_second": actions / elapsed}
