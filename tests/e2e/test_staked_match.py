"""A staked encounter played to its end on two phones: the winner's commander takes the loser's stake,
and the escrow account is empty again afterwards."""

import pytest

from campaign.economy.ledger import ledger_purse_balance, ledger_system_account
from campaign.models import Account
from cardgames.models import Match
from cardgames.services import SeatSpec, match_create
from tests.campaign.factories import CampaignFactory, CommanderFactory, MembershipFactory, UserFactory
from tests.e2e.conftest import open_devices, play_to_the_end, screenshot
from tests.e2e.test_card_match import other_seat_choice

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STAKE = 30


def test_a_staked_command_dice_battle_pays_the_winner(live_server, new_page):
    campaign = CampaignFactory(name="Border Wars", slug="border-wars")
    gm = MembershipFactory(campaign=campaign, role="gm", user=UserFactory(username="gm")).user
    users, commanders = [], []
    for name, commander, lunari in (("amira", "Amira bint Khalid", 100), ("bastian", "Bastian of the Marches", 40)):
        user = UserFactory(username=name)
        MembershipFactory(campaign=campaign, user=user)
        users.append(user)
        commanders.append(CommanderFactory(campaign=campaign, name=commander, player=user, lunari=lunari))
    match = match_create(campaign=campaign, game="command-dice", actor=gm, seed=8, title="A wager in a tavern",
                         seats=[SeatSpec(u.username, u, commander=c, stake=STAKE)
                                for u, c in zip(users, commanders, strict=True)])
    escrow = ledger_system_account(campaign=campaign, kind=Account.Kind.ESCROW)
    assert escrow.balance == 2 * STAKE
    url = f"{live_server.url}/c/{campaign.slug}/matches/{match.pk}/"
    pages = open_devices(new_page, live_server.url, users, url)
    assert "held in escrow" in pages[0].get_by_test_id("stakes").inner_text()
    screenshot(pages[0], "staked-match-start-seat0")

    shots: set[str] = set()

    def no_leak(page, seat):
        assert other_seat_choice(page, seat) in (None, "chosen", "—"), "a secret choice leaked"

    def full_fist_then_any(page, buttons):
        """A full fist when choosing, then any allocation; one screenshot of each screen per seat."""
        phase = page.get_by_test_id("view").get_attribute("data-phase")
        seat = pages.index(page)
        shot = f"staked-match-{phase}-seat{seat}"
        if shot not in shots and (phase == "choose" or buttons.count() > 1):
            screenshot(page, shot)
            shots.add(shot)
        return buttons.last if phase == "choose" else buttons.first

    play_to_the_end(match, pages, check=no_leak, choose=full_fist_then_any)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    winner = match.result["winner"]
    for seat, page in enumerate(pages):
        page.wait_for_selector("text=The match is over", timeout=15_000)
        assert f"paid to {commanders[winner]}" in page.get_by_test_id("stakes").inner_text()
        screenshot(page, f"staked-match-over-seat{seat}")
    start = [100, 40]
    assert ledger_purse_balance(commander=commanders[winner]) == start[winner] + STAKE
    assert ledger_purse_balance(commander=commanders[1 - winner]) == start[1 - winner] - STAKE
    escrow.refresh_from_db()
    assert escrow.balance == 0
    assert sum(Account.objects.filter(campaign=campaign).values_list("balance", flat=True)) == 0
