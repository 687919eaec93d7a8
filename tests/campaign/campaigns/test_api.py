"""The API: token and session auth, 400s with field errors (never a 500), the schema and offline docs."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from campaign.models import AuditEntry, Day, Membership, Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def gm_api(gm):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=gm).key}")
    return client


def test_token_is_issued_for_a_password_and_authenticates(gm):
    client = APIClient()
    response = client.post("/api/token/", {"username": "gm1", "password": "pass-word-123"}, format="json")
    assert response.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.get("/api/campaigns/").status_code == 200


def test_anonymous_is_refused():
    assert APIClient().get("/api/campaigns/").status_code == 401


def test_create_campaign_makes_me_gm_and_is_audited(gm_api, gm):
    response = gm_api.post("/api/campaigns/", {"name": "Northern March"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["my_role"] == "gm"
    assert Membership.objects.get(campaign_id=body["id"], user=gm).role == Role.GM
    assert AuditEntry.objects.filter(campaign_id=body["id"], action="campaign.create").exists()


@pytest.mark.parametrize(("payload", "field"), [
    ({}, "name"),
    ({"name": ""}, "name"),
    ({"name": "x" * 500}, "name"),
])
def test_bad_campaign_input_is_a_400_with_field_errors(gm_api, payload, field):
    response = gm_api.post("/api/campaigns/", payload, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_event_create_validates_times_and_opens_day_one(gm_api, campaign):
    start = timezone.now()
    bad = gm_api.post("/api/events/", {"campaign": campaign.pk, "name": "Backwards", "starts_at": start.isoformat(),
                                       "ends_at": (start - timedelta(hours=1)).isoformat()}, format="json")
    assert bad.status_code == 400
    assert "ends_at" in bad.json()
    garbage = gm_api.post("/api/events/", {"campaign": campaign.pk, "name": "X", "starts_at": "soon",
                                           "ends_at": "later", "minutes_per_hour": 0}, format="json")
    assert garbage.status_code == 400
    assert {"starts_at", "ends_at", "minutes_per_hour"} <= set(garbage.json())
    good = gm_api.post("/api/events/", {"campaign": campaign.pk, "name": "Dawn", "starts_at": start.isoformat(),
                                        "ends_at": (start + timedelta(days=1)).isoformat(),
                                        "minutes_per_hour": 15}, format="json")
    assert good.status_code == 201, good.content
    assert good.json()["minutes_per_hour"] == 15
    assert Day.objects.get(event_id=good.json()["id"]).number == 1


def test_removing_the_last_gm_is_refused_with_a_sentence(gm_api, gm, campaign):
    membership = Membership.objects.get(user=gm, campaign=campaign)
    response = gm_api.delete(f"/api/memberships/{membership.pk}/")
    assert response.status_code == 400
    assert "make someone else GM first" in str(response.json())
    assert Membership.objects.filter(pk=membership.pk).exists()


def test_membership_role_change_and_duplicate(gm_api, player, campaign):
    membership = Membership.objects.get(user=player, campaign=campaign)
    assert gm_api.patch(f"/api/memberships/{membership.pk}/", {"role": "gm"}, format="json").status_code == 200
    membership.refresh_from_db()
    assert membership.role == Role.GM
    dup = gm_api.post("/api/memberships/", {"campaign": campaign.pk, "username": player.username}, format="json")
    assert dup.status_code == 400
    assert "already" in str(dup.json())
    assert gm_api.patch(f"/api/memberships/{membership.pk}/", {"role": "king"}, format="json").status_code == 400


def test_schema_is_openapi_3_and_lists_resources(gm_api):
    response = gm_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    for path in ("/api/campaigns/", "/api/events/", "/api/days/", "/api/memberships/"):
        assert path in schema["paths"]


def test_docs_page_uses_only_local_assets(client, gm):
    client.force_login(gm)
    page = client.get("/api/docs/").content.decode()
    assert "swagger-ui" in page
    assert "https://" not in page.replace("https://swagger.io", "")
    assert "/static/drf_spectacular_sidecar/" in page
    asset = page.split("/static/drf_spectacular_sidecar/")[1].split('"')[0]
    response = client.get(f"/static/drf_spectacular_sidecar/{asset}")
    assert response.status_code == 200
