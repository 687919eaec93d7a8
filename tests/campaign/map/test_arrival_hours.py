"""#12.2 Arrival hours that hold: an order shows the hour it arrives, and arrives then unless something
interferes; when the army's make-up or the terrain changes, the shown hour is worked out again at once."""

from __future__ import annotations

import json

import pytest

from campaign.map import armies, hour, orders
from campaign.map import services as map_services
from campaign.models import HourLog, MoveOrder, Unit
from tests.campaign.factories import CommanderFactory, UnitFactory, UnitTypeFactory
from tests.campaign.map_fixtures import make_army, make_map, ready

pytestmark = pytest.mark.django_db


@pytest.fixture
def board(campaign, event):
    ready(event)
    return make_map(campaign)


def play_until_done(event, order, limit=30) -> int:
    """Process hours until the order is no longer under way; the hour it ended."""
    for _ in range(limit):
        event.refresh_from_db()
        hour.event_hour_process(event=event, hour=event.current_hour + 1)
        order.refresh_from_db()
        if order.status != MoveOrder.Status.ACTIVE:
            return order.done_hour
    raise AssertionError("the order never ended")


def test_an_order_through_difficult_terrain_arrives_at_the_hour_it_showed(board, event):
    map_services.terrain_region_create(tactical_map=board, name="Forest", kind="difficult",
                                       points=[[8, 0], [20, 0], [20, 12], [8, 12]], actor=None)
    army = make_army(board, at=(2, 5))
    order = orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=30, y=5, actor=None)
    promised = order.arrival_hour
    assert play_until_done(event, order) == promised
    assert order.status == MoveOrder.Status.ARRIVED


def test_a_slow_unit_leaving_the_army_brings_the_arrival_forward_at_once(board, event):
    """A Slow unit sets its army's pace at 2 inches a Move; once it goes back to reserve the army marches at 3,
    and the order says so before the next hour."""
    army = make_army(board, at=(2, 5), units=3)
    slow = UnitFactory(commander=army.commander, unit_type=UnitTypeFactory(strength=2, traits=["Slow"]), army=army)
    order = orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=26, y=5, actor=None)
    assert order.arrival_hour == 12  # 24 inches at 2 a Move
    armies.army_assign_unit(unit=slow, army=None, actor=None)
    order.refresh_from_db()
    assert order.arrival_hour == 8  # 24 inches at 3 a Move
    assert play_until_done(event, order) == 8


def test_a_slow_unit_joining_mid_march_puts_the_arrival_back(board, event):
    army = make_army(board, at=(2, 5), units=3)
    order = orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=26, y=5, actor=None)
    assert order.arrival_hour == 8
    event.refresh_from_db()
    hour.event_hour_process(event=event, hour=1)  # 3 inches done, 21 to go
    slow = UnitFactory(commander=army.commander, unit_type=UnitTypeFactory(strength=2, traits=["Slow"]),
                       army=None, state=Unit.State.RESERVE)
    armies.army_assign_unit(unit=slow, army=army, actor=None)
    order.refresh_from_db()
    assert order.arrival_hour == 1 + 11  # 21 inches at 2 a Move: 11 more Moves
    assert play_until_done(event, order) == 12


def test_terrain_painted_across_a_march_puts_its_arrival_back_and_the_hour_log_says_so(board, event):
    army = make_army(board, at=(2, 5))
    order = orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=32, y=5, actor=None)
    assert order.arrival_hour == 10
    map_services.terrain_region_create(tactical_map=board, name="Marsh", kind="difficult",
                                       points=[[10, 0], [30, 0], [30, 12], [10, 12]], actor=None)
    order.refresh_from_db()
    later = order.arrival_hour
    assert later > 10
    assert play_until_done(event, order) == later


def test_the_hour_tick_logs_a_changed_estimate(board, event):
    """A change the services did not see (here: a unit Killed behind their back) is caught by the next Move."""
    army = make_army(board, at=(2, 5), units=3)
    slow = UnitFactory(commander=army.commander, unit_type=UnitTypeFactory(strength=2, traits=["Slow"]), army=army)
    order = orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=26, y=5, actor=None)
    Unit.objects.filter(pk=slow.pk).update(state=Unit.State.KILLED, army=None)
    event.refresh_from_db()
    hour.event_hour_process(event=event, hour=1)
    order.refresh_from_db()
    assert order.arrival_hour == 8
    logged = [e for e in HourLog.objects.get(event=event, hour=1).entries if e["kind"] == "estimate"]
    assert logged == [{"kind": "estimate", "army": army.pk, "name": army.name, "was": 12, "now": 8}]


def test_the_orders_list_names_each_destination_and_never_a_hidden_army(client, board, event, player, gm):
    mine = make_army(board, commander=CommanderFactory(campaign=board.campaign, player=player), at=(2, 5),
                     name="Ford Guard")
    scouts = make_army(board, commander=mine.commander, at=(2, 20), name="Scouts")
    hidden = make_army(board, at=(40, 30), name="Shadow Host")
    camp = map_services.location_create(tactical_map=board, name="Palm Camp", size="camp", x=20, y=5, actor=None)
    orders.army_order_move(army=mine, kind=MoveOrder.Kind.LOCATION, location=camp, actor=None)
    orders.army_order_move(army=scouts, kind=MoveOrder.Kind.ARMY, target_army=hidden, actor=None)
    url = f"/c/{board.campaign.slug}/map/data/"
    client.force_login(player)
    body = client.get(url).content.decode()
    listed = {a["n"]: (a["k"], a["to"]) for a in json.loads(body)["map"]["armies"]}
    assert listed == {"Ford Guard": ("location", "Palm Camp"), "Scouts": ("army", "an enemy army")}
    assert "Shadow Host" not in body
    client.force_login(gm)
    assert {a["n"]: a.get("to") for a in client.get(url).json()["map"]["armies"]}["Scouts"] == "Shadow Host"
