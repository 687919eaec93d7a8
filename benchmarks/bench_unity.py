"""Random-play Unity games on one core, event text off, history on: actions per CPU second (min/median of
repetitions, with the baseline ratio) with 3 and with 4 players.
Run: ``python benchmarks/bench_unity.py [games]``."""

from __future__ import annotations

import sys

from common import RANDOM_PLAY_GOAL, random_play, rates, report

from cardgames.engine.unity import GAME


def main(games: int = 80) -> None:
    report("unity_random", RANDOM_PLAY_GOAL, "actions",
           {f"{players}_players": rates(random_play(GAME.quiet, {}, players, games)) for players in (3, 4)},
           games=games)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
