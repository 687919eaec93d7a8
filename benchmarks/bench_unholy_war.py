"""Random-vs-random 2-player Unholy War games on one core: legal actions, apply and the dice
history on, readable events off. Rates are per CPU second of this process (``time.process_time``),
so other load on the machine matters less. Prints one JSON line."""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgames.engine.unholy_war import GAME
from cardgames.engine.unholy_war.table import OVER


def run(seconds: float = 5.0, seed: int = 1) -> dict[str, float | str]:
    """Play whole games until `seconds` have passed; count actions and games."""
    rand = random.Random(seed).random
    legal, apply = GAME.legal_actions, GAME.apply
    actions = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = GAME.new_game({"verbose": False}, ["A", "B"], seed=seed + games)
        while state.phase != OVER:
            seat = state.cur
            acts = legal(state, seat)
            apply(state, acts[int(rand() * len(acts))], seat)
            actions += 1
        games += 1
    elapsed = time.process_time() - start
    return {"benchmark": "unholy_war_random", "actions_per_second": round(actions / elapsed),
            "games_per_second": round(games / elapsed, 1), "clock": "cpu"}


if __name__ == "__main__":
    print(json.dumps(run(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0)))
