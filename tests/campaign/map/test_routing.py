"""Routes on the tactical map: the rules' numbers, terrain, refusals and properties (pure; no database)."""

import math
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from campaign.map.routing import advance, path_hours, plan_route, stop_before_impassable
from campaign.map.terrain import TacticalMap, TerrainKind, TerrainRegion


def box(name, kind, x0, y0, x1, y1, penalty=0.0):
    return TerrainRegion(name, kind, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), penalty)


LAKE = box("Lake", TerrainKind.IMPASSABLE, 10, 10, 20, 20)
OPEN_FIELD = TacticalMap(40, 30)


def test_six_inches_of_open_ground_is_two_hours():
    route = plan_route(OPEN_FIELD, (5, 15), (11, 15), speed=3)
    assert route.hours == pytest.approx(2)
    assert route.arrival_hour == 2
    assert [coordinate for point in route.waypoints for coordinate in point] == pytest.approx([8, 15, 11, 15])


def test_the_last_move_may_be_short():
    route = plan_route(OPEN_FIELD, (5, 15), (12, 15), speed=3)
    assert route.arrival_hour == 3
    assert route.waypoints[-1] == (12, 15)


@pytest.mark.parametrize(("speed", "hours"), [(2, 3), (4, 2)])
def test_slow_and_fast_armies(speed, hours):
    assert plan_route(OPEN_FIELD, (5, 15), (11, 15), speed=speed).arrival_hour == hours


def test_a_route_to_where_the_army_stands_takes_no_moves():
    route = plan_route(OPEN_FIELD, (5, 15), (5, 15), speed=3)
    assert (route.hours, route.arrival_hour, route.path) == (0, 0, ((5, 15),))


def test_difficult_terrain_takes_an_inch_off_while_inside():
    strip = TacticalMap(40, 30, (box("Forest", TerrainKind.DIFFICULT, 10, 0, 16, 30),))
    route = plan_route(strip, (4, 15), (22, 15), speed=3)
    # 12 inches of open ground at 3, 6 inches of forest at 2.
    assert route.hours == pytest.approx(12 / 3 + 6 / 2)
    assert route.arrival_hour == 7
    assert route.waypoints[1] == pytest.approx((10, 15))
    assert route.waypoints[2] == pytest.approx((12, 15))


def test_flying_or_burrowing_armies_ignore_difficult_terrain():
    strip = TacticalMap(40, 30, (box("Forest", TerrainKind.DIFFICULT, 10, 0, 16, 30),))
    route = plan_route(strip, (4, 15), (22, 15), speed=3, ignores_difficult=True)
    assert route.hours == pytest.approx(6)


def test_a_fast_army_keeps_its_inch_in_the_forest():
    strip = TacticalMap(40, 30, (box("Forest", TerrainKind.DIFFICULT, 10, 0, 16, 30),))
    assert plan_route(strip, (4, 15), (22, 15), speed=4).hours == pytest.approx(12 / 4 + 6 / 3)


def test_especially_challenging_terrain_costs_its_own_penalty_even_for_flyers():
    ridge = TacticalMap(40, 30, (box("Mountains", TerrainKind.CHALLENGING, 10, 0, 12, 30, penalty=2),))
    assert plan_route(ridge, (4, 15), (16, 15), speed=3).hours == pytest.approx(10 / 3 + 2 / 1)
    assert plan_route(ridge, (4, 15), (16, 15), speed=3, ignores_difficult=True).hours == pytest.approx(10 / 3 + 2)


def test_no_terrain_slows_an_army_below_half_an_inch_per_move():
    ridge = TacticalMap(40, 30, (box("Peaks", TerrainKind.CHALLENGING, 10, 0, 11, 30, penalty=5),))
    assert plan_route(ridge, (8, 15), (13, 15), speed=2).hours == pytest.approx(2 / 2 + 1 / 0.5 + 2 / 2)


def test_overlapping_regions_slow_by_the_worst_of_them():
    both = TacticalMap(40, 30, (
        box("Forest", TerrainKind.DIFFICULT, 10, 0, 20, 30),
        box("Mountains", TerrainKind.CHALLENGING, 14, 0, 16, 30, penalty=2),
    ))
    assert plan_route(both, (4, 15), (26, 15), speed=4).hours == pytest.approx(12 / 4 + 8 / 3 + 2 / 2)


