"""An archived campaign is read only (every write refused with one sentence, by page, API and service) and off the
home page; unarchiving brings it back."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.campaigns.services import campaign_set_archived
from campaign.map import clock
from campaign.models import AuditEntry, Event
from tests.campaign.factories import EventFactory
from tests.helpers import api_for

pytestmark = pytest.mark.django_db
ARCHIVED = "River Valley is archived and read only: a game master may unarchive it from its page to change anything."


def test_archiving_twice_archives_once_and_both_are_audited(campaign, gm):
    campaign_set_archived(campaign=campaign, archived=True, actor=gm)
    first = campaign.__class__.objects.get(pk=campaign.pk).archived_at
    campaign_set_archived(campaign=campaign, archived=True, actor=gm)
    assert campaign.__class__.objects.get(pk=campaign.pk).archived_at == first
    campaign_set_archived(campaign=campaign, archived=False, actor=gm)
    assert list(AuditEntry.objects.filter(campaign=campaign, action__startswith="campaign.")
                .order_by("pk").values_list("action", flat=True)) == ["campaign.archive", "campaign.unarchive"]


def test_an_archived_campaign_leaves_the_home_page_for_the_archived_list(client, campaign, gm):
    client.force_login(gm)
    client.post("/c/river-valley/archive/", {"archived": "1"})
    home = client.get("/").content.decode()
    assert 'href="/c/river-valley/"' not in home
    assert "Archived campaigns (1)" in home
    assert 'href="/c/river-valley/"' in client.get("/?archived=1").content.decode()
    page = client.get("/c/river-valley/").content.decode()
    assert 'data-testid="archived-banner"' in page
    assert 'data-testid="unarchive-button"' in page


def test_every_write_is_refused_while_archived_by_page_and_api(client, campaign, gm, player, mine, day):
    campaign_set_archived(campaign=campaign, archived=True, actor=gm)
    start = timezone.now()
    event = {"name": "Dawn", "starts_at": start.strftime("%Y-%m-%dT%H:%M"),
             "ends_at": (start + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"), "minutes_per_hour": 15}
    client.force_login(gm)
    page = client.post("/c/river-valley/events/", event)
    assert page.status_code == 403
    assert ARCHIVED in page.content.decode()
    api = api_for(gm).post("/api/events/", {**event, "campaign": campaign.pk}, format="json")
    assert (api.status_code, api.json()["detail"]) == (403, ARCHIVED)
    client.force_login(player)
    mine.morale = 2
    mine.save(update_fields=["morale"])
    bought = client.post(f"/c/river-valley/commanders/{mine.pk}/morale/", {"points": 1}, follow=True)
    assert ARCHIVED in bought.content.decode()
    api = api_for(player).post(f"/api/commanders/{mine.pk}/morale/", {"points": 1}, format="json")
    assert (api.status_code, api.json()["detail"]) == (403, ARCHIVED)
    mine.refresh_from_db()
    assert mine.morale == 2
    assert Event.objects.filter(campaign=campaign).count() == 1

    client.force_login(gm)
    client.post("/c/river-valley/archive/", {"archived": "0"})
    assert client.post("/c/river-valley/events/", event).status_code == 302


def test_the_gm_pages_still_open_on_an_archived_campaign(client, campaign, gm, day):
    campaign_set_archived(campaign=campaign, archived=True, actor=gm)
    client.force_login(gm)
    for page in ("", "economy/", "clock/", "events/", "recruiting/", "audit/"):
        assert client.get(f"/c/river-valley/{page}").status_code == 200, page


def test_a_player_may_not_archive(client, campaign, player):
    client.force_login(player)
    assert client.post("/c/river-valley/archive/", {"archived": "1"}).status_code == 403
    campaign.refresh_from_db()
    assert campaign.archived_at is None


def test_the_clock_of_an_archived_campaign_stands_still(campaign, gm):
    event = EventFactory(campaign=campaign, starts_at=timezone.now() - timedelta(hours=3))
    clock.event_clock_start(event=event, actor=gm, now=timezone.now() - timedelta(hours=2))
    campaign_set_archived(campaign=campaign, archived=True, actor=gm)
    assert clock.clock_tick().processed == 0
    campaign_set_archived(campaign=campaign, archived=False, actor=gm)
    assert clock.clock_tick().processed == 2


def test_a_change_checked_by_role_alone_is_refused_by_the_audit_trail_and_rolled_back(campaign, gm):
    from campaign.campaigns.permissions import Archived
    from campaign.economy.services import commander_create
    from campaign.models import Commander

    campaign_set_archived(campaign=campaign, archived=True, actor=gm)
    with pytest.raises(Archived, match="archived and read only"):
        commander_create(campaign=campaign, name="Late", level=1, power="Battlemage", actor=gm)
    assert not Commander.objects.filter(campaign=campaign).exists()


def test_a_card_game_move_is_refused_while_archived(campaign, gm, player):
    from campaign.campaigns.permissions import Archived
    from cardgames.models import Match
    from cardgames.services import SeatSpec, match_act, match_create

    match = match_create(campaign=campaign, game="command-dice", actor=gm, seed=1,
                         seats=[SeatSpec(name="gm1", user=gm), SeatSpec(name="player1", user=player)])
    campaign_set_archived(campaign=campaign, archived=True, actor=gm)
    with pytest.raises(Archived):
        match_act(match_id=match.pk, seat=0, action=["pass"], user=gm)
    assert Match.objects.get(pk=match.pk).version == match.version
