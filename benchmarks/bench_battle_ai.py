"""How strong the AI players are at Army Combat: greedy against random, search (ISMCTS) against greedy.

Mirror battles: each pair of random armies from the unit catalogue is fought twice with the same
armies and dice seed, the players swapping seats, so neither the armies nor the seat favour anyone.
Prints one JSON line: wins and games for each pairing with a 95% (Wilson) interval, and the search
player's iterations per second over its real decisions.
Run: ``python benchmarks/bench_battle_ai.py [--pairs 50 --iterations 300 --processes 2]``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from battles.engine import GAME  # noqa: E402
from battles.engine.powers import POWERS  # noqa: E402
from battles.engine.state import PATHS  # noqa: E402
from gamekit.players import GreedyPlayer, RandomPlayer, search_player  # noqa: E402
from gamekit.simulate import play  # noqa: E402

CATALOGUE = json.loads((ROOT / "campaign/catalogue/data/unit_catalogue.json").read_text())
ARMY_SIZE = 8


def battle_config(rng: random.Random) -> dict:
    """Two random armies of `ARMY_SIZE` catalogue cards and two commanders with random powers."""
    commanders = []
    for seat in (0, 1):
        cards = rng.sample(CATALOGUE, ARMY_SIZE)
        units = [{"id": i, **{k: c[k] for k in ("name", "strength", "role", "path", "traits", "effects")},
                  "retinue": False} for i, c in enumerate(cards, start=1)]
        commanders.append({"name": "AB"[seat], "morale": rng.randint(5, 7), "influence": rng.randint(0, 1),
                           "is_player_character": rng.random() < 0.5,
                           "power": rng.choice([None, *(p for p in POWERS if p != "Tactician")]),
                           "dervish": rng.choice(PATHS), "units": units})
    return {"verbose": False, "commanders": commanders}


class Timed:
    """A player wrapper that times the decisions with a real choice (two or more legal actions), in CPU seconds
    of its process (each process of the pool searches on one core)."""

    def __init__(self, player) -> None:
        self.player, self.seconds, self.decisions = player, 0.0, 0

    def choose(self, game, state, seat):
        if len(game.legal_actions(state, seat)) < 2:
            return self.player.choose(game, state, seat)
        started = time.process_time()
        action = self.player.choose(game, state, seat)
        self.seconds += time.process_time() - started
        self.decisions += 1
        return action


def make(kind: str, seed: int, search: dict):
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "greedy":
        return GreedyPlayer(seed)
    return search_player(GAME, seed, **search)


def mirror(args: tuple[str, str, int, dict, int]) -> dict:
    """Play `pairs` mirror pairs of `first` against `second`: wins of `first`, games, search time."""
    first, second, pairs, search, seed = args
    rng = random.Random(seed)
    wins = games = decisions = 0
    seconds = 0.0
    for _ in range(pairs):
        config, game_seed = battle_config(rng), rng.getrandbits(32)
        for seat in (0, 1):
            player = Timed(make(first, rng.getrandbits(32), search))
            players = [player, make(second, rng.getrandbits(32), search)]
            if seat:
                players.reverse()
            state = play(GAME, GAME.new_game(config, ["a", "b"], seed=game_seed), players)
            wins += GAME.result(state)["winner"] == seat
            games += 1
            seconds += player.seconds
            decisions += player.decisions
    return {"wins": wins, "games": games, "seconds": seconds, "decisions": decisions}


def wilson(wins: int, games: int, z: float = 1.96) -> list[float]:
    """The 95% Wilson score interval of a win rate."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return [round(centre - half, 3), round(centre + half, 3)]


def pairing(pool: ProcessPoolExecutor, first: str, second: str, args: argparse.Namespace) -> dict:
    n = args.processes
    search = search_args(args)
    chunks = [(first, second, args.pairs // n + (i < args.pairs % n), search, args.seed + 1009 * i)
              for i in range(n)]
    parts = list(pool.map(mirror, chunks))
    wins, games = sum(p["wins"] for p in parts), sum(p["games"] for p in parts)
    out = {"wins": wins, "games": games, "win_rate": round(wins / games, 3), "ci95": wilson(wins, games)}
    if first == "search":
        decisions = sum(p["decisions"] for p in parts)
        seconds = sum(p["seconds"] for p in parts)
        out["iterations_per_second"] = round(args.iterations * decisions / seconds)
        out["move_seconds_mean"] = round(seconds / decisions, 4)
    return out


def search_args(args: argparse.Namespace) -> dict:
    """The search player's settings: the battle's own (``GAME.search_settings``) unless given here."""
    settings = {"iterations": args.iterations, **GAME.search_settings}
    if args.exploration is not None:
        settings["exploration"] = args.exploration
    if args.rollout_to_turn is not None:
        settings["rollout_to_turn"] = args.rollout_to_turn
    if args.rollout_depth is not None:
        settings["rollout_depth"] = None if args.rollout_depth == -1 else args.rollout_depth
    return settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=25, help="mirror pairs (two battles each) per pairing")
    parser.add_argument("--iterations", type=int, default=300, help="search iterations per decision")
    parser.add_argument("--exploration", type=float, help="the search player's UCB1 constant (default: the "
                                                           "battle's search_settings)")
    parser.add_argument("--rollout-depth", type=int,
                        help="random actions after each leaf before the heuristic scores it (-1: to the end)")
    parser.add_argument("--rollout-to-turn", type=lambda v: v.lower() in ("1", "yes", "true"),
                        help="stop each play-out at the search player's next decision (yes/no)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("greedy", "search"), help="run one pairing only")
    args = parser.parse_args()
    result: dict = {"benchmark": "battle_ai", "pairs": args.pairs, "iterations": args.iterations,
                    "search_settings": search_args(args)}
    with ProcessPoolExecutor(args.processes) as pool:
        if args.only != "search":
            result["greedy_vs_random"] = pairing(pool, "greedy", "random", args)
        if args.only != "greedy":
            result["search_vs_greedy"] = pairing(pool, "search", "greedy", args)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
