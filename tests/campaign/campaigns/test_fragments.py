"""Remembered page bodies (campaign.campaigns.fragments): served again while nothing in the campaign changed,
built anew after any change, and never served to another viewer."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.economy import ledger
from campaign.map import clock
from tests.campaign.map_fixtures import make_map, ready

pytestmark = pytest.mark.django_db


def main(response) -> str:
    """The page's body (the navigation around it holds a freshly masked CSRF token each time)."""
    return re.split(r"<main[^>]*>", response.content.decode())[1]


def purse(page: str) -> str:
    return re.search(r'data-testid="purse-balance">(\d+)<', page).group(1)


def test_an_unchanged_commander_page_is_served_from_memory(client, player, mine, day):
    client.force_login(player)
    page_url = f"/c/{mine.campaign.slug}/commanders/{mine.pk}/"
    first = client.get(page_url)
    with CaptureQueriesContext(connection) as built:
        client.get(page_url)
    assert main(first) == main(client.get(page_url))  # the very same body, CSRF tokens included
    # session, user, membership and campaign, the commander, the change stamp: nothing of the body
    assert len(built.captured_queries) <= 5


def test_a_change_anywhere_in_the_campaign_builds_the_page_again(client, player, gm, mine, day):
    client.force_login(player)
    page_url = f"/c/{mine.campaign.slug}/commanders/{mine.pk}/"
    assert purse(client.get(page_url).content.decode()) == "100"
    ledger.ledger_grant(commander=mine, amount=25, reason="Bounty", actor=gm)
    assert purse(client.get(page_url).content.decode()) == "125"


def test_each_viewer_gets_their_own_page(client, player, gm, mine, theirs, day):
    """The GM's page of a commander (with GM-only lines) is never served to the player, nor the reverse."""
    page_url = f"/c/{mine.campaign.slug}/commanders/{mine.pk}/"
    client.force_login(gm)
    gm_page = client.get(page_url).content.decode()
    assert "played by" in gm_page
    client.force_login(player)
    player_page = client.get(page_url).content.decode()
    assert "played by" not in player_page
    assert client.get(f"/c/{mine.campaign.slug}/commanders/{theirs.pk}/").status_code == 404


def test_a_grant_made_on_the_gm_page_shows_at_once(client, gm, mine, day):
    client.force_login(gm)
    page_url = f"/c/{mine.campaign.slug}/commanders/{mine.pk}/"
    client.get(page_url)
    response = client.post(f"/c/{mine.campaign.slug}/economy/grant/",
                           {"grant-commander": mine.pk, "grant-amount": 5, "grant-reason": "Scouting"}, follow=True)
    assert response.status_code == 200
    page = client.get(page_url).content.decode()
    assert purse(page) == "105"


def test_a_processed_hour_redraws_the_clock_console(client, gm, campaign, event):
    """The clock's tick is not an audited change but an HourLog: it counts as a change too."""
    ready(event)
    make_map(campaign)
    client.force_login(gm)
    console = f"/c/{campaign.slug}/clock/"
    hour = re.compile(r'data-testid="clock-hour">(\d+)<')
    assert hour.search(client.get(console).content.decode()).group(1) == "0"
    clock.event_clock_advance(event=event, actor=None)
    assert hour.search(client.get(console).content.decode()).group(1) == "1"
