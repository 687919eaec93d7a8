"""Random-vs-random Squad Combat on one core: legal actions, apply and history on, readable text off.

Rates are per CPU second of this process (``time.process_time``), so other load on a shared
machine matters less. Prints one JSON line:
{"benchmark": "squad_combat_random", "actions_per_second": .., "games_per_second": .., "clock": "cpu"}.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgames.engine.squad_combat import GAME


def main(games: int = 400) -> None:
    rng = random.Random(1)
    choice = rng.choice
    legal_actions, apply = GAME.legal_actions, GAME.apply
    config = {"verbose": False}
    actions = 0
    start = time.process_time()
    for seed in range(games):
        state = GAME.new_game(config, ["A", "B"], seed=seed)
        while state.cur >= 0:  # -1 once the game is over
            seat = state.cur
            apply(state, choice(legal_actions(state, seat)), seat)
        actions += len(state.actions)
    elapsed = time.process_time() - start
    print(json.dumps({"benchmark": "squad_combat_random", "actions_per_second": round(actions / elapsed),
                      "games_per_second": round(games / elapsed, 1), "clock": "cpu"}))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 400)
