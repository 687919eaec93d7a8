"""Unholy War, Squad Combat and Unity on two phones: the table fits a 390px screen, each page's hand is
exactly that seat's hand (the page tests check nothing of the other hand shows), and a few moves made by
tapping the buttons reach the other device by polling."""

import pytest

from cardgames.models import Match
from cardgames.registry import game_for
from tests.cardgames.test_game_layouts import HAND_NAMES
from tests.e2e.conftest import duel_on_two_phones, play_to_the_end, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def my_hand(match: Match, seat: int) -> set[str]:
    """The card names in the seat's hand, from the engine's state now."""
    match.refresh_from_db()
    return set(HAND_NAMES[match.game](game_for(match.game).load(match.state), seat))


@pytest.mark.parametrize("game", sorted(HAND_NAMES))
def test_a_few_moves_on_two_phones(live_server, new_page, game):
    match, pages = duel_on_two_phones(new_page, live_server.url, game, seed=5)

    def fits_and_shows_my_hand(page, seat):
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the table is too wide"
        shown = {card.get_attribute("data-card") for card in page.locator('[data-testid="hand"] [data-card]').all()}
        assert shown == my_hand(match, seat)

    def first_shown(page, buttons):  # rarer moves sit in folded groups
        return page.locator("button.action:visible").first

    play_to_the_end(match, pages, check=fits_and_shows_my_hand, choose=first_shown, rounds=4)
    for seat, page in enumerate(pages):
        screenshot(page, f"{game}-seat{seat}")
