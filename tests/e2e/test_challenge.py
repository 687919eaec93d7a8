"""Players start an encounter on their own, on two phones: Bastian challenges Amira to Command Dice for 10
lunari each, Amira accepts, and both see the table with the stakes held in escrow."""

import pytest

from campaign.economy.ledger import ledger_purse_balance
from cardgames.models import Challenge, Match
from tests.campaign.factories import CampaignFactory, CommanderFactory, MembershipFactory, UserFactory
from tests.e2e.conftest import open_devices, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STAKE = 10


def fits_the_phone(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page is too wide"


def test_bastian_challenges_amira_and_amira_accepts(live_server, new_page):
    campaign = CampaignFactory(name="Border Wars", slug="border-wars")
    users, commanders = [], []
    for name, commander in (("bastian", "Bastian of the Marches"), ("amira", "Amira bint Khalid")):
        user = UserFactory(username=name)
        MembershipFactory(campaign=campaign, user=user)
        users.append(user)
        commanders.append(CommanderFactory(campaign=campaign, name=commander, player=user, lunari=50))
    url = f"{live_server.url}/c/{campaign.slug}/matches/"
    bastian, amira = open_devices(new_page, live_server.url, users, url)

    form = bastian.get_by_test_id("challenge-form")
    form.get_by_label("Challenge").select_option(label="Amira bint Khalid")
    form.get_by_label("Game").select_option("command-dice")
    form.get_by_label("Stake (lunari)").fill(str(STAKE))
    fits_the_phone(bastian)
    screenshot(bastian, "challenge-send")
    form.get_by_role("button", name="Send the challenge").click()
    assert "waiting for an answer" in bastian.get_by_test_id("challenge-sent").inner_text()

    amira.reload()
    received = amira.get_by_test_id("challenge-received")
    assert "Bastian of the Marches challenges Amira bint Khalid" in received.inner_text()
    fits_the_phone(amira)
    screenshot(amira, "challenge-received")
    received.get_by_role("button", name="Accept").click()
    amira.wait_for_url("**/matches/*/")

    match = Match.objects.get()
    assert Challenge.objects.get().match == match
    assert [ledger_purse_balance(commander=c) for c in commanders] == [50 - STAKE, 50 - STAKE]
    bastian.goto(url)
    bastian.get_by_test_id("playing").get_by_role("link").click()
    for page in (bastian, amira):
        assert "held in escrow" in page.get_by_test_id("stakes").inner_text()
        assert page.get_by_test_id("phase").inner_text() == "Choosing dice in secret"
        fits_the_phone(page)
    screenshot(amira, "challenge-accepted-table")
