"""Unity's position estimate (`evaluation`): what it counts, how it weighs it, and its bounds."""

from __future__ import annotations

import random

import pytest

from cardgames.engine.unity import GAME
from cardgames.engine.unity.evaluation import FEATURES, WEIGHTS, estimate, features, score

from .unity_tables import cid, new


def test_features_count_the_hand_by_kind():
    s = new([["Unity", "Moses", "Sandals of Peace", "Beelzebub", "Passover", "Trinity"],
              ["Idol", "Pride", "Greed", "Noah", "Elijah", "Peter"]])
    ann = dict(zip(FEATURES, features(s, 0), strict=True))
    assert (ann["unity"], ann["human"], ann["righteous_object"], ann["evil"], ann["festival"], ann["answer"]) == (
        1, 1, 1, 1, 1, 1)
    assert ann["free_turn"] == 1  # seat 0 has the first free turn
    ben = dict(zip(FEATURES, features(s, 1), strict=True))
    assert (ben["evil"], ben["human"], ben["free_turn"]) == (3, 3, 0)
    assert score(s, 0) == pytest.approx(sum(WEIGHTS[f] * ann[f] for f in FEATURES))


def test_a_unity_card_stands_better_than_an_evil_card_in_its_place():
    """Same hand sizes, one card swapped: a Unity card can end the game alone, an evil card must be shed."""
    base = ["Moses", "Noah", "Beelzebub"]
    rival = ["Solomon", "Josiah", "Legion", "Idol"]
    with_unity = new([[*base, "Unity"], rival])
    with_evil = new([[*base, "Molech"], rival])
    assert estimate(with_unity, 0) > estimate(with_evil, 0)
    assert estimate(with_unity, 1) < estimate(with_evil, 1)


def test_being_attacked_counts_against_the_defender_and_the_attack_points_are_weighed():
    s = new([["Goliath", "Moses", "Noah"], ["Peter", "John", "Andrew"]])
    GAME.apply(s, ("pick", cid(s, 0, "Goliath")), 0)
    GAME.apply(s, ("play",), 0)
    ben = dict(zip(FEATURES, features(s, 1), strict=True))
    assert (ben["attacked"], ben["attack_points"], ben["free_turn"]) == (1, 9, 0)
    assert dict(zip(FEATURES, features(s, 0), strict=True))["attacked"] == 0


def test_picked_cards_count_for_the_seat_building_the_play_only():
    s = new([["Moses", "Noah", "Elijah"], ["Peter", "John", "Andrew"]])
    GAME.apply(s, ("pick", cid(s, 0, "Moses")), 0)
    assert dict(zip(FEATURES, features(s, 0), strict=True))["picked"] == 1
    assert dict(zip(FEATURES, features(s, 1), strict=True))["picked"] == 0


@pytest.mark.parametrize("seed", range(4))
def test_the_estimate_is_zero_sum_between_two_and_bounded_before_the_end(seed):
    rng = random.Random(seed)
    s = GAME.new_game({}, ["Ann", "Ben"], seed=seed)
    seen = 0
    while not GAME.is_over(s):
        a, b = estimate(s, 0), estimate(s, 1)
        assert -0.9 <= a <= 0.9
        assert a == pytest.approx(-b)
        seen += 1
        (seat,) = GAME.to_move(s)
        GAME.apply(s, rng.choice(GAME.legal_actions(s, seat)), seat)
    assert seen > 10
    assert GAME.heuristic(s, s.winner) == 1.0
