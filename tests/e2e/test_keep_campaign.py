"""A GM on a phone keeps a campaign: downloads its export, archives it (it leaves the home page for the archived
list, read only), brings it back, and starts a new season from it. No page is wider than the phone."""

import io
import zipfile

import pytest

from campaign.models import Campaign
from tests.campaign.factories import CampaignFactory, MembershipFactory, UserFactory
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = 390


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE, page.url


def test_a_gm_exports_archives_and_starts_a_new_season(live_server, new_page):
    campaign = CampaignFactory(name="The Salt Road", slug="the-salt-road")
    MembershipFactory(campaign=campaign, user=UserFactory(username="gwen"), role="gm")
    page = new_page(width=PHONE)
    log_in(page, live_server.url, "gwen", "pass-word-123")
    page.goto(f"{live_server.url}/c/the-salt-road/")
    _fits(page)
    screenshot(page, "keep-campaign")

    with page.expect_download() as download:
        page.get_by_test_id("export-button").click()
    with open(download.value.path(), "rb") as exported:
        assert "muster-export.json" in zipfile.ZipFile(io.BytesIO(exported.read())).namelist()

    page.get_by_test_id("archive-button").click()
    page.wait_for_load_state("networkidle")
    assert "read only" in page.get_by_test_id("archived-banner").inner_text()
    page.goto(f"{live_server.url}/")
    assert page.get_by_test_id("campaign-list").count() == 0
    page.get_by_test_id("archived-link").click()
    page.wait_for_load_state("networkidle")
    page.get_by_role("link", name="The Salt Road").click()
    page.wait_for_load_state("networkidle")
    page.get_by_test_id("unarchive-button").click()
    page.wait_for_load_state("networkidle")
    assert page.get_by_test_id("archived-banner").count() == 0

    page.get_by_test_id("new-season-link").click()
    _fits(page)
    page.fill("[data-testid=new-season-form] input[name=name]", "The Salt Road II")
    page.click("[data-testid=new-season-form] button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert "The Salt Road II" in page.locator("h1").inner_text()
    assert Campaign.objects.filter(slug="the-salt-road-ii").exists()
    screenshot(page, "keep-campaign-new-season")
