"""Several game masters at once on the encounters (cardgames.claims, the same rules as a Battle due's): one claims
a match not over yet, the others see who holds it on the list and the match page; players cannot claim."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from campaign.models import AuditEntry
from cardgames import claims
from cardgames.models import Match
from tests.campaign.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def second_gm(campaign):
    return MembershipFactory(campaign=campaign, user=UserFactory(username="gm2"), role="gm").user


def claim_url(match):
    return f"/c/{match.campaign.slug}/matches/{match.pk}/claim/"


def test_a_claim_is_held_by_one_game_master_and_a_retry_changes_nothing(duel, gm, second_gm):
    claims.match_claim(match=duel, actor=gm)
    claims.match_claim(match=duel, actor=gm)
    duel.refresh_from_db()
    assert duel.claimed_by == gm
    assert duel.claimed_at is not None
    assert AuditEntry.objects.filter(action="match.claim").count() == 1, "a retried tap records nothing twice"
    with pytest.raises(ValidationError, match="gm1 is resolving this match: ask them, or release their claim"):
        claims.match_claim(match=duel, actor=second_gm)
    duel.refresh_from_db()
    assert duel.claimed_by == gm


def test_any_game_master_may_release_a_claim_and_then_take_it(duel, gm, second_gm):
    claims.match_claim(match=duel, actor=gm)
    claims.match_release(match=duel, actor=second_gm)
    claims.match_release(match=duel, actor=second_gm)
    assert AuditEntry.objects.filter(action="match.release").count() == 1
    duel.refresh_from_db()
    assert (duel.claimed_by, duel.claimed_at) == (None, None)
    claims.match_claim(match=duel, actor=second_gm)
    duel.refresh_from_db()
    assert duel.claimed_by == second_gm


def test_a_match_over_cannot_be_claimed(duel, gm):
    Match.objects.filter(pk=duel.pk).update(status=Match.Status.FINISHED)
    with pytest.raises(ValidationError, match="already finished: nothing to claim"):
        claims.match_claim(match=duel, actor=gm)


def test_the_list_and_the_match_page_show_the_claim_to_the_other_game_master(client, duel, gm, second_gm):
    client.force_login(gm)
    answer = client.post(claim_url(duel), follow=True)
    assert answer.redirect_chain[-1][0] == f"/c/{duel.campaign.slug}/matches/"
    assert "You are resolving" in answer.content.decode()
    client.force_login(second_gm)
    listed = client.get(f"/c/{duel.campaign.slug}/matches/").content.decode()
    assert "gm1 is resolving it" in listed
    assert 'data-testid="release-match"' in listed
    assert f'data-live-topics="campaign.{duel.campaign_id}.hour campaign.{duel.campaign_id}.gm"' in listed
    assert "gm1 is resolving it" in client.get(f"/c/{duel.campaign.slug}/matches/{duel.pk}/").content.decode()
    refused = client.post(claim_url(duel), {"back": "play"}, follow=True)
    assert refused.redirect_chain[-1][0] == f"/c/{duel.campaign.slug}/matches/{duel.pk}/"
    assert "gm1 is resolving this match: ask them, or release their claim first." in refused.content.decode()


def test_players_may_not_claim_nor_see_the_buttons(client, duel, player):
    client.force_login(player)
    assert client.post(claim_url(duel)).status_code == 403
    listed = client.get(f"/c/{duel.campaign.slug}/matches/").content.decode()
    assert 'data-testid="claim-match"' not in listed
    assert "data-live-topics" not in listed
    duel.refresh_from_db()
    assert duel.claimed_by is None


def test_the_api_claims_and_releases_for_a_game_master_only(duel, gm, second_gm, player):
    apis = {}
    for user in (gm, second_gm, player):
        apis[user.username] = APIClient()
        apis[user.username].force_authenticate(user)
    claimed = apis["gm1"].post(f"/api/matches/{duel.pk}/claim/")
    assert (claimed.status_code, claimed.json()["claimed_by"]) == (200, gm.pk)
    refused = apis["gm2"].post(f"/api/matches/{duel.pk}/claim/")
    assert refused.status_code == 400
    assert "gm1 is resolving this match" in refused.json()["detail"]
    assert apis["player1"].post(f"/api/matches/{duel.pk}/release/").status_code == 403
    released = apis["gm2"].post(f"/api/matches/{duel.pk}/release/")
    assert (released.status_code, released.json()["claimed_by"]) == (200, None)
