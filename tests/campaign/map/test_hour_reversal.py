"""Reversing a processed hour (#15): moves, arrivals, captures and the Battles due of that hour go back exactly,
the clock is back at the hour before and advancing processes the hour again; most recent first."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from battles import services as battle_services
from battles.models import Battle
from campaign.campaigns.reversals import reversible_latest, reversible_reverse
from campaign.map import clock, hour, orders
from campaign.map import services as map_services
from campaign.models import ArmyDayActivity, AuditEntry, DueBattle, HourLog, MoveOrder, Reversible
from tests.campaign.map_fixtures import make_army, make_map, ready
from tests.helpers import campaign_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def board(campaign, event):
    ready(event)
    return make_map(campaign)


@pytest.fixture
def busy(board, event):
    """An army marching into an enemy (a Battle comes due at hour 2), another capturing a town, a third arriving."""
    a = make_army(board, at=(2, 10), name="Red")
    make_army(board, at=(8, 10), name="Blue")
    orders.army_order_move(army=a, kind=MoveOrder.Kind.POINT, x=30, y=10, actor=None)
    town = map_services.location_create(tactical_map=board, name="Ford", size="town", x=20, y=30, actor=None)
    capturer = make_army(board, at=(20, 30), units=3, strength=3, name="Green")
    orders.army_order_move(army=capturer, kind=MoveOrder.Kind.CAPTURE, location=town, actor=None)
    walker = make_army(board, at=(40, 2), name="Grey")
    orders.army_order_move(army=walker, kind=MoveOrder.Kind.POINT, x=44, y=2, actor=None)
    return town


def process(event):
    event.refresh_from_db()
    return hour.event_hour_process(event=event, hour=event.current_hour + 1)


def hour_record(event, number) -> Reversible:
    log = HourLog.objects.get(event=event, hour=number, reversed=False)
    record = reversible_latest(kind=Reversible.Kind.HOUR, target_id=log.pk)
    assert record is not None
    return record


def test_an_hour_is_reversed_exactly_and_processed_again_alike(busy, campaign, event, gm):
    process(event)
    before = campaign_state(campaign)
    first = process(event)
    assert (len(first.battles), len(first.arrived), first.moved) == (1, 1, 2)  # Red and Grey moved, Grey arrived
    after_first = campaign_state(campaign)
    assert after_first != before

    reversible_reverse(record=hour_record(event, 2), actor=gm, reason="Red's order was meant for Blue's flank")

    assert campaign_state(campaign) == before
    event.refresh_from_db()
    assert event.current_hour == 1
    assert DueBattle.objects.get(pk=first.battles[0]).status == DueBattle.Status.CANCELLED  # kept, called off
    assert HourLog.objects.get(event=event, hour=2).reversed  # the log stays
    assert not ArmyDayActivity.objects.filter(reason="fought").exists()
    words = AuditEntry.objects.get(action="clock.reverse")
    assert (words.actor, words.data["hour"], words.data["reason"]) == (gm, 2, "Red's order was meant for Blue's flank")

    again = process(event)
    assert (again.moved, again.arrived, again.captured, len(again.battles)) == (
        first.moved, first.arrived, first.captured, 1)
    assert campaign_state(campaign)["armies"] == after_first["armies"]
    assert campaign_state(campaign)["locations"] == after_first["locations"]


def test_hours_are_reversed_most_recent_first(busy, campaign, event, gm):
    before = campaign_state(campaign)
    process(event)
    process(event)
    with pytest.raises(ValidationError, match=f"reverse them first, most recent first: hour 2 of {event.name}"):
        reversible_reverse(record=hour_record(event, 1), actor=gm, reason="wrong start")
    reversible_reverse(record=hour_record(event, 2), actor=gm, reason="wrong start")
    reversible_reverse(record=hour_record(event, 1), actor=gm, reason="wrong start")
    assert campaign_state(campaign) == before


def test_a_running_clock_is_paused_first(busy, event, gm):
    process(event)
    clock.event_clock_start(event=event, actor=gm)
    with pytest.raises(ValidationError, match="clock is running: pause it first"):
        reversible_reverse(record=hour_record(event, 1), actor=gm, reason="too soon")
    clock.event_clock_pause(event=event, actor=gm)
    reversible_reverse(record=hour_record(event, 1), actor=gm, reason="too soon")


def test_a_battle_fought_for_a_battle_due_of_the_hour_blocks_it(busy, event, gm):
    process(event)
    due = DueBattle.objects.get(pk=process(event).battles[0])
    battle = battle_services.battle_start(attacker_army=due.first, defender_army=due.second, due_battle=due,
                                          mode=Battle.Mode.LOGGED, actor=gm)
    with pytest.raises(ValidationError, match=f"Battle #{battle.pk}, .* is being fought for a Battle that came due "
                                              f"in hour 2 of {event.name}: cancel it"):
        reversible_reverse(record=hour_record(event, 2), actor=gm, reason="wrong")
    battle_services.battle_cancel(battle=battle, actor=gm)
    reversible_reverse(record=hour_record(event, 2), actor=gm, reason="wrong")


def test_a_new_order_since_is_named_instead_of_overwritten(board, event, gm):
    walker = make_army(board, at=(40, 2))
    orders.army_order_move(army=walker, kind=MoveOrder.Kind.POINT, x=42, y=2, actor=None)
    assert process(event).arrived == [walker.pk]
    orders.army_order_move(army=walker, kind=MoveOrder.Kind.POINT, x=30, y=2, actor=None)
    with pytest.raises(ValidationError, match=r"stands in the way of restoring it \(a new order"):
        reversible_reverse(record=hour_record(event, 1), actor=gm, reason="wrong")
    assert MoveOrder.objects.filter(army=walker, status=MoveOrder.Status.ACTIVE).count() == 1


def test_the_clock_page_reverses_the_last_hour_and_the_review_page_reopens_the_day(client, busy, campaign, event,
                                                                                   gm):
    from django.urls import reverse

    from campaign.economy import upkeep
    from campaign.models import Day

    process(event)
    client.force_login(gm)
    console = reverse("clock", args=[campaign.slug])
    page = client.get(console).content.decode()
    assert "Reverse the last hour" in page
    record = hour_record(event, 1)
    action = reverse("reversal-reverse", args=[campaign.slug, record.pk])
    client.post(action, {"reason": "wrong orders", "confirm": "1", "next": console})
    event.refresh_from_db()
    assert event.current_hour == 0
    assert "(reversed)" in client.get(console).content.decode()

    day = Day.objects.get(event=event, status=Day.Status.OPEN)
    upkeep.day_close(day=day, actor=gm)
    review = reverse("day-close-review", args=[campaign.slug, day.pk])
    assert 'data-testid="review-closed-day"' in client.get(console).content.decode()
    assert "Reopen this Day" in client.get(review).content.decode()
    day_record = reversible_latest(kind=Reversible.Kind.DAY, target_id=day.pk)
    client.post(reverse("reversal-reverse", args=[campaign.slug, day_record.pk]),
                {"reason": "closed too soon", "confirm": "1", "next": review})
    day.refresh_from_db()
    assert day.status == Day.Status.OPEN
    assert f"{day} was reopened by gm1" in client.get(review).content.decode()
