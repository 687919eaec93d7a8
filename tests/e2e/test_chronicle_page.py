"""The chronicle on a phone: a player reads the demo campaign's chronicle, makes a feed address of their own, and
a feed reader (no session) fetches from it exactly what that player may read."""

import pytest

from battles.demo import load_demo_battles
from campaign.demo import DEMO_LOGINS, load_demo
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_reads_the_chronicle_and_follows_it_in_a_feed_reader(live_server, new_page, browser):
    campaign, _ = load_demo()
    load_demo_battles(campaign=campaign)
    amira = next(login for login in DEMO_LOGINS if login.username == "amira")
    page = new_page()
    log_in(page, live_server.url, amira.username, amira.password)
    page.goto(f"{live_server.url}/c/{campaign.slug}/")
    page.click('[data-testid="chronicle-link"]')
    entries = page.locator('[data-testid="chronicle-entry"]')
    assert entries.count() > 0
    text = page.locator('[data-testid="chronicle"]').inner_text()
    assert "Amira bint Khalid recruited" in text
    assert "Bastian of the Marches recruited" not in text  # another commander's units stay unsaid
    page.click('[data-testid="feed-reset"]')
    address = page.locator('[data-testid="feed-url"]').input_value()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "chronicle-phone")
    reader = browser.new_context()  # no cookies: a feed reader
    feed = reader.request.get(address)
    body = feed.text()
    reader.close()
    assert feed.status == 200
    assert "application/atom+xml" in feed.headers["content-type"]
    assert "Amira bint Khalid recruited" in body
    assert "Bastian of the Marches recruited" not in body
