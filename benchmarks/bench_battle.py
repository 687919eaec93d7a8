"""Random-vs-random Army Combat battles on one core, event text off, history on: actions per CPU second
(min/median of repetitions, with the baseline ratio) for armies of 6 and of 12 units.
Run: ``python benchmarks/bench_battle.py [battles]``."""

from __future__ import annotations

import sys

from common import RANDOM_PLAY_GOAL, battle_config, random_play, rates, report

from battles.engine import GAME


def main(battles: int = 500) -> None:
    report("battle_random", RANDOM_PLAY_GOAL, "actions",
           {f"{units}_units": rates(random_play(GAME, battle_config(units), 2, battles)) for units in (6, 12)},
           battles=battles)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
