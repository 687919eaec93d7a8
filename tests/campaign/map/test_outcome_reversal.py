"""Reversing an outcome a game master recorded on the clock console (#15): the retreat, orders, capture progress
and the Battle due go back exactly, and the Battle is due again for the right outcome."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.campaigns.reversals import reversible_latest
from campaign.map import hour, orders
from campaign.map import services as map_services
from campaign.models import AuditEntry, DueBattle, Location, MoveOrder, Reversible
from tests.campaign.map_fixtures import make_army, make_map, ready
from tests.helpers import campaign_state

pytestmark = pytest.mark.django_db


def test_an_outcome_recorded_on_the_console_is_reversed_exactly(client, campaign, event, gm):
    ready(event)
    board = make_map(campaign)
    town = map_services.location_create(tactical_map=board, name="Ford", size="town", x=8, y=10, actor=None)
    red = make_army(board, at=(2, 10), name="Red")
    blue = make_army(board, at=(8, 10), name="Blue")
    orders.army_order_move(army=red, kind=MoveOrder.Kind.LOCATION, location=town, actor=None)
    for number in (1, 2):
        hour.event_hour_process(event=event, hour=number)
    due = DueBattle.objects.get(status=DueBattle.Status.DUE)
    Location.objects.filter(pk=town.pk).update(capture_progress=4, capturing_army=red)  # a Capture under way
    before = campaign_state(campaign)
    client.force_login(gm)
    console = reverse("clock", args=[campaign.slug])
    client.post(reverse("battle-decide", args=[campaign.slug, due.pk]), {"winner": blue.pk, "routed": "on"})
    due.refresh_from_db()
    assert due.status == DueBattle.Status.FOUGHT
    assert campaign_state(campaign) != before
    assert "Reverse the last outcome recorded" in client.get(console).content.decode()

    record = reversible_latest(kind=Reversible.Kind.OUTCOME, target_id=due.pk)
    client.post(reverse("reversal-reverse", args=[campaign.slug, record.pk]),
                {"reason": "Red won, not Blue", "confirm": "1", "next": console})

    assert campaign_state(campaign) == before
    words = AuditEntry.objects.get(action="battle.outcome.reverse")
    assert words.data["reason"] == "Red won, not Blue"
    client.post(reverse("battle-decide", args=[campaign.slug, due.pk]), {"winner": red.pk})
    due.refresh_from_db()
    assert (due.status, due.winner_id) == (DueBattle.Status.FOUGHT, red.pk)
