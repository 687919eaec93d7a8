"""The demo GM and a demo player log in on their own devices and each sees their own home page."""

import pytest

from campaign.demo import DEMO_LOGINS, load_demo
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_gm_and_player_see_their_own_home_and_campaign(live_server, new_page):
    campaign, _ = load_demo()
    gm_login, player_login = DEMO_LOGINS[0], DEMO_LOGINS[1]

    gm_page = new_page()
    log_in(gm_page, live_server.url, gm_login.username, gm_login.password)
    assert gm_page.get_by_test_id("username").inner_text() == gm_login.username
    assert campaign.name in gm_page.get_by_test_id("campaign-list").inner_text()
    assert "Game master" in gm_page.get_by_test_id("campaign-list").inner_text()
    assert screenshot(gm_page, "home-gm").stat().st_size > 0
    gm_page.click(f"text={campaign.name}")
    assert gm_page.get_by_test_id("my-role").inner_text() == "Game master"
    assert gm_page.get_by_test_id("worker-status").is_visible()
    screenshot(gm_page, "campaign-gm")

    player_page = new_page()
    log_in(player_page, live_server.url, player_login.username, player_login.password)
    assert player_page.get_by_test_id("username").inner_text() == player_login.username
    assert "Player" in player_page.get_by_test_id("campaign-list").inner_text()
    screenshot(player_page, "home-player")
    player_page.click(f"text={campaign.name}")
    assert player_page.get_by_test_id("my-role").inner_text() == "Player"
    assert player_page.get_by_test_id("worker-status").count() == 0
    screenshot(player_page, "campaign-player")

    # Each device kept its own session.
    gm_page.reload()
    assert gm_page.get_by_test_id("username").inner_text() == gm_login.username


def test_wrong_password_is_explained(live_server, new_page):
    load_demo()
    page = new_page()
    log_in(page, live_server.url, "gm", "wrong")
    assert "didn't match" in page.content() or "didn&#x27;t match" in page.content()
    screenshot(page, "login-error")
