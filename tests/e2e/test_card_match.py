"""Two players on two devices play a whole Command Dice match through the pages.

Neither page may ever show the other's secret dice choice while choices are hidden.
"""

import pytest

from cardgames.models import Match
from cardgames.services import SeatSpec, match_create
from tests.campaign.factories import CampaignFactory, MembershipFactory, UserFactory
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def other_seat_choice(page, me: int) -> str | None:
    """What my page shows of the other seat's choice while choices are hidden (None otherwise)."""
    view = page.get_by_test_id("view")
    if view.get_by_test_id("phase").inner_text() != "choose":
        return None
    return view.get_by_test_id(f"chosen-{1 - me}").inner_text()


def test_two_players_play_a_command_dice_match_to_the_end(live_server, new_page):
    campaign = CampaignFactory(name="Border Wars", slug="border-wars")
    players = []
    for name in ("amira", "bastian"):
        user = UserFactory(username=name)
        MembershipFactory(campaign=campaign, user=user)
        players.append(user)
    match = match_create(campaign=campaign, game="command-dice", actor=players[0], seed=4, title="Duel",
                         seats=[SeatSpec("amira", players[0]), SeatSpec("bastian", players[1])])
    url = f"{live_server.url}/c/{campaign.slug}/matches/{match.pk}/"
    pages = []
    for user in players:
        page = new_page()
        log_in(page, live_server.url, user.username, "pass-word-123")
        page.goto(url)
        pages.append(page)

    moves, polled = 0, False
    for _ in range(600):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        acted = False
        for seat, page in enumerate(pages):
            current = f'[data-testid="table"][data-version="{match.version}"]'
            if not page.locator(current).count():
                if polled:
                    page.reload()  # polling was proven once; reloading keeps the test quick
                else:
                    page.wait_for_selector(current, timeout=15_000)  # htmx polling, no reload
                    polled = True
            page.wait_for_selector(current, timeout=15_000)
            assert other_seat_choice(page, seat) in (None, "chosen", "—"), "a secret choice leaked"
            buttons = page.locator("button.action")
            if buttons.count():
                buttons.first.click()
                page.wait_for_selector(f'[data-testid="table"]:not([data-version="{match.version}"])', timeout=15_000)
                moves += 1
                acted = True
                match.refresh_from_db()
                if moves == 1:
                    screenshot(page, "command-dice-first-move")
        assert acted, "neither page offered a move"
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    for seat, page in enumerate(pages):
        page.wait_for_selector("text=The match is over", timeout=15_000)
        screenshot(page, f"command-dice-over-seat{seat}")
    assert moves == match.version
    assert polled
