"""Battle odds by Monte Carlo: chunks merge exactly, seeds decide everything, intervals are Wilson's."""

import json

import pytest

from battles.engine.battle_odds import (
    battle_odds,
    battle_odds_chunk,
    battle_odds_merge,
    battle_seeds,
    battles_needed,
    split_seeds,
    wilson_interval,
)
from gamekit.errors import RuleError

from .helpers import SOLDIER_FX, config, unit
from .test_protocol import full_config

RANDOM = ["random", "random"]


def test_merged_chunks_equal_one_run_over_the_same_seeds():
    seeds = battle_seeds(90, seed=3)
    whole = battle_odds_merge([battle_odds_chunk(full_config(), RANDOM, seeds)])
    parts = [battle_odds_chunk(full_config(), RANDOM, part) for part in (seeds[:7], seeds[7:50], seeds[50:])]
    assert battle_odds_merge(parts) == whole
    assert battle_odds_merge(battle_odds_chunk(full_config(), RANDOM, part)
                             for part in split_seeds(seeds, 4)) == whole
    assert whole.battles == 90


def test_partials_survive_json_as_celery_sends_them():
    seeds = battle_seeds(20)
    part = battle_odds_chunk(full_config(), RANDOM, seeds)
    assert battle_odds_merge([json.loads(json.dumps(part))]) == battle_odds_merge([part])


def test_the_same_seeds_give_the_same_odds_and_other_seeds_other_battles():
    assert battle_odds(full_config(), RANDOM, 60, seed=1) == battle_odds(full_config(), RANDOM, 60, seed=1)
    assert battle_odds_chunk(full_config(), RANDOM, [5]) == battle_odds_chunk(full_config(), RANDOM, [5])
    assert battle_odds(full_config(), RANDOM, 60, seed=1) != battle_odds(full_config(), RANDOM, 60, seed=2)


def test_event_text_in_the_config_does_not_change_the_battles():
    seeds = battle_seeds(15)
    assert battle_odds_chunk(full_config(verbose=True), RANDOM, seeds) == battle_odds_chunk(
        full_config(verbose=False), RANDOM, seeds)


def test_every_battle_has_a_winner_and_the_figures_are_per_battle_means():
    odds = battle_odds(full_config(), RANDOM, 50)
    assert sum(odds.wins) == 50
    assert odds.win_probability[0] + odds.win_probability[1] == pytest.approx(1.0)
    for side in (0, 1):
        low, high = odds.win_interval[side]
        assert low <= odds.win_probability[side] <= high
        assert 0 <= odds.expected_kills[side] <= 12
        assert odds.expected_morale[side] >= 0
    assert odds.actions_per_battle > 2
    assert json.loads(json.dumps(odds.as_dict()))["half_width"] == odds.half_width


def test_the_interval_shrinks_as_battles_grow():
    widths = [battle_odds(full_config(), RANDOM, n).half_width for n in (25, 100, 400)]
    assert widths[0] > widths[1] > widths[2]
    assert widths[2] < 0.05


def test_wilson_interval_known_values():
    low, high = wilson_interval(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson_interval(0, 10)
    assert low == 0.0
    assert round(high, 4) == 0.2775  # never a negative lower bound, never a zero-width interval
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)


def test_battles_needed_for_a_margin():
    assert battles_needed(0.01) == 9604  # about 10,000 for +/- 1% at 95%
    assert battles_needed(0.02) == 2401
    assert battles_needed(0.05) == 385
    half = battle_odds_merge([{"battles": 9604, "wins": [4802, 4802], "kills": [0, 0], "morale": [0, 0],
                               "actions": 0}]).half_width
    assert half <= 0.01
    with pytest.raises(RuleError):
        battles_needed(0)


def test_a_clearly_stronger_army_wins_more():
    strong = [unit(i, "Knights", 5, "Aggressor") for i in range(1, 7)]
    weak = [unit(i, "Levy", 1, "Aggressor") for i in range(1, 5)] + [unit(5, effects=SOLDIER_FX)]
    odds = battle_odds(config(strong, weak), RANDOM, 200)
    assert odds.win_interval[0][0] > 0.75
    assert odds.expected_kills[0] > odds.expected_kills[1]
    assert odds.expected_morale[0] > odds.expected_morale[1]


def test_greedy_and_search_policies_with_options():
    seeds = battle_seeds(2)
    part = battle_odds_chunk(full_config(), ["greedy", {"policy": "search", "iterations": 8}], seeds)
    assert part["battles"] == 2
    assert part == battle_odds_chunk(full_config(), ["greedy", {"policy": "search", "iterations": 8}], seeds)


def test_bad_policies_are_refused_with_what_to_do():
    with pytest.raises(RuleError, match="choose one of random, greedy, search"):
        battle_odds_chunk(full_config(), ["random", "clever"], [1])
    with pytest.raises(RuleError, match="two AI policies"):
        battle_odds_chunk(full_config(), ["random"], [1])
    with pytest.raises(RuleError, match="does not take those options"):
        battle_odds_chunk(full_config(), ["random", {"policy": "search", "depth": 3}], [1])
    with pytest.raises(RuleError, match="No battles"):
        battle_odds_merge([])


def test_seeds_are_distinct_and_split_evenly():
    seeds = battle_seeds(1000, seed=9)
    assert len(set(seeds)) == 1000
    assert seeds == battle_seeds(1000, seed=9)
    parts = split_seeds(seeds, 3)
    assert [len(p) for p in parts] == [334, 333, 333]
    assert [s for p in parts for s in p] == seeds
    assert split_seeds(seeds[:2], 5) == [[seeds[0]], [seeds[1]]]
