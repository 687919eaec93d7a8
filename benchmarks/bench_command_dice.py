"""Random-play Command Dice on one core, history on: actions per CPU second (min/median of repetitions, with
the baseline ratio) for games to 3 and to 6 victories, event text off; and to 3 victories with the text on.
A first run, not counted, fills the allocation cache a long simulation would have.
Run: ``python benchmarks/bench_command_dice.py [games]``."""

from __future__ import annotations

import sys

from common import RANDOM_PLAY_GOAL, random_play, rates, report

from cardgames.engine.command_dice import GAME, QUIET


def main(games: int = 100) -> None:
    figures = {f"{wins}_victories": rates(random_play(QUIET, {"victories": wins}, 2, games))
               for wins in (3, 6)}
    figures["3_victories_with_text"] = rates(random_play(GAME, {}, 2, games))
    report("command_dice_random", RANDOM_PLAY_GOAL, "actions", figures, games=games)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
