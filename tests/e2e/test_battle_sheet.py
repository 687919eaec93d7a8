"""The battle sheet in Chromium: a player finds it on their phone from the live Battle's page and it fits the
screen; printed, the table Battle's sheet drops the app's header and keeps both armies and the QR code."""

import pytest

from battles.demo import load_demo_battles
from campaign.demo import DEMO_LOGINS, load_demo
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_commander_opens_the_sheet_on_a_phone_and_the_gm_prints_one(live_server, new_page):
    campaign, _ = load_demo()
    table, live = load_demo_battles(campaign=campaign)
    amira = next(login for login in DEMO_LOGINS if login.username == "amira")
    phone = new_page()
    log_in(phone, live_server.url, amira.username, amira.password)
    phone.goto(f"{live_server.url}/c/{campaign.slug}/battles/{live.pk}/")
    phone.get_by_test_id("print-sheet").click()
    phone.wait_for_load_state("networkidle")
    assert phone.get_by_test_id("sheet-qr").locator("svg").is_visible()
    assert phone.get_by_test_id("sheet-hidden").count() == 1  # the other side's units stay hidden
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "battle-sheet-phone")

    gm = new_page(width=1000, height=1400)
    log_in(gm, live_server.url, DEMO_LOGINS[0].username, DEMO_LOGINS[0].password)
    gm.goto(f"{live_server.url}/c/{campaign.slug}/battles/{table.pk}/sheet/")
    gm.emulate_media(media="print")
    assert not gm.locator(".topbar").is_visible()
    assert gm.get_by_test_id("sheet-qr").locator("svg").is_visible()
    for seat, commander in enumerate(table.config["commanders"]):
        side = gm.get_by_test_id(f"sheet-side-{seat}").inner_text()
        assert all(unit["name"] in side for unit in commander["units"])
    screenshot(gm, "battle-sheet-print")
    assert gm.pdf(format="A4").startswith(b"%PDF")
