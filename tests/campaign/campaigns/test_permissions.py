"""The permission matrix: roles x actions, through the pages and the API alike.

A GM may do everything in their campaign, a player may look and act for what is
theirs, and anyone else gets 404 (not 403) so the campaign's existence is not revealed.
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.campaigns.permissions import Action, can, may_act_for
from campaign.models import Membership, Role
from tests.campaign.factories import UserFactory
from tests.helpers import api_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(gm, player, outsider):
    return {"gm": gm, "player": player, "outsider": outsider}



@pytest.mark.parametrize(("role", "action", "allowed"), [
    (role, action, role == Role.GM or action in {Action.VIEW_CAMPAIGN, Action.VIEW_MEMBERS,
                                                 Action.VIEW_EVENTS, Action.ACT_FOR_OWN})
    for role in Role.values for action in Action
])
def test_role_action_matrix(campaign, role, action, allowed):
    membership = Membership(campaign=campaign, user=UserFactory(), role=role)
    assert can(membership, action) is allowed


def test_no_membership_can_do_nothing():
    assert not any(can(None, action) for action in Action)


def test_act_for_own_versus_any(campaign, gm, player):
    gm_m = Membership.objects.get(user=gm)
    player_m = Membership.objects.get(user=player)
    other = UserFactory()
    assert may_act_for(player_m, player.pk)
    assert not may_act_for(player_m, other.pk)
    assert may_act_for(gm_m, other.pk)
    assert not may_act_for(None, player.pk)


# Pages: (who, expected status) for the campaign page.
@pytest.mark.parametrize(("who", "status"), [("gm", 200), ("player", 200), ("outsider", 404)])
def test_campaign_page_visibility(client, users, campaign, who, status):
    client.force_login(users[who])
    assert client.get(f"/c/{campaign.slug}/").status_code == status


def test_campaign_page_needs_login(client, campaign):
    response = client.get(f"/c/{campaign.slug}/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_unknown_and_foreign_campaigns_look_the_same(client, outsider, campaign):
    client.force_login(outsider)
    foreign = client.get(f"/c/{campaign.slug}/")
    unknown = client.get("/c/no-such-campaign/")
    assert foreign.status_code == unknown.status_code == 404
    assert campaign.name not in foreign.content.decode()


def _event_payload(campaign):
    start = timezone.now()
    return {"campaign": campaign.pk, "name": "Night March", "starts_at": start.isoformat(),
            "ends_at": (start + timedelta(days=1)).isoformat()}


# API: (who, action) -> expected status. Writes by players are 403 with a sentence; outsiders 404/400.
API_MATRIX = [
    ("gm", "read", 200), ("player", "read", 200), ("outsider", "read", 404),
    ("gm", "edit", 200), ("player", "edit", 403), ("outsider", "edit", 404),
    ("gm", "create_event", 201), ("player", "create_event", 403), ("outsider", "create_event", 400),
    ("gm", "add_member", 201), ("player", "add_member", 403), ("outsider", "add_member", 400),
    ("gm", "delete", 204), ("player", "delete", 403), ("outsider", "delete", 404),
]


@pytest.mark.parametrize(("who", "action", "status"), API_MATRIX)
def test_api_matrix(users, campaign, who, action, status):
    client = api_for(users[who])
    url = f"/api/campaigns/{campaign.pk}/"
    if action == "read":
        response = client.get(url)
    elif action == "edit":
        response = client.patch(url, {"name": "Renamed"}, format="json")
    elif action == "create_event":
        response = client.post("/api/events/", _event_payload(campaign), format="json")
    elif action == "add_member":
        newcomer = UserFactory(username="newcomer")
        response = client.post("/api/memberships/", {"campaign": campaign.pk, "username": newcomer.username,
                                                     "role": "player"}, format="json")
    else:
        response = client.delete(url)
    assert response.status_code == status, response.content
    if status == 403:
        assert "game master" in response.json()["detail"]


def test_api_lists_only_my_campaigns(users, campaign):
    names = {c["name"] for c in api_for(users["outsider"]).get("/api/campaigns/").json()["results"]}
    assert campaign.name not in names
    mine = api_for(users["player"]).get("/api/campaigns/").json()["results"]
    assert [(c["name"], c["my_role"]) for c in mine] == [(campaign.name, "player")]


def test_outsider_sees_no_events_days_or_members(users, campaign, event):
    client = api_for(users["outsider"])
    for url in ("/api/events/", "/api/days/", "/api/memberships/"):
        items = client.get(url).json()["results"]
        assert all(item.get("campaign", campaign.pk + 1) != campaign.pk for item in items), url
    assert client.get(f"/api/events/{event.pk}/").status_code == 404
