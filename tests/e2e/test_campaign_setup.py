"""A GM starts a campaign from nothing on a phone: signs up, creates the campaign, makes an invitation link; a
player on another phone signs up through the link and lands in the campaign. No page is wider than the phone."""

import pytest

from campaign.models import Membership, Role
from tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = 390


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE, page.url


def _sign_up(page, username: str) -> None:
    page.fill("[data-testid=sign-up-form] input[name=username]", username)
    page.fill("[data-testid=sign-up-form] input[name=password]", "lantern-harbour-77")
    page.click("[data-testid=sign-up-form] button[type=submit]")
    page.wait_for_load_state("networkidle")


def test_a_gm_starts_a_campaign_and_a_player_joins_through_the_link(live_server, new_page):
    gm = new_page(width=PHONE)
    gm.goto(f"{live_server.url}/accounts/login/")
    gm.get_by_test_id("sign-up-link").click()
    _fits(gm)
    _sign_up(gm, "gwen")
    assert gm.get_by_test_id("username").inner_text() == "gwen"
    gm.get_by_test_id("campaign-new-link").click()
    gm.fill("input[name=name]", "The Salt Road")
    gm.click("button[type=submit].primary")
    gm.wait_for_load_state("networkidle")
    assert gm.get_by_test_id("my-role").inner_text() == "Game master"
    assert "Nobody has been invited" in gm.get_by_test_id("setup-checklist").inner_text()
    _fits(gm)
    screenshot(gm, "setup-campaign-gm")

    gm.get_by_test_id("members-link").click()
    gm.click("[data-testid=invitation-form] button[type=submit]")
    gm.wait_for_load_state("networkidle")
    _fits(gm)
    screenshot(gm, "setup-invitation")
    link = gm.get_by_test_id("invitation-link").input_value()
    assert "/join/" in link

    player = new_page(width=PHONE)
    player.goto(link)
    assert "Join The Salt Road" in player.get_by_test_id("invitation").inner_text()
    _fits(player)
    _sign_up(player, "rowan")
    assert player.get_by_test_id("my-role").inner_text() == "Player"
    assert "The Salt Road" in player.locator("h1").inner_text()
    assert player.get_by_test_id("setup-checklist").count() == 0
    _fits(player)
    screenshot(player, "setup-joined-player")
    assert Membership.objects.get(user__username="rowan").role == Role.PLAYER

    gm.reload()
    assert "rowan" in gm.get_by_test_id("members").inner_text()
