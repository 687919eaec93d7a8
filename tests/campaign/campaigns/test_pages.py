"""Log in, log out, the home page with my role, the campaign page, messages and error pages."""

import pytest

from tests.campaign.factories import EventFactory

pytestmark = pytest.mark.django_db


def test_login_then_home_lists_my_campaigns_with_role(client, gm, campaign):
    response = client.post("/accounts/login/", {"username": "gm1", "password": "pass-word-123"}, follow=True)
    page = response.content.decode()
    assert response.status_code == 200
    assert campaign.name in page
    assert "Game master" in page


def test_wrong_password_says_what_to_do(client, gm):
    response = client.post("/accounts/login/", {"username": "gm1", "password": "nope"})
    assert "didn&#x27;t match" in response.content.decode() or "didn't match" in response.content.decode()


def test_logout_is_a_post_and_ends_the_session(client, gm):
    client.force_login(gm)
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/").status_code == 302


def test_home_without_campaigns_explains(client, outsider, db):
    from campaign.models import Membership

    Membership.objects.filter(user=outsider).delete()
    client.force_login(outsider)
    assert "not in any campaign yet" in client.get("/").content.decode()


def test_campaign_page_shows_nav_role_events_and_gm_tools(client, gm, player, campaign):
    EventFactory(campaign=campaign, name="Harvest Muster")
    client.force_login(gm)
    page = client.get(f"/c/{campaign.slug}/").content.decode()
    assert 'data-testid="my-role">Game master' in page
    assert "Harvest Muster" in page
    assert "worker-status" in page
    client.force_login(player)
    page = client.get(f"/c/{campaign.slug}/").content.decode()
    assert 'data-testid="my-role">Player' in page
    assert "worker-status" not in page


def test_messages_are_shown(rf, gm):
    from django.contrib import messages
    from django.contrib.messages.storage.fallback import FallbackStorage

    from campaign.campaigns.views import home

    request = rf.get("/")
    request.user = gm
    request.session = {}
    request._messages = FallbackStorage(request)
    messages.success(request, "Upkeep posted.")
    assert "Upkeep posted." in home(request).content.decode()


def test_404_page_is_in_site_style(client, gm, settings):
    settings.DEBUG = False
    client.force_login(gm)
    response = client.get("/c/nowhere/")
    assert response.status_code == 404
    assert "Not found" in response.content.decode()
    assert "muster.css" in response.content.decode()


def test_500_page_is_in_site_style(settings):
    from django.test import RequestFactory

    from campaign.web.error_views import server_error

    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert "Nothing was half written" in response.content.decode()
