"""Command Dice at random: full games on one core with legal actions, apply and the history on.

Prints one JSON line. Every rate is per CPU second of this process (``time.process_time``), so
other load on a shared machine matters less. Event text is off (the simulator's setting); the
same games with the readable event text on are reported as ``actions_per_second_with_text``.
Run: ``python benchmarks/bench_command_dice.py [--seconds 5]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardgames.engine.command_dice import GAME, QUIET


def run(game, seconds: float, seed: int) -> tuple[float, float]:
    """Actions and games per CPU second over whole games played for about `seconds` of CPU time."""
    rng, actions, games = random.Random(seed), 0, 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        state = game.new_game({}, ["Ann", "Bob"], seed=seed + games)
        while not game.is_over(state):
            for seat in game.to_move(state):
                game.apply(state, rng.choice(game.legal_actions(state, seat)), seat)
        actions += len(state.actions)
        games += 1
    elapsed = time.process_time() - started
    return actions / elapsed, games / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    run(QUIET, 2.0, args.seed)  # warm the allocation cache, as a long simulation would
    actions, games = run(QUIET, args.seconds, args.seed)
    with_text, _ = run(GAME, args.seconds / 2, args.seed)
    print(json.dumps({"benchmark": "command_dice_random", "actions_per_second": round(actions),
                      "games_per_second": round(games, 1), "actions_per_second_with_text": round(with_text),
                      "goal_actions_per_second": 100_000, "clock": "cpu"}))


if __name__ == "__main__":
    main()
