"""A user's memberships kept in the shared cache (campaign.campaigns.memberships_kept): read once, and dropped
as soon as a change to one of them, or to its campaign, commits; a refusal is never kept."""

from __future__ import annotations

import pytest
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from campaign.campaigns import services
from campaign.campaigns.permissions import membership_by_slug_or_404
from campaign.models import Membership, Role

pytestmark = pytest.mark.django_db


def _found(user, slug: str) -> tuple[Membership, int]:
    with CaptureQueriesContext(connection) as ctx:
        membership = membership_by_slug_or_404(user=user, slug=slug)
    return membership, len(ctx.captured_queries)


def test_a_membership_is_read_once_then_kept(player, campaign):
    assert _found(player, campaign.slug)[1] == 1
    kept, queries = _found(player, campaign.slug)
    assert queries == 0
    assert (kept.role, kept.campaign.name) == (Role.PLAYER, "River Valley")


def test_a_removed_player_is_refused_at_once(player, gm, campaign, django_capture_on_commit_callbacks):
    _found(player, campaign.slug)
    with django_capture_on_commit_callbacks(execute=True):
        services.membership_remove(membership=Membership.objects.get(user=player), actor=gm)
    with pytest.raises(Http404):
        membership_by_slug_or_404(user=player, slug=campaign.slug)


def test_a_new_role_counts_at_once(player, gm, campaign, django_capture_on_commit_callbacks):
    _found(player, campaign.slug)
    with django_capture_on_commit_callbacks(execute=True):
        services.membership_set_role(membership=Membership.objects.get(user=player), role=Role.GM, actor=gm)
    assert _found(player, campaign.slug)[0].role == Role.GM


def test_an_archived_campaign_is_seen_archived_at_once(player, gm, campaign, django_capture_on_commit_callbacks):
    _found(player, campaign.slug)
    with django_capture_on_commit_callbacks(execute=True):
        services.campaign_set_archived(campaign=campaign, archived=True, actor=gm)
    assert _found(player, campaign.slug)[0].campaign.archived_at is not None


def test_a_refusal_is_not_kept(outsider, gm, campaign, django_capture_on_commit_callbacks):
    with pytest.raises(Http404):
        membership_by_slug_or_404(user=outsider, slug=campaign.slug)
    services.membership_add(campaign=campaign, user=outsider, role=Role.PLAYER, actor=gm)
    assert _found(outsider, campaign.slug)[0].role == Role.PLAYER
