"""Desktop (#17 item 5): from 1024 px the commander page stands in three columns (purse and units; upkeep,
recruiting and funding; the ledger) and a card table keeps its log beside it; on a phone both stay one column."""

import pytest

from campaign.demo import DEMO_LOGINS, load_demo
from campaign.models import Commander
from cardgames.demo import load_demo_matches
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _left(page, selector: str) -> float:
    return page.locator(selector).first.bounding_box()["x"]


@pytest.mark.parametrize(("width", "columns"), [(390, 1), (1024, 3), (1280, 3)])
def test_the_commander_page_and_a_card_table_use_the_width(live_server, new_page, width, columns):
    campaign, _ = load_demo()
    match = load_demo_matches(campaign=campaign)[0]
    amira_login = DEMO_LOGINS[1]
    amira = Commander.objects.get(campaign=campaign, player__username=amira_login.username)
    page = new_page(width=width)
    log_in(page, live_server.url, amira_login.username, amira_login.password)
    page.goto(f"{live_server.url}/c/{campaign.slug}/commanders/{amira.pk}/")
    lefts = {_left(page, section) for section in ("#units", "#recruit", "#ledger")}
    assert len(lefts) == columns, lefts
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    page.goto(f"{live_server.url}/c/{campaign.slug}/matches/{match.pk}/")
    log, table = page.locator(".table-log").bounding_box(), page.locator(".table-main").bounding_box()
    if columns == 1:
        assert log["y"] > table["y"] + table["height"] - 1  # below the table
    else:
        assert log["x"] > table["x"] + table["width"]  # beside it
        assert abs(log["y"] - table["y"]) < 2
