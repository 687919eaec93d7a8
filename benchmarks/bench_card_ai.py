"""How strong the search player (ISMCTS) is at a card game: mirror games against the greedy (or random) player.

The search player is the one the app seats (`search_player`: the game's ``search_settings``), with
``--settings '{"rollout_depth": 8}'`` overriding them for experiments. Each game seed is played twice,
the players swapping seats, so neither the deal nor the seat favours anyone. A game that ends with no
winner (the turn limit) counts as not won. Prints one JSON line: wins, games, win rate with its 95%
(Wilson) interval, the search settings, and the search player's iterations per second and mean move
time over its real decisions (two or more legal actions).
Run: ``python benchmarks/bench_card_ai.py [--game unity --pairs 50 --iterations 1000 --processes 2]``.
"""

from __future__ import annotations

import argparse
import json
import random
from concurrent.futures import ProcessPoolExecutor

from bench_battle_ai import Timed, wilson
from bench_search import ENGINES, OPPONENTS, load_game

from gamekit.players import quiet, search_player
from gamekit.simulate import play


def mirror(args: tuple[str, str, int, dict, int]) -> dict:
    """Play `pairs` mirror pairs of ISMCTS against `opponent`: its wins, games and search time."""
    name, opponent, pairs, search, seed = args
    game, config = load_game(name)
    rng = random.Random(seed)
    wins = games = decisions = 0
    seconds = 0.0
    for _ in range(pairs):
        game_seed = rng.getrandbits(32)
        for seat in (0, 1):
            searcher = Timed(search_player(game, rng.getrandbits(32), **search))
            players = [searcher, OPPONENTS[opponent](rng.getrandbits(32))]
            if seat:
                players.reverse()
            state = play(quiet(game), quiet(game).new_game(config, ["a", "b"], seed=game_seed), players)
            wins += game.result(state)["winner"] == seat
            games += 1
            seconds += searcher.seconds
            decisions += searcher.decisions
    return {"wins": wins, "games": games, "seconds": seconds, "decisions": decisions}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="unity", choices=list(ENGINES))
    parser.add_argument("--opponent", default="greedy", choices=list(OPPONENTS))
    parser.add_argument("--pairs", type=int, default=12, help="mirror pairs (two games each)")
    parser.add_argument("--iterations", type=int, default=400, help="search iterations per decision (the app's)")
    parser.add_argument("--settings", type=json.loads, default={},
                        help="search settings (JSON) overriding the game's own, e.g. rollout_depth")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    search = {"iterations": args.iterations, **args.settings}
    n = args.processes
    chunks = [(args.game, args.opponent, args.pairs // n + (i < args.pairs % n), search, args.seed + 1009 * i)
              for i in range(n)]
    with ProcessPoolExecutor(n) as pool:
        parts = list(pool.map(mirror, chunks))
    wins, games = sum(p["wins"] for p in parts), sum(p["games"] for p in parts)
    decisions, seconds = sum(p["decisions"] for p in parts), sum(p["seconds"] for p in parts)
    settings = {**getattr(load_game(args.game)[0], "search_settings", {}), **search}
    print(json.dumps({"benchmark": "card_ai", "game": args.game, "opponent": args.opponent, **settings,
                      "wins": wins, "games": games, "win_rate": round(wins / games, 3),
                      "ci95": wilson(wins, games),
                      "iterations_per_second": round(args.iterations * decisions / seconds),
                      "move_seconds_mean": round(seconds / decisions, 4)}))


if __name__ == "__main__":
    main()
