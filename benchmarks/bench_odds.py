"""Uncached calls per second of the exact Skirmish odds over a varied set of matchups.

Run from the repository root: python benchmarks/bench_odds.py
"""

import itertools
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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

MIN_SECONDS = 1.0


def matchups() -> list[tuple[SkirmishSide, SkirmishSide]]:
    """Every pairing of a spread of units: all dice modes, Reach/Ranged, Savant cards, ties, Strength 0."""
    units = [
        SkirmishSide(strength=strength, role=role, traits=traits, card_bonuses=cards, power_bonus=power)
        for strength, role, traits, cards, power in itertools.product(
            (0, 2, 4),
            (None, AGGRESSOR, GUARDIAN, SAVANT, EQUIPMENT),
            (frozenset(), frozenset({REACH}), frozenset({RANGED})),
            ((), (1,)),
            (0, 1),
        )
    ]
    return list(itertools.product(units[::3], units[1::4]))


def main() -> None:
    pairs = matchups()
    calls = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < MIN_SECONDS:
        for offense, defense in pairs:
            skirmish_odds(offense=offense, defense=defense)
        calls += len(pairs)
        elapsed = time.perf_counter() - start
    print(json.dumps({"benchmark": "skirmish_odds_exact", "calls_per_second": round(calls / elapsed)}))


if __name__ == "__main__":
    main()
