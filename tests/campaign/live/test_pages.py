"""Pages that redraw themselves: they name only topics their viewer may join, and their fallback poll is answered
204 without building the page while nothing in the campaign changed."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.campaigns.selectors import campaign_change_stamp
from campaign.economy import ledger
from campaign.live.topics import topics_allowed
from tests.campaign.factories import CommanderFactory

pytestmark = pytest.mark.django_db


def _topics(html: str) -> list[str]:
    return sorted({t for found in re.findall(r'data-live-topics="([^"]*)"', html) for t in found.split()})


@pytest.mark.parametrize("page", ["commanders/{mine}/", "battles/", "map/"])
def test_a_players_page_listens_only_to_what_they_may_join(client, campaign, player, rival, page):
    from tests.campaign.map_fixtures import make_map

    make_map(campaign)
    mine = CommanderFactory(campaign=campaign, player=player)
    theirs = CommanderFactory(campaign=campaign, player=rival)
    client.force_login(player)
    html = client.get(f"/c/river-valley/{page.format(mine=mine.pk)}").content.decode()
    topics = _topics(html)
    assert f"campaign.{campaign.pk}.hour" in topics
    assert f"commander.{theirs.pk}" not in topics
    assert f"campaign.{campaign.pk}.gm" not in topics
    assert topics_allowed(player, topics)


def test_the_clock_console_listens_to_everything_in_the_campaign(client, campaign, gm):
    client.force_login(gm)
    html = client.get("/c/river-valley/clock/").content.decode()
    assert _topics(html) == [f"campaign.{campaign.pk}.gm", f"campaign.{campaign.pk}.hour"]


def test_an_unchanged_poll_is_answered_204_without_building_the_page_and_a_change_redraws(client, campaign, player, gm):
    mine = CommanderFactory(campaign=campaign, player=player)
    client.force_login(player)
    url = f"/c/river-valley/commanders/{mine.pk}/"
    page = client.get(url).content.decode()
    since = re.search(r'\?since=([0-9a-f]+)"', page).group(1)
    assert since == campaign_change_stamp(campaign_id=campaign.pk)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, {"since": since}, HTTP_HX_REQUEST="true").status_code == 204
    # the session, the user, the membership, the commander, the viewer's topics and the stamp: no body is built
    assert len(queries) <= 6, [q["sql"] for q in queries]
    ledger.ledger_grant(commander=mine, amount=7, reason="Prize", actor=gm)
    redrawn = client.get(url, {"since": since}, HTTP_HX_REQUEST="true")
    assert redrawn.status_code == 200
    assert 'id="live-body"' in redrawn.content.decode()


@pytest.mark.parametrize("everywhere", [True, False])
def test_pages_stop_polling_on_a_socket_only_when_every_change_is_pushed(client, settings, player, everywhere):
    """Without Redis the Celery worker's changes (the clock's hours, AI moves) reach no socket: polls carry on."""
    settings.LIVE_PUSH_EVERYWHERE = everywhere
    client.force_login(player)
    html = client.get("/c/river-valley/battles/").content.decode()
    assert ("data-live-everywhere" in html) is everywhere
