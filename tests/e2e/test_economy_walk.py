"""A player recruits and trains on their phone and sees the upkeep forecast; the GM closes the Day; the player
finds the posted upkeep in their ledger history. Screenshots of each page go to test-artifacts/."""

import pytest

from campaign.demo import DEMO_LOGINS, load_demo
from campaign.models import Commander
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_recruit_train_forecast_close_day_and_ledger(live_server, new_page):
    campaign, _ = load_demo()
    gm_login, amira_login = DEMO_LOGINS[0], DEMO_LOGINS[1]
    amira = Commander.objects.get(campaign=campaign, player__username=amira_login.username)

    player = new_page()
    player.on("dialog", lambda dialog: dialog.accept())  # spending asks first, naming the price
    log_in(player, live_server.url, amira_login.username, amira_login.password)
    player.click(f"text={campaign.name}")
    player.get_by_test_id("commanders-link").click()
    assert amira.name in player.get_by_test_id("commander-list").inner_text()
    screenshot(player, "economy-commanders-player")
    player.click(f"text={amira.name}")
    assert player.get_by_test_id("purse-balance").inner_text() == "255"
    screenshot(player, "economy-commander-player")

    player.get_by_test_id("offer").filter(has_text="Light Cavalry").get_by_role("button").click()
    player.get_by_test_id("result").filter(has_text="Light Cavalry joined").wait_for()
    assert player.get_by_test_id("purse-balance").inner_text() == "225"
    screenshot(player, "economy-recruited")

    archers = player.get_by_test_id("unit").filter(has_text="Archers")  # Archers train into Rangers
    assert archers.get_by_test_id("train").inner_text() == "Train to 3 · 30 lunari"
    archers.get_by_test_id("train").click()
    player.get_by_test_id("result").filter(has_text="Archers trained").wait_for()
    trained = player.get_by_test_id("result").inner_text()
    assert "Archers trained to Strength 3 and became Rangers, for 30 lunari." in trained
    assert player.get_by_test_id("forecast-total").inner_text() == "30"  # Wardens 3 + Archers 3, 5 lunari each
    screenshot(player, "economy-trained-forecast")

    gm = new_page()
    log_in(gm, live_server.url, gm_login.username, gm_login.password)
    gm.click(f"text={campaign.name}")
    gm.get_by_test_id("economy-link").click()
    screenshot(gm, "economy-gm")
    gm.get_by_test_id("review-close-day").click()
    assert "65 lunari" in gm.get_by_test_id("upkeep-charges").inner_text()  # what closing will post
    screenshot(gm, "economy-gm-close-review")
    gm.get_by_test_id("close-day").click()
    gm.wait_for_load_state("networkidle")
    closed = gm.locator(".messages").inner_text()
    assert "is closed: 3 upkeep bills posted (65 lunari paid), 0 commanders in arrears" in closed
    screenshot(gm, "economy-gm-day-closed")
    gm.goto(f"{live_server.url}/c/{campaign.slug}/economy/")
    gm.get_by_test_id("audit-link").click()
    assert "day.close" in gm.get_by_test_id("audit").inner_text()
    screenshot(gm, "economy-audit")

    player.reload()
    history = player.get_by_test_id("ledger").inner_text()
    assert "Upkeep for Day 1 of Autumn Muster" in history
    assert "-30" in history
    assert player.get_by_test_id("purse-balance").inner_text() == "165"
    screenshot(player, "economy-ledger-after-close")
