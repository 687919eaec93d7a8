"""Battle odds by Monte Carlo: play many battles between AI commanders and count.

Exact odds exist for one Skirmish (odds.py); a whole Battle has too many choices for
that, so we play it out. Each battle is seeded on its own: its dice and both players'
choices come from one battle seed, so a battle is the same wherever and in whatever
chunk it is played. A chunk returns plain partial sums (whole numbers, JSON-able);
merging chunks adds the sums, so any split of the same seeds gives the same odds,
exactly. That is what lets a Celery group fan the chunks out (battles/tasks.py).

Usage::

    seeds = battle_seeds(battles_needed(0.01))
    odds = battle_odds_merge([battle_odds_chunk(config, ["random", "greedy"], seeds)])
    odds.win_probability[0], odds.win_interval[0]

A policy is ``"random"``, ``"greedy"`` or ``"search"`` (ISMCTS), or a dict naming one
with its options: ``{"policy": "search", "iterations": 200}``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from gamekit.dice import Dice
from gamekit.errors import RuleError
from gamekit.players import GreedyPlayer, ISMCTSPlayer, RandomPlayer

from .game import GAME
from .state import OVER

Z_95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""

POLICIES = {"random": RandomPlayer, "greedy": GreedyPlayer, "search": ISMCTSPlayer}
"""AI policy name -> player class (gamekit.players)."""

PolicySpec = str | dict[str, Any]


def _player(spec: PolicySpec, seed: int) -> Any:
    """The player a policy spec names, seeded for one battle."""
    options = dict(spec) if isinstance(spec, dict) else {"policy": spec}
    name = options.pop("policy", None)
    if name not in POLICIES:
        raise RuleError("battle odds", f"Unknown AI policy {name!r}: choose one of {', '.join(POLICIES)}.")
    try:
        return POLICIES[name](seed, **options)
    except TypeError as error:
        raise RuleError("battle odds", f"The {name} policy does not take those options ({error}).") from error


def _check_policies(policies: Sequence[PolicySpec]) -> None:
    if len(policies) != 2:
        raise RuleError("battle odds", "Give two AI policies, one per commander, such as ['random', 'greedy'].")
    for spec in policies:
        _player(spec, 0)


def battle_seeds(battles: int, seed: int = 0) -> list[int]:
    """`battles` distinct battle seeds drawn from `seed` (the same list every time)."""
    rng = random.Random(seed)
    seeds: list[int] = []
    seen: set[int] = set()
    while len(seeds) < battles:
        value = rng.getrandbits(63)
        if value not in seen:
            seen.add(value)
            seeds.append(value)
    return seeds


def split_seeds(seeds: Sequence[int], chunks: int) -> list[list[int]]:
    """`seeds` in `chunks` nearly equal consecutive runs (no empty run)."""
    chunks = max(1, min(chunks, len(seeds)))
    size, extra = divmod(len(seeds), chunks)
    parts, start = [], 0
    for i in range(chunks):
        end = start + size + (i < extra)
        parts.append(list(seeds[start:end]))
        start = end
    return parts


def battle_odds_chunk(config: dict[str, Any], policies: Sequence[PolicySpec],
                      seeds: Iterable[int]) -> dict[str, Any]:
    """Play one battle per seed; return the partial sums `battle_odds_merge` adds up.

    Event text and the dice log are off (the odds never read them). Per seed the dice and
    the two players get their own seeds drawn from it, so the battle does not depend on
    which chunk plays it."""
    _check_policies(policies)
    quiet = {**config, "verbose": False}
    game = GAME
    wins, kills, morale = [0, 0], [0, 0], [0, 0]
    battles = actions = 0
    for seed in seeds:
        rng = random.Random(seed)
        dice_seed = rng.getrandbits(63)
        players = [_player(policies[0], rng.getrandbits(63)), _player(policies[1], rng.getrandbits(63))]
        state = game.new_game(quiet, ["side 0", "side 1"], seed=dice_seed, dice=Dice(dice_seed, log=False))
        while state.step != OVER:  # a battle always has exactly one seat to move
            seat = state.actor
            game.apply(state, players[seat].choose(game, state, seat), seat)
        result = game.result(state)
        wins[result["winner"]] += 1
        for side in (0, 1):
            kills[side] += result["kills"][side]
            morale[side] += result["morale"][side]
        battles += 1
        actions += len(state.actions)
    return {"battles": battles, "wins": wins, "kills": kills, "morale": morale, "actions": actions}


@dataclass(frozen=True, slots=True)
class BattleOdds:
    """What many battles between two commanders came to, per side (seat 0, seat 1).

    A battle always has a winner (a tie goes to a roll-off), so the win probabilities add up
    to 1. Intervals are Wilson score intervals at 95%."""

    battles: int
    wins: tuple[int, int]
    win_probability: tuple[float, float]
    win_interval: tuple[tuple[float, float], tuple[float, float]]
    expected_kills: tuple[float, float]
    expected_morale: tuple[float, float]
    actions_per_battle: float

    @property
    def half_width(self) -> float:
        """The larger half-width of the two win intervals: the odds are good to within this."""
        return max((high - low) / 2 for low, high in self.win_interval)

    def as_dict(self) -> dict[str, Any]:
        """JSON-able, with lists for the pairs."""
        data = asdict(self)
        data["half_width"] = self.half_width
        return data


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: unlike p +/- z*se it stays inside [0, 1]
    and keeps its coverage when p is near 0 or 1 (Agresti and Coull, 1998)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def battle_odds_merge(partials: Iterable[dict[str, Any]]) -> BattleOdds:
    """Add chunks' partial sums and turn them into odds. The sums are whole numbers, so any
    split of the same seeds merges to exactly the same odds."""
    battles = actions = 0
    wins, kills, morale = [0, 0], [0, 0], [0, 0]
    for part in partials:
        battles += part["battles"]
        actions += part["actions"]
        for side in (0, 1):
            wins[side] += part["wins"][side]
            kills[side] += part["kills"][side]
            morale[side] += part["morale"][side]
    if battles == 0:
        raise RuleError("battle odds", "No battles were played: give at least one seed.")
    return BattleOdds(
        battles=battles,
        wins=(wins[0], wins[1]),
        win_probability=(wins[0] / battles, wins[1] / battles),
        win_interval=(wilson_interval(wins[0], battles), wilson_interval(wins[1], battles)),
        expected_kills=(kills[0] / battles, kills[1] / battles),
        expected_morale=(morale[0] / battles, morale[1] / battles),
        actions_per_battle=actions / battles,
    )


def battle_odds(config: dict[str, Any], policies: Sequence[PolicySpec], battles: int,
                seed: int = 0) -> BattleOdds:
    """The odds from `battles` battles played here, one after another."""
    return battle_odds_merge([battle_odds_chunk(config, policies, battle_seeds(battles, seed))])


def battles_needed(margin: float = 0.01, z: float = Z_95) -> int:
    """Battles enough for a win probability within +/- `margin` at 95%, whatever it is: the
    worst case p = 1/2 needs z^2 / (4 margin^2), 9,604 for +/- 1%."""
    if not 0 < margin < 0.5:
        raise RuleError("battle odds", f"A margin must be between 0 and 0.5, such as 0.01; not {margin}.")
    return math.ceil(z * z / (4 * margin * margin))
