"""Two players on two devices play a whole Command Dice match through the pages.

Neither page may ever show the other's secret dice choice while choices are hidden.
"""

import pytest

from cardgames.models import Match
from tests.e2e.conftest import duel_on_two_phones, play_to_the_end, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def other_seat_choice(page, me: int) -> str | None:
    """What my page shows of the other seat's choice while choices are hidden (None otherwise)."""
    view = page.get_by_test_id("view")
    if view.get_attribute("data-phase") != "choose":
        return None
    return view.get_by_test_id(f"chosen-{1 - me}").inner_text()


def test_two_players_play_a_command_dice_match_to_the_end(live_server, new_page):
    match, pages = duel_on_two_phones(new_page, live_server.url, "command-dice", seed=4)

    def no_leak(page, seat):
        assert other_seat_choice(page, seat) in (None, "chosen", "—"), "a secret choice leaked"

    moves = play_to_the_end(match, pages, check=no_leak)
    screenshot(pages[0], "command-dice-last-move")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    for seat, page in enumerate(pages):
        page.wait_for_selector("text=The match is over", timeout=15_000)
        screenshot(page, f"command-dice-over-seat{seat}")
    assert moves == match.version
