"""The tactical map's pure rules, with the rules' own numbers (no database)."""

import math

import pytest

from campaign.map.rules import (
    ArmyOnMap,
    CaptureProgress,
    DueBattle,
    LocationOnMap,
    MapRuleError,
    MapUnit,
    army_capture_strength,
    army_speed,
    battles_due,
    capture_threshold,
    cooled_down,
    ignores_difficult_terrain,
    miniature_count,
    pair_key,
    retreat_position,
    terrain_speed,
)

PLAIN = MapUnit(strength=2)
SLOW = MapUnit(strength=2, traits=frozenset({"Slow"}))
FAST = MapUnit(strength=2, traits=frozenset({"Fast"}))
FLY = MapUnit(strength=3, traits=frozenset({"Fly"}))
BURROW = MapUnit(strength=2, traits=frozenset({"Burrow"}))
RITUAL = MapUnit(strength=None, is_ritual=True)
FAST_RITUAL = MapUnit(strength=None, traits=frozenset({"Fast", "Fly"}), is_ritual=True)


def test_an_army_moves_three_inches_per_move():
    assert army_speed([PLAIN, PLAIN]) == 3


def test_any_slow_unit_takes_one_inch_off():
    assert army_speed([PLAIN, PLAIN, PLAIN, SLOW]) == 2


@pytest.mark.parametrize(("units", "speed"), [
    ([FAST, PLAIN], 4),
    ([FAST, FAST, PLAIN], 4),
    ([FAST, PLAIN, PLAIN], 3),
    ([FAST, SLOW], 3),
])
def test_an_army_at_least_half_fast_gains_an_inch(units, speed):
    assert army_speed(units) == speed


def test_rituals_do_not_count_towards_speed():
    assert army_speed([FAST, PLAIN, FAST_RITUAL, RITUAL]) == 4
    assert army_speed([PLAIN, PLAIN, FAST_RITUAL]) == 3


def test_an_army_of_no_units_moves_at_the_base_speed():
    assert army_speed([]) == 3
    assert army_speed([RITUAL]) == 3


@pytest.mark.parametrize(("speed", "slowdown", "inside"), [(3, 1, 2), (4, 1, 3), (2, 1, 1), (2, 2, 0.5), (1, 3, 0.5)])
def test_terrain_never_slows_an_army_below_half_an_inch(speed, slowdown, inside):
    assert terrain_speed(speed, slowdown) == inside


@pytest.mark.parametrize(("units", "ignores"), [
    ([FLY, PLAIN], True),
    ([BURROW, PLAIN], True),
    ([FLY, BURROW, PLAIN, PLAIN], True),
    ([FLY, PLAIN, PLAIN], False),
    ([PLAIN, PLAIN, FAST_RITUAL], False),
    ([], False),
])
def test_at_least_half_flying_or_burrowing_ignores_difficult_terrain(units, ignores):
    assert ignores_difficult_terrain(units) is ignores


@pytest.mark.parametrize(("count", "miniatures"), [
    (0, 0), (1, 1), (4, 1), (5, 2), (8, 2), (9, 3), (10, 3), (11, 3), (12, 3), (13, 4),
])
def test_one_miniature_per_four_units_rounding_up(count, miniatures):
    assert miniature_count([PLAIN] * count) == miniatures


def test_rituals_are_not_counted_for_miniatures():
    assert miniature_count([PLAIN] * 12 + [RITUAL, RITUAL]) == 3


@pytest.mark.parametrize(("size", "threshold"), [("camp", 3), ("town", 15), ("city", 60)])
def test_capture_thresholds(size, threshold):
    assert capture_threshold(size) == threshold


def test_an_unknown_location_size_is_refused_with_the_sizes_named():
    with pytest.raises(MapRuleError, match="camp, town, city"):
        capture_threshold("castle")


def test_capturing_strength_is_the_summed_strength_without_rituals_or_dashes():
    assert army_capture_strength([PLAIN, FLY, MapUnit(strength=None), MapUnit(strength=0), RITUAL]) == 5


def test_a_camp_falls_to_one_move_of_strength_three():
    progress = CaptureProgress(capture_threshold("camp")).after_move(3)
    assert progress.captured


def test_a_town_takes_four_moves_of_strength_four():
    progress = CaptureProgress(capture_threshold("town"))
    totals = []
    while not progress.captured:
        progress = progress.after_move(4)
        totals.append(progress.progress)
    assert totals == [4, 8, 12, 16]
    assert progress.remaining == 0


