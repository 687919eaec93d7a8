"""Random-play Unholy War on one core, event text off, history on: actions per CPU second (min/median of
repetitions, with the baseline ratio) with 2 and with 4 players.
Run: ``python benchmarks/bench_unholy_war.py [games]``."""

from __future__ import annotations

import sys

from common import RANDOM_PLAY_GOAL, random_play, rates, report

from cardgames.engine.unholy_war import GAME


def main(games: int = 60) -> None:
    report("unholy_war_random", RANDOM_PLAY_GOAL, "actions",
           {f"{players}_players": rates(random_play(GAME, {"verbose": False}, players, games))
            for players in (2, 4)}, games=games)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
