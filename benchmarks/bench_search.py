"""Search (ISMCTS) speed in every game, with each game's own search settings (``search_settings``, as the app
seats it): iterations per CPU second over decisions sampled from random games, min/median of repetitions with
the baseline ratio, at the app's iterations per decision and four times as many. ``--winrates N`` also plays N
games of the search player against the random and the greedy player (seats alternate), spread over
``--processes`` (wall time there is parallel work, so only win rates are printed).
Run: ``python benchmarks/bench_search.py [--game unity] [--winrates 100 --processes 2]``.
"""

from __future__ import annotations

import argparse
import importlib
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from common import SEARCH_GOAL, SEARCH_ITERATIONS, battle_config, rates, report, search_play

from gamekit.players import GreedyPlayer, RandomPlayer, quiet, search_player
from gamekit.simulate import simulate

ENGINES = {
    "command-dice": ("cardgames.engine.command_dice", {}, (2,)),
    "unholy-war": ("cardgames.engine.unholy_war", {}, (2,)),
    "squad-combat": ("cardgames.engine.squad_combat", {}, (2,)),
    "unity": ("cardgames.engine.unity", {}, (2, 4)),
    "army-combat": ("battles.engine", battle_config(), (2,)),
}
"""Game name -> the module whose ``GAME`` is the engine, the config a benchmark game starts with, and the
numbers of players its search is timed with."""

OPPONENTS = {"random": RandomPlayer, "greedy": GreedyPlayer}


def load_game(name: str) -> tuple[Any, dict[str, Any]]:
    """The engine's GAME and the config to play it with."""
    module, config, _ = ENGINES[name]
    return importlib.import_module(module).GAME, config


def _games(args: tuple[str, str, int, int, int]) -> list[int]:
    name, opponent, iterations, games, seed = args
    game, config = load_game(name)
    outcome = simulate(game, config, [search_player(game, seed, iterations=iterations), OPPONENTS[opponent](seed + 1)],
                       games=games, seed=seed, alternate=True)
    return [outcome["wins"][0], outcome["games"]]


def win_rates(name: str, iterations: int, games: int, processes: int, seed: int) -> dict[str, float]:
    out: dict[str, float] = {}
    with ProcessPoolExecutor(processes) as pool:
        for opponent in OPPONENTS:
            chunks = [(name, opponent, iterations, games // processes + (i < games % processes), seed + 7 * i)
                      for i in range(processes)]
            wins, played = map(sum, zip(*pool.map(_games, chunks), strict=True))
            out[f"win_rate_vs_{opponent}"] = round(wins / played, 3)
            out[f"games_vs_{opponent}"] = played
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="all", choices=[*ENGINES, "all"])
    parser.add_argument("--moves", type=int, default=4, help="decisions timed in each repetition")
    parser.add_argument("--winrates", type=int, default=0, help="games against each opponent (0: none)")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in ENGINES if args.game == "all" else [args.game]:
        game, config = load_game(name)
        figures = {f"{seats}_players_{n}_iterations": rates(search_play(quiet(game), config, seats, n, args.moves,
                                                                          args.seed))
                   for seats in ENGINES[name][2] for n in SEARCH_ITERATIONS}
        extra = win_rates(name, SEARCH_ITERATIONS[0], args.winrates, args.processes, args.seed) if args.winrates else {}
        report("search_ismcts", SEARCH_GOAL, "iterations", figures, game=name,
               search_settings=getattr(game, "search_settings", {}), **extra)


if __name__ == "__main__":
    main()