def test_a_city_needs_sixty():
    progress = CaptureProgress(capture_threshold("city"), progress=59)
    assert not progress.captured
    assert progress.remaining == 1
    assert progress.after_move(1).captured


def test_a_battle_at_the_location_restarts_the_capture():
    progress = CaptureProgress(15).after_move(6).after_move(6)
    restarted = progress.after_battle()
    assert restarted.progress == 0
    assert restarted.threshold == 15


def test_a_finished_capture_stands_and_needs_no_more_moves():
    captured = CaptureProgress(3).after_move(5)
    assert captured.after_battle() == captured
    with pytest.raises(MapRuleError, match="already captured"):
        captured.after_move(2)


def test_a_capture_threshold_is_at_least_one():
    with pytest.raises(MapRuleError):
        CaptureProgress(0)


@pytest.mark.parametrize(("speed", "routed", "distance"), [(3, False, 3), (3, True, 6), (2, False, 2), (4, True, 8)])
def test_the_loser_retreats_one_move_or_two_if_routed(speed, routed, distance):
    position = retreat_position(loser=(50, 40), winner=(47, 36), speed=speed, routed=routed, width=120, height=80)
    assert math.dist(position, (50, 40)) == pytest.approx(distance)
    # Directly away: the winner, the loser and the new position are in a line, in that order.
    assert position[0] - 50 == pytest.approx(distance * 0.6)
    assert position[1] - 40 == pytest.approx(distance * 0.8)


def test_a_retreat_stops_at_the_edge_of_the_map():
    assert retreat_position(loser=(1, 40), winner=(5, 40), speed=3, routed=True, width=120, height=80) == (0, 40)


def test_armies_on_one_point_retreat_towards_the_centre_or_else_east():
    towards_centre = retreat_position(loser=(10, 40), winner=(10, 40), speed=3, routed=False, width=120, height=80)
    assert towards_centre == pytest.approx((13, 40))
    at_centre = retreat_position(loser=(60, 40), winner=(60, 40), speed=3, routed=False, width=120, height=80)
    assert at_centre == pytest.approx((63, 40))


def test_a_battle_is_due_when_enemy_armies_meet():
    armies = [ArmyOnMap(1, "red", (10, 10)), ArmyOnMap(2, "blue", (10.5, 10.5)), ArmyOnMap(3, "blue", (30, 30))]
    assert battles_due(armies=armies, hour=4, last_fought={}) == [DueBattle(1, 2)]


def test_friendly_armies_never_fight():
    armies = [ArmyOnMap(1, "red", (10, 10)), ArmyOnMap(2, "red", (10, 10))]
    assert battles_due(armies=armies, hour=4, last_fought={}) == []


def test_the_contact_distance_is_a_setting():
    armies = [ArmyOnMap(1, "red", (10, 10)), ArmyOnMap(2, "blue", (12, 10))]
    assert battles_due(armies=armies, hour=4, last_fought={}) == []
    assert battles_due(armies=armies, hour=4, last_fought={}, contact_distance=2) == [DueBattle(1, 2)]


def test_the_same_armies_cannot_fight_again_within_an_hour():
    armies = [ArmyOnMap(1, "red", (10, 10)), ArmyOnMap(2, "blue", (10, 10))]
    last = {pair_key(2, 1): 5}
    assert battles_due(armies=armies, hour=5, last_fought=last) == []
    assert battles_due(armies=armies, hour=6, last_fought=last) == [DueBattle(1, 2)]
    assert cooled_down(None, 0)


def test_reaching_a_defended_enemy_location_brings_on_a_battle_with_its_defender():
    armies = [ArmyOnMap("garrison", "blue", (40, 40)), ArmyOnMap("raiders", "red", (40.8, 40))]
    town = LocationOnMap("Millford", (40, 40), defender="garrison")
    assert battles_due(armies=armies, locations=[town], hour=1, last_fought={}) == [
        DueBattle("raiders", "garrison", "Millford")
    ]


def test_an_undefended_location_is_captured_not_fought_for():
    armies = [ArmyOnMap("raiders", "red", (40, 40))]
    camp = LocationOnMap("Camp", (40, 40))
    assert battles_due(armies=armies, locations=[camp], hour=1, last_fought={}) == []


def test_a_defender_missing_from_the_map_is_refused():
    with pytest.raises(MapRuleError, match="place it first"):
        battles_due(armies=[], locations=[LocationOnMap("Camp", (1, 1), defender=9)], hour=1, last_fought={})