def test_open_regions_only_name_ground():
    plain = TacticalMap(40, 30, (box("Meadow", TerrainKind.OPEN, 0, 0, 40, 30),))
    assert plan_route(plain, (5, 15), (11, 15), speed=3).hours == pytest.approx(2)


def test_the_route_goes_around_an_impassable_lake():
    lake_map = TacticalMap(40, 30, (LAKE,))
    route = plan_route(lake_map, (5, 15), (25, 15), speed=3)
    around = (2 * math.hypot(5, 5) + 10) / 3
    assert around <= route.hours <= around * 1.01
    assert all(lake_map.impassable_at(p) is None for p in _samples(route.path))
    assert route.arrival_hour == math.ceil(route.hours)


def test_through_difficult_terrain_when_that_is_quicker():
    wood = TacticalMap(40, 30, (box("Wood", TerrainKind.DIFFICULT, 10, 2, 12, 28),))
    route = plan_route(wood, (5, 15), (25, 15), speed=3)
    assert route.path == ((5, 15), (25, 15))
    assert route.hours == pytest.approx(18 / 3 + 2 / 2)


def test_around_difficult_terrain_when_that_is_quicker():
    wood = TacticalMap(40, 30, (box("Wood", TerrainKind.DIFFICULT, 10, 12, 20, 18),))
    route = plan_route(wood, (5, 15), (25, 15), speed=2)
    through = 10 / 2 + 10 / 1
    around = (2 * math.hypot(5, 3) + 10) / 2
    assert len(route.path) > 2
    assert around <= route.hours <= around * 1.01 < through


def test_a_destination_in_impassable_terrain_is_refused():
    with pytest.raises(ValueError) as refused:
        plan_route(TacticalMap(40, 30, (LAKE,)), (5, 15), (15, 15), speed=3)
    assert str(refused.value) == "That point is inside impassable terrain (Lake): choose a point outside it."


def test_a_start_in_impassable_terrain_is_refused():
    with pytest.raises(ValueError, match=r"stands inside impassable terrain \(Lake\)"):
        plan_route(TacticalMap(40, 30, (LAKE,)), (15, 15), (5, 15), speed=3)


def test_a_point_off_the_map_is_refused():
    with pytest.raises(ValueError, match=r"off the map \(40 x 30 inches\)"):
        plan_route(OPEN_FIELD, (5, 15), (45, 15), speed=3)


def test_a_destination_walled_in_by_impassable_terrain_is_refused():
    walls = TacticalMap(40, 30, (
        box("North cliff", TerrainKind.IMPASSABLE, 10, 20, 30, 22),
        box("South cliff", TerrainKind.IMPASSABLE, 10, 8, 30, 10),
        box("West cliff", TerrainKind.IMPASSABLE, 10, 8, 12, 22),
        box("East cliff", TerrainKind.IMPASSABLE, 28, 8, 30, 22),
    ))
    with pytest.raises(ValueError, match="No route reaches that point"):
        plan_route(walls, (5, 15), (20, 15), speed=3)


def test_a_speed_below_half_an_inch_is_refused():
    with pytest.raises(ValueError, match=r"at least 0\.5"):
        plan_route(OPEN_FIELD, (5, 15), (6, 15), speed=0.25)


def test_especially_challenging_terrain_needs_a_penalty():
    with pytest.raises(ValueError, match="needs a penalty"):
        box("Mountains", TerrainKind.CHALLENGING, 0, 0, 1, 1)


def test_advancing_along_a_stored_route_matches_its_waypoints():
    forest_lake = TacticalMap(40, 30, (LAKE, box("Forest", TerrainKind.DIFFICULT, 0, 0, 40, 8)))
    route = plan_route(forest_lake, (3, 3), (37, 26), speed=3)
    remaining = route.path
    for waypoint in route.waypoints:
        step = advance(remaining, speed=3, tactical_map=forest_lake)
        assert step.position == pytest.approx(waypoint)
        remaining = step.remaining
    assert step.arrived
    two_hours = advance(route.path, speed=3, tactical_map=forest_lake, hours=2)
    assert two_hours.position == pytest.approx(route.waypoints[1])


def test_an_army_halts_at_terrain_that_became_impassable_on_its_path():
    flooded = TacticalMap(40, 30, (LAKE,))
    step = advance(((5, 15), (25, 15)), speed=10, tactical_map=flooded)
    assert step.blocked
    assert not step.arrived
    assert step.position == pytest.approx((10, 15))


