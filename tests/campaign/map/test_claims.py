"""Several game masters at once (campaign.map.claims and the clock console): one claims a Battle due, the
others see who holds it and who is online, and each due Battle offers its start and odds page."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign.live.presence import presence_mark
from campaign.map import claims
from campaign.models import AuditEntry, DueBattle
from tests.campaign.factories import ArmyFactory, CommanderFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def second_gm(campaign):
    return MembershipFactory(campaign=campaign, user=UserFactory(username="gm2"), role="gm").user


@pytest.fixture
def due(campaign, event):
    first, second = (ArmyFactory(commander=CommanderFactory(campaign=campaign, name=n), name=f"{n}'s host")
                     for n in ("Amira", "Bastian"))
    return DueBattle.objects.create(event=event, hour=2, first=first, second=second)


def test_a_claim_is_held_by_one_game_master_and_a_retry_changes_nothing(due, gm, second_gm):
    claims.due_battle_claim(due_battle=due, actor=gm)
    claims.due_battle_claim(due_battle=due, actor=gm)
    due.refresh_from_db()
    assert due.claimed_by == gm
    assert due.claimed_at is not None
    assert AuditEntry.objects.filter(action="battle.claim").count() == 1, "a retried tap records nothing twice"
    with pytest.raises(ValidationError, match="gm1 is resolving this Battle"):
        claims.due_battle_claim(due_battle=due, actor=second_gm)


def test_any_game_master_may_release_a_claim_and_then_take_it(due, gm, second_gm):
    claims.due_battle_claim(due_battle=due, actor=gm)
    claims.due_battle_release(due_battle=due, actor=second_gm)
    claims.due_battle_release(due_battle=due, actor=second_gm)
    assert AuditEntry.objects.filter(action="battle.release").count() == 1
    claims.due_battle_claim(due_battle=due, actor=second_gm)
    due.refresh_from_db()
    assert due.claimed_by == second_gm


def test_a_battle_already_fought_cannot_be_claimed(due, gm):
    DueBattle.objects.filter(pk=due.pk).update(status=DueBattle.Status.FOUGHT)
    with pytest.raises(ValidationError, match="already fought"):
        claims.due_battle_claim(due_battle=due, actor=gm)


def test_the_console_shows_the_claim_to_the_other_game_master_with_the_start_link(client, due, gm, second_gm):
    client.force_login(gm)
    answer = client.post(f"/c/river-valley/clock/battles/{due.pk}/claim/", follow=True)
    assert "You are resolving this Battle" in answer.content.decode()
    client.force_login(second_gm)
    page = client.get("/c/river-valley/clock/").content.decode()
    assert "gm1 is resolving it" in page
    assert f'/c/river-valley/battles/start/?due={due.pk}' in page
    refused = client.post(f"/c/river-valley/clock/battles/{due.pk}/claim/", follow=True).content.decode()
    assert "gm1 is resolving this Battle: ask them, or release their claim first." in refused


def test_players_may_not_claim(client, due, player):
    client.force_login(player)
    assert client.post(f"/c/river-valley/clock/battles/{due.pk}/claim/").status_code == 403
    due.refresh_from_db()
    assert due.claimed_by is None


def test_who_is_online_lists_the_game_masters_with_the_console_open_and_drops_the_silent(client, campaign, gm,
                                                                                        second_gm):
    presence_mark(campaign_id=campaign.pk, user_id=second_gm.pk)
    client.force_login(gm)
    assert "gm2" in client.get("/c/river-valley/clock/online/").content.decode()
    presence_mark(campaign_id=campaign.pk, user_id=second_gm.pk, online=False)
    assert "No game master online." in client.get("/c/river-valley/clock/online/").content.decode()


def test_presence_expires_without_a_heartbeat(campaign, gm):
    from campaign.live.presence import EXPIRY_SECONDS, presence_online

    assert presence_mark(campaign_id=campaign.pk, user_id=gm.pk, now=1000.0)
    assert not presence_mark(campaign_id=campaign.pk, user_id=gm.pk, now=1010.0), "a ping changes nobody's list"
    assert presence_online(campaign_id=campaign.pk, now=1010.0 + EXPIRY_SECONDS - 1) == {gm.pk}
    assert presence_online(campaign_id=campaign.pk, now=1010.0 + EXPIRY_SECONDS) == set()
