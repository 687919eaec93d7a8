"""Random-vs-random Unity games on one core, with legal actions, apply and the history on.

Prints one JSON line: {"benchmark": "unity_random", "actions_per_second": ..., "games_per_second": ...}.
Times are CPU seconds of this process (steady on a shared machine); games are 4-player, seeded.
Usage: python benchmarks/bench_unity.py [games] [players]
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgames.engine.unity import GAME


def main(games: int = 300, players: int = 4) -> dict[str, object]:
    rng = random.Random(1)
    names = [f"p{i}" for i in range(players)]
    actions = 0
    start = time.process_time()
    for seed in range(games):
        state = GAME.new_game({"verbose": False}, names, seed=seed)
        while not GAME.is_over(state):
            (seat,) = GAME.to_move(state)
            GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)), seat)
            actions += 1
    elapsed = time.process_time() - start
    return {"benchmark": "unity_random", "actions_per_second": round(actions / elapsed),
            "games_per_second": round(games / elapsed, 1)}


if __name__ == "__main__":
    print(json.dumps(main(*(int(a) for a in sys.argv[1:3]))))
