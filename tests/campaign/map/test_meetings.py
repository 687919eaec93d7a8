"""#12.1 Armies that cross do meet: "when an army reaches ... an enemy army, a Battle is due", at any moment of
the hour (moving against moving, moving against standing, several at once), not only where they stand when
the hour ends."""

from __future__ import annotations

import math

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.map import hour, orders
from campaign.map.meetings import first_contact, meetings, position_at
from campaign.models import DueBattle, MoveOrder
from tests.campaign.map_fixtures import make_army, make_map, ready


def line(start, end, until=1.0):
    return ((0.0, start), (until, end))


def standing(at):
    return ((0.0, at),)


def enemies(a, b):
    return True


# --- the pure part ---------------------------------------------------------------------------------------

def test_two_armies_crossing_head_on_meet_halfway_less_the_contact_distance():
    t = first_contact(line((0, 0), (6, 0)), line((6, 0), (0, 0)), 1.0)
    assert t == pytest.approx((6 - 1) / 12, abs=1e-5)  # closing at 12 inches an hour, 5 inches to close


def test_an_army_passing_a_standing_enemy_meets_it_on_the_way():
    t = first_contact(line((0, 0), (10, 0)), standing((5, 0.5)), 1.0)
    assert position_at(line((0, 0), (10, 0)), t)[0] == pytest.approx(5 - math.sqrt(1 - 0.25), abs=1e-5)


def test_armies_on_parallel_roads_two_inches_apart_never_meet():
    assert first_contact(line((0, 0), (6, 0)), line((6, 2), (0, 2)), 1.0) is None


def test_an_army_that_stopped_is_met_where_it_stands_by_a_later_one():
    """A and B meet head on and stop; C, following A's road four inches behind, would never have reached A
    on the move, but reaches it where it stopped (before it could reach B)."""
    timelines = {1: line((0, 0), (6, 0)), 2: line((3, 0), (-3, 0)), 3: line((-4, 0), (2, 0))}
    stops = meetings(timelines, moving={1, 2, 3}, contact=1.0, may_meet=enemies)
    assert stops[1] == stops[2] == pytest.approx(1 / 6, abs=1e-5)
    assert stops[3] == pytest.approx(2 / 3, abs=1e-5)
    assert math.dist(position_at(timelines[3], stops[3]), position_at(timelines[1], stops[1])) <= 1.0


def test_allies_pass_through_each_other():
    stops = meetings({1: line((0, 0), (6, 0)), 2: line((6, 0), (0, 0))}, moving={1, 2}, contact=1.0,
                     may_meet=lambda a, b: False)
    assert stops == {}


# --- in the hour tick ---------------------------------------------------------------------------------------

@pytest.fixture
def board(campaign, event):
    ready(event)
    return make_map(campaign)


def process(event):
    event.refresh_from_db()
    return hour.event_hour_process(event=event, hour=event.current_hour + 1)


@pytest.mark.django_db
def test_enemies_ordered_to_swap_places_meet_on_the_way_and_a_battle_is_due(board, event):
    west, east = make_army(board, at=(10, 10)), make_army(board, at=(14, 10))
    for army, x in ((west, 14), (east, 10)):
        orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=x, y=10, actor=None)
    result = process(event)
    assert len(result.battles) == 1
    battle = DueBattle.objects.get()
    assert {battle.first_id, battle.second_id} == {west.pk, east.pk}
    west.refresh_from_db()
    east.refresh_from_db()
    assert west.x == pytest.approx(11.5, abs=1e-3)
    assert east.x == pytest.approx(12.5, abs=1e-3)
    assert MoveOrder.objects.get(army=west).status == MoveOrder.Status.ACTIVE  # held, not arrived


@pytest.mark.django_db
def test_an_army_marching_through_a_standing_enemy_stops_at_it(board, event):
    marcher = make_army(board, at=(2, 10))
    make_army(board, at=(4, 10))
    orders.army_order_move(army=marcher, kind=MoveOrder.Kind.POINT, x=8, y=10, actor=None)
    assert len(process(event).battles) == 1
    marcher.refresh_from_db()
    assert marcher.x == pytest.approx(3.0, abs=1e-3)


@pytest.mark.django_db
def test_armies_of_one_commander_pass_each_other(board, event):
    west = make_army(board, at=(10, 10))
    east = make_army(board, commander=west.commander, at=(14, 10))
    for army, x in ((west, 14), (east, 10)):
        orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=x, y=10, actor=None)
    assert process(event).battles == []
    west.refresh_from_db()
    assert west.x == pytest.approx(13.0)


@pytest.mark.django_db
def test_meetings_keep_the_hours_query_count_constant(board, event):
    def hour_queries(n, top):
        for i in range(n):
            a = make_army(board, at=(2, top + i * 3), units=1)
            b = make_army(board, at=(8, top + i * 3), units=1)
            orders.army_order_move(army=a, kind=MoveOrder.Kind.POINT, x=8, y=a.y, actor=None)
            orders.army_order_move(army=b, kind=MoveOrder.Kind.POINT, x=2, y=b.y, actor=None)
        event.refresh_from_db()
        with CaptureQueriesContext(connection) as ctx:
            hour.event_hour_process(event=event, hour=event.current_hour + 1)
        return len(ctx.captured_queries)

    assert hour_queries(2, 1) == hour_queries(6, 8)
    assert DueBattle.objects.count() == 8
