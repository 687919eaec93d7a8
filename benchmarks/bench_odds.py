"""Uncached calls per CPU second of the exact Skirmish odds over a varied set of matchups (every dice mode,
Reach and Ranged, Savant cards, ties, Strength 0), min/median of repetitions with the baseline ratio, for
units of Strength up to 4 and up to 8 (more dice to enumerate), so growth with Strength shows.
Run from the repository root: python benchmarks/bench_odds.py
"""

from __future__ import annotations

import itertools

from common import emit, python_baseline, rates

from battles.engine.odds import (
    AGGRESSOR,
    EQUIPMENT,
    GUARDIAN,
    RANGED,
    REACH,
    SAVANT,
    SkirmishSide,
    skirmish_odds,
)


def matchups(strengths: tuple[int, ...]) -> list[tuple[SkirmishSide, SkirmishSide]]:
    """Every pairing of a spread of units of these `strengths`."""
    units = [
        SkirmishSide(strength=strength, role=role, traits=traits, card_bonuses=cards, power_bonus=power)
        for strength, role, traits, cards, power in itertools.product(
            strengths,
            (None, AGGRESSOR, GUARDIAN, SAVANT, EQUIPMENT),
            (frozenset(), frozenset({REACH}), frozenset({RANGED})),
            ((), (1,)),
            (0, 1),
        )
    ]
    return list(itertools.product(units[::3], units[1::4]))


def calls(pairs: list[tuple[SkirmishSide, SkirmishSide]]):
    def work() -> int:
        for offense, defense in pairs:
            skirmish_odds(offense=offense, defense=defense)
        return len(pairs)

    return work


def main() -> None:
    baseline = python_baseline()
    figures = {f"strength_up_to_{top}": rates(calls(matchups(strengths)))
               for top, strengths in ((4, (0, 2, 4)), (8, (0, 4, 8)))}
    emit({"benchmark": "skirmish_odds_exact", "clock": "cpu", "unit": "calls per CPU second",
          "baseline_ops_per_cpu_second": baseline,
          "figures": {k: {**f, "ratio_to_baseline": round(f["median"] / baseline["median"], 4)}
                      for k, f in figures.items()}})


if __name__ == "__main__":
    main()
