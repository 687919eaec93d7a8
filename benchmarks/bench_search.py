"""ISMCTS speed, and optionally its win rates, for any engine that offers the game protocol.

Prints one JSON line: iterations per second and the time of one move at `--iterations`,
over decisions sampled from random games. ``--winrates N`` also plays N games of ISMCTS
against the random and the greedy player (seats alternate), spread over ``--processes``.
Engines not written yet are reported as skipped.
Run: ``python benchmarks/bench_search.py --game command-dice [--winrates 100 --processes 2]``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gamekit.errors import RuleError
from gamekit.players import GreedyPlayer, ISMCTSPlayer, RandomPlayer, quiet
from gamekit.simulate import simulate

ENGINES = {
    "command-dice": "cardgames.engine.command_dice",
    "unholy-war": "cardgames.engine.unholy_war",
    "squad-combat": "cardgames.engine.squad_combat",
    "unity": "cardgames.engine.unity",
    "army-combat": "battles.engine",
}
"""Game name -> module whose ``GAME`` attribute is the engine."""
CONFIG_NAMES = ("EXAMPLE_CONFIG", "DEFAULT_CONFIG")
"""The module attribute, first found, holding a config that starts a game (default: ``{}``)."""

OPPONENTS = {"random": RandomPlayer, "greedy": GreedyPlayer}


def load_game(name: str) -> tuple[object, dict] | None:
    """The engine's GAME and a config to play it with, or None when not importable yet."""
    try:
        module = importlib.import_module(ENGINES[name])
    except ImportError:
        return None
    config = next((getattr(module, n) for n in CONFIG_NAMES if hasattr(module, n)), {})
    return (module.GAME, config) if hasattr(module, "GAME") else None


def decisions(game, config: dict, count: int, seed: int) -> list[tuple[object, int]]:
    """States with a real choice (two or more legal actions), sampled from random play."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = game.new_game(config, ["Ann", "Bob"], seed=rng.getrandbits(32))
        while not game.is_over(state) and len(found) < count:
            movers = game.to_move(state)
            if rng.random() < 0.1 and len(game.legal_actions(state, movers[0])) > 1:
                found.append((game.clone(state), movers[0]))
            for seat in movers:
                game.apply(state, rng.choice(game.legal_actions(state, seat)), seat)
    return found


def speed(game, config: dict, iterations: int, moves: int, seed: int) -> dict:
    player = ISMCTSPlayer(seed, iterations=iterations)
    times = []
    found = decisions(quiet(game), config, moves + 1, seed)
    player.choose(game, *found.pop())  # warm the engine's caches, as a running server would have them
    for state, seat in found:
        started = time.perf_counter()
        player.choose(game, state, seat)
        times.append(time.perf_counter() - started)
    total = sum(times)
    return {"iterations_per_second": round(iterations * len(times) / total),
            "move_seconds_mean": round(total / len(times), 4), "move_seconds_max": round(max(times), 4)}


def _games(args: tuple[str, str, int, int, int]) -> list[int]:
    name, opponent, iterations, games, seed = args
    game, config = load_game(name)
    outcome = simulate(game, config, [ISMCTSPlayer(seed, iterations=iterations),
                                             OPPONENTS[opponent](seed + 1)],
                       games=games, seed=seed, alternate=True)
    return [outcome["wins"][0], outcome["games"]]


def win_rates(name: str, iterations: int, games: int, processes: int, seed: int) -> dict:
    rates = {}
    with ProcessPoolExecutor(processes) as pool:
        for opponent in OPPONENTS:
            chunks = [(name, opponent, iterations, games // processes + (i < games % processes), seed + 7 * i)
                      for i in range(processes)]
            wins, played = map(sum, zip(*pool.map(_games, chunks), strict=True))
            rates[f"win_rate_vs_{opponent}"] = round(wins / played, 3)
            rates[f"games_vs_{opponent}"] = played
    return rates


def bench(name: str, args: argparse.Namespace) -> dict:
    loaded = load_game(name)
    if loaded is None:
        return {"skipped": f"{ENGINES[name]} has no GAME yet"}
    game, config = loaded
    try:
        game.new_game(config, ["Ann", "Bob"], seed=args.seed)
    except RuleError as error:
        return {"skipped": f"{error.message} (give {ENGINES[name]} an {CONFIG_NAMES[0]})"}
    try:
        result = {"iterations": args.iterations, **speed(game, config, args.iterations, args.moves, args.seed)}
    except Exception as error:  # an engine still being written must not stop the others' figures
        return {"error": f"{type(error).__name__}: {error}"}
    if args.winrates:
        result.update(win_rates(name, args.iterations, args.winrates, args.processes, args.seed))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="command-dice", choices=[*ENGINES, "all"])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=20, help="decisions timed")
    parser.add_argument("--winrates", type=int, default=0, help="games against each opponent (0: none)")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    names = list(ENGINES) if args.game == "all" else [args.game]
    print(json.dumps({"benchmark": "search_ismcts", "goal_iterations_per_second": 2000,
                      "results": {name: bench(name, args) for name in names}}))


if __name__ == "__main__":
    main()
