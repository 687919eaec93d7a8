"""Muster is used from phones: every page of the demo campaign fits a 390-pixel screen, nothing sticking out
sideways (a form row that does not wrap, a select with a long option, a file input)."""

import pytest

from campaign.demo import DEMO_LOGINS, load_demo
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGES = ("", "commanders/", "armies/", "map/", "map/edit/", "clock/", "battles/", "battles/start/", "economy/",
         "catalogue/", "audit/", "chronicle/")


def test_every_demo_page_fits_a_phone(live_server, new_page):
    campaign, _ = load_demo()
    gm = new_page()
    log_in(gm, live_server.url, DEMO_LOGINS[0].username, DEMO_LOGINS[0].password)
    commanders = [f"commanders/{c.pk}/" for c in campaign.commanders.all()]
    wide = {}
    for path in (*PAGES, *commanders):
        gm.goto(f"{live_server.url}/c/{campaign.slug}/{path}")
        assert gm.title() != "Page not found", path
        if (width := gm.evaluate("document.documentElement.scrollWidth")) > 390:
            wide[path] = width
    assert wide == {}
