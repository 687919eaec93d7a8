"""Before a Day is closed the GM sees what closing will do and what is still unsettled: Battles due and not
fought, Battles whose result is not applied, each commander's upkeep (the figures that will be posted), the
arrears closing will create, and who has not pledged Morale. Closing is a deliberate second step; a retry
charges nothing twice; every Base's bonus comes back however the Day is closed."""

from __future__ import annotations

import pytest

from campaign.economy import ledger
from campaign.map import services as map_services
from campaign.models import Base, DueBattle
from tests.campaign.factories import (
    ArmyDayActivityFactory,
    ArmyFactory,
    CommanderFactory,
    UnitFactory,
    UnitTypeFactory,
)
from tests.campaign.map_fixtures import make_map
from tests.helpers import api_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def led(campaign, day):
    """Rich leads Strength 4 (20 lunari due, 100 in the purse); Poor leads Strength 4 with 5 lunari."""
    commanders = {}
    for name, lunari in (("Rich", 100), ("Poor", 5)):
        commander = CommanderFactory(campaign=campaign, name=name, lunari=lunari)
        army = ArmyFactory(commander=commander)
        UnitFactory(commander=commander, army=army, unit_type=UnitTypeFactory(strength=4))
        ArmyDayActivityFactory(army=army, day=day)
        commanders[name] = commander
    return commanders


def test_the_review_lists_what_is_unsettled_and_what_will_be_charged(client, gm, day, led, event):
    DueBattle.objects.create(event=event, hour=3, first=led["Rich"].armies.get(), second=led["Poor"].armies.get())
    client.force_login(gm)
    page = client.get(f"/c/river-valley/days/{day.pk}/close/").content.decode()
    assert "Battle due at hour 3" in page
    assert "Poor owes 20 and has 5: 15 lunari will be recorded as arrears." in page
    assert "Rich pledged no Morale against upkeep" in page
    assert "Upkeep to charge: 40 lunari" in page
    assert day.status == "open"  # looking changes nothing
    closed = client.post(f"/c/river-valley/clock/{event.pk}/close-day/", {"day": day.pk}, follow=True)
    assert "Day 1 is closed: 2 upkeep bills posted (25 lunari paid), 1 commander in arrears." in (
        closed.content.decode())
    assert ledger.ledger_purse_balance(commander=led["Rich"]) == 80  # the figure the review showed


def test_a_player_cannot_open_the_review(client, player, day):
    client.force_login(player)
    assert client.get(f"/c/river-valley/days/{day.pk}/close/").status_code == 403


def test_every_base_is_refreshed_however_the_day_is_closed(gm, campaign, day):
    base = map_services.base_create(tactical_map=make_map(campaign), name="Keep", x=5, y=5, morale_bonus=2,
                                    actor=None)
    map_services.base_bonus_spend(base=base, day=day, actor=None)
    response = api_for(gm).post(f"/api/upkeep-days/{day.pk}/close/", format="json")
    assert response.status_code == 200, response.content
    assert Base.objects.get(pk=base.pk).spent_on is None


def test_a_retried_advance_moves_nothing_twice(client, gm, event):
    client.force_login(gm)
    first = client.post(f"/c/river-valley/clock/{event.pk}/advance/", {"to_hour": 1}, follow=True)
    assert "Hour 1 is done" in first.content.decode()
    retried = client.post(f"/c/river-valley/clock/{event.pk}/advance/", {"to_hour": 1}, follow=True)
    assert "Hour 1 is done already: nothing moved twice." in retried.content.decode()
    event.refresh_from_db()
    assert event.current_hour == 1
    api = api_for(gm)
    assert api.post(f"/api/event-clocks/{event.pk}/advance/", {"to_hour": 2}, format="json").json()["hour"] == 2
    assert api.post(f"/api/event-clocks/{event.pk}/advance/", {"to_hour": 2}, format="json").json()["hour"] == 2