def test_a_retreat_halts_at_the_shore():
    lake_map = TacticalMap(40, 30, (LAKE,))
    assert stop_before_impassable(lake_map, (5, 15), (12, 15)) == pytest.approx((9.95, 15))
    assert stop_before_impassable(lake_map, (5, 15), (8, 15)) == (8, 15)


def _samples(path, step=0.02):
    for a, b in pairwise(path):
        count = max(1, math.ceil(math.dist(a, b) / step))
        for k in range(count + 1):
            yield (a[0] + (b[0] - a[0]) * k / count, a[1] + (b[1] - a[1]) * k / count)


def _inside(points, x, y):
    """An independent even-odd test, so the property does not trust the module's own geometry."""
    inside = False
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


@st.composite
def maps(draw):
    """Up to 8 star-shaped regions, each in its own 10-inch cell, so impassable ones never wall off a point."""
    cells = draw(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), unique=True, max_size=8))
    regions = []
    for i, j in cells:
        kind = draw(st.sampled_from(list(TerrainKind)))
        corners = draw(st.integers(3, 7))
        radii = draw(st.lists(st.floats(1.0, 3.9), min_size=corners, max_size=corners))
        turn = draw(st.floats(0, 1))
        centre = (i * 10 + 5, j * 10 + 5)
        points = tuple(
            (centre[0] + r * math.cos(2 * math.pi * (k + turn) / corners),
             centre[1] + r * math.sin(2 * math.pi * (k + turn) / corners))
            for k, r in enumerate(radii)
        )
        penalty = draw(st.sampled_from([1.0, 2.0, 4.0])) if kind is TerrainKind.CHALLENGING else 0.0
        regions.append(TerrainRegion(f"{kind} {i},{j}", kind, points, penalty))
    return TacticalMap(40, 30, tuple(regions))


points = st.tuples(st.floats(0, 40), st.floats(0, 30))
speeds = st.sampled_from([0.5, 1.0, 2.0, 3.0, 4.0])


def _free(tactical_map, point):
    return tactical_map.impassable_at(point) is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps(), points, points, speeds, st.booleans())
def test_a_route_never_enters_impassable_terrain(tactical_map, start, destination, speed, ignores):
    assume(_free(tactical_map, start) and _free(tactical_map, destination))
    route = plan_route(tactical_map, start, destination, speed=speed, ignores_difficult=ignores)
    assert route.path[0] == start
    assert route.path[-1] == destination or (route.hours == 0 and math.dist(start, destination) <= 1e-9)
    lakes = [r.points for r in tactical_map.regions if r.kind is TerrainKind.IMPASSABLE]
    for x, y in _samples(route.path):
        assert -1e-9 <= x <= 40 + 1e-9
        assert -1e-9 <= y <= 30 + 1e-9
        assert not any(_inside(lake, x, y) for lake in lakes)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps(), points, points, speeds, st.booleans())
def test_a_route_is_never_slower_than_a_clear_straight_line(tactical_map, start, destination, speed, ignores):
    assume(_free(tactical_map, start) and _free(tactical_map, destination))
    straight = path_hours(tactical_map, [start, destination], speed=speed, ignores_difficult=ignores)
    assume(straight < math.inf)
    route = plan_route(tactical_map, start, destination, speed=speed, ignores_difficult=ignores)
    assert route.hours <= straight + 1e-9


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps(), points, points, speeds, st.booleans())
def test_hourly_waypoints_advance_along_the_path(tactical_map, start, destination, speed, ignores):
    assume(_free(tactical_map, start) and _free(tactical_map, destination))
    route = plan_route(tactical_map, start, destination, speed=speed, ignores_difficult=ignores)
    assert route.arrival_hour == math.ceil(route.hours - 1e-9)
    if not route.waypoints:
        return
    assert route.waypoints[-1] == destination
    along = [_distance_along(route.path, p) for p in (start, *route.waypoints)]
    for before, after in pairwise(along):
        assert after > before
        assert after - before <= speed + 1e-6
    for before, after in pairwise(along[:-1]):
        assert after - before >= 0.5 - 1e-6


def _distance_along(path, point):
    """How far along the path the point lies (the nearest segment that holds it)."""
    walked = 0.0
    best = None
    for a, b in pairwise(path):
        length = math.dist(a, b)
        if length and abs(math.dist(a, point) + math.dist(point, b) - length) < 1e-6:
            best = walked + math.dist(a, point)
            break
        walked += length
    assert best is not None, "a waypoint left the path"
    return best
