"""The API for setting a campaign up: invitations (create, list, revoke, join with a code), members' roles and
removal, and Events; a player gets a 403 where only a GM may act, an outsider a 404 (or a campaign that does not
exist)."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from campaign.campaigns import services
from campaign.models import Event, Invitation, Membership, Role
from tests.campaign.factories import UserFactory

pytestmark = pytest.mark.django_db


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _invite(campaign, gm, **kwargs) -> Invitation:
    return services.invitation_create(campaign=campaign, actor=gm, expires_at=timezone.now() + timedelta(days=1),
                                      **kwargs)


def test_gm_creates_lists_and_revokes_invitations(campaign, gm):
    api = _api(gm)
    created = api.post("/api/invitations/", {"campaign": campaign.pk, "role": "gm", "max_uses": 2}, format="json")
    assert created.status_code == 201
    body = created.json()
    assert body["link"].endswith(f"/join/{body['code']}/")
    assert body["valid"]
    assert timezone.now() + timedelta(days=13) < Invitation.objects.get().expires_at
    assert [i["id"] for i in api.get(f"/api/invitations/?campaign={campaign.pk}").json()["results"]] == [body["id"]]
    revoked = api.post(f"/api/invitations/{body['id']}/revoke/")
    assert revoked.status_code == 200
    assert revoked.json()["valid"] is False
    assert api.post(f"/api/invitations/{body['id']}/revoke/").status_code == 200


def test_invitation_refusals_are_400s_with_sentences(campaign, gm):
    api = _api(gm)
    past = api.post("/api/invitations/", {"campaign": campaign.pk, "expires_at": "2001-01-01T00:00:00Z"},
                    format="json")
    assert past.status_code == 400
    assert "expire in the future" in past.json()["expires_at"][0]
    assert api.post("/api/invitations/", {"campaign": campaign.pk, "max_uses": 0}, format="json").status_code == 400


def test_a_player_cannot_invite_see_or_revoke_invitations(campaign, gm, player):
    invitation = _invite(campaign, gm)
    api = _api(player)
    refused = api.post("/api/invitations/", {"campaign": campaign.pk}, format="json")
    assert refused.status_code == 403
    assert "Only a game master" in refused.json()["detail"]
    assert api.get("/api/invitations/").json()["results"] == []
    assert api.post(f"/api/invitations/{invitation.pk}/revoke/").status_code == 404


def test_an_outsider_learns_nothing_of_our_invitations(campaign, gm, outsider):
    invitation = _invite(campaign, gm)
    api = _api(outsider)
    assert api.post("/api/invitations/", {"campaign": campaign.pk}, format="json").status_code == 400
    assert api.get(f"/api/invitations/{invitation.pk}/").status_code == 404
    assert api.post(f"/api/invitations/{invitation.pk}/revoke/").status_code == 404
    assert Invitation.objects.get().revoked_at is None


def test_join_with_a_code_then_again(campaign, gm, outsider):
    invitation = _invite(campaign, gm, max_uses=1)
    api = _api(outsider)
    first = api.post("/api/invitations/join/", {"code": invitation.code}, format="json")
    assert first.status_code == 201
    assert (first.json()["role"], first.json()["campaign"]) == ("player", campaign.pk)
    again = api.post("/api/invitations/join/", {"code": invitation.code}, format="json")
    assert again.status_code == 200
    assert again.json()["id"] == first.json()["id"]


def test_join_refusals(campaign, gm):
    invitation = services.invitation_revoke(invitation=_invite(campaign, gm), actor=gm)
    api = _api(UserFactory(username="late"))
    refused = api.post("/api/invitations/join/", {"code": invitation.code}, format="json")
    assert refused.status_code == 400
    assert "was withdrawn" in refused.json()["detail"]
    assert api.post("/api/invitations/join/", {"code": "nope"}, format="json").status_code == 400
    assert api.post("/api/invitations/join/", {}, format="json").status_code == 400
    anonymous = APIClient().post("/api/invitations/join/", {"code": invitation.code}, format="json")
    assert anonymous.status_code in {401, 403}


def test_members_role_change_and_removal_by_role(campaign, gm, player, outsider):
    mine, theirs = Membership.objects.get(user=gm), Membership.objects.get(user=player)
    assert _api(player).patch(f"/api/memberships/{mine.pk}/", {"role": "player"}, format="json").status_code == 403
    assert _api(player).delete(f"/api/memberships/{mine.pk}/").status_code == 403
    assert _api(outsider).delete(f"/api/memberships/{theirs.pk}/").status_code == 404
    demote = _api(gm).patch(f"/api/memberships/{mine.pk}/", {"role": "player"}, format="json")
    assert demote.status_code == 400
    assert "make someone else GM first" in demote.json()["role"][0]
    assert _api(gm).patch(f"/api/memberships/{theirs.pk}/", {"role": "gm"}, format="json").json()["role"] == "gm"
    assert _api(gm).delete(f"/api/memberships/{theirs.pk}/").status_code == 204
    assert list(Membership.objects.filter(campaign=campaign).values_list("role", flat=True)) == [Role.GM]


def test_events_by_role(campaign, gm, player, outsider, event):
    payload = {"campaign": campaign.pk, "name": "Harvest", "starts_at": "2030-05-01T10:00:00Z",
               "ends_at": "2030-05-02T10:00:00Z"}
    assert _api(player).post("/api/events/", payload, format="json").status_code == 403
    assert _api(player).patch(f"/api/events/{event.pk}/", {"name": "Mine"}, format="json").status_code == 403
    assert _api(outsider).patch(f"/api/events/{event.pk}/", {"name": "Theirs"}, format="json").status_code == 404
    assert _api(gm).post("/api/events/", payload, format="json").status_code == 201
    assert _api(gm).patch(f"/api/events/{event.pk}/", {"name": "Renamed"}, format="json").status_code == 200
    assert set(Event.objects.values_list("name", flat=True)) == {"Harvest", "Renamed"}


def test_schema_documents_the_invitations(gm):
    schema = _api(gm).get("/api/schema/?format=json").json()
    for path in ("/api/invitations/", "/api/invitations/{id}/revoke/", "/api/invitations/join/"):
        assert path in schema["paths"]
    assert set(schema["paths"]["/api/invitations/join/"]["post"]["responses"]) == {"200", "201", "400"}
