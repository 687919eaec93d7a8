"""A new player at each game's table on a 390 px phone (#17 item 4): the keyboard opens "What now?", which says
what the phase asks in the glossary's words; a tap opens what the moves on offer do without moving a single
button; both questions are at least 24 px to tap; and help a player opened stays open while the table redraws
after the other side's move; axe finds nothing with the help open. The rules page filters as one types and fits
a phone and a desktop."""

from __future__ import annotations

import json

import pytest

from battles.services import battle_start
from cardgames import rules_help
from cardgames.registry import ENGINES, game_for
from gamekit.glossary import action_key
from tests.campaign.factories import (
    ArmyFactory,
    CampaignFactory,
    CommanderFactory,
    EventFactory,
    MembershipFactory,
    UnitFactory,
    UnitTypeFactory,
    UserFactory,
    open_day,
)
from tests.e2e.conftest import duel_on_two_phones, log_in, open_devices, screenshot
from tests.e2e.test_accessibility import _axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARMIES = {
    "amira": ("Evoker", [("Red Lancers", 3, "Aggressor"), ("Red Shields", 2, "Guardian")]),
    "bastian": ("Rogue", [("Blue Guards", 3, "Guardian"), ("Blue Riders", 2, "Aggressor")]),
}


def battle_on_two_phones(new_page, base_url: str):
    """A live Battle between amira (an Evoker) and bastian (a Rogue), open on one phone each."""
    campaign = CampaignFactory(name="Border Wars", slug="border-wars")
    gm = MembershipFactory(campaign=campaign, user=UserFactory(username="warden"), role="gm").user
    open_day(EventFactory(campaign=campaign, name="Spring Muster"))
    users, armies = [], []
    for name, (power, units) in ARMIES.items():
        user = MembershipFactory(campaign=campaign, user=UserFactory(username=name)).user
        commander = CommanderFactory(campaign=campaign, name=name.title(), player=user, level=2, power=power)
        army = ArmyFactory(commander=commander, name=f"{name.title()}'s host")
        for unit_name, strength, role in units:
            UnitFactory(commander=commander, army=army,
                        unit_type=UnitTypeFactory(name=unit_name, strength=strength, role=role, path="Steel"))
        users.append(user)
        armies.append(army)
    battle = battle_start(attacker_army=armies[0], defender_army=armies[1], actor=gm, seed=12)
    return battle.match, open_devices(new_page, base_url, users, f"{base_url}/c/{campaign.slug}/battles/{battle.pk}/")


def seat_view(match, seat: int) -> dict:
    match.refresh_from_db()
    engine = game_for(match.game)
    return engine.view(engine.load(match.state), seat)


def button_boxes(page) -> list[list[float]]:
    """Where each move button is on the page (not in the viewport, which scrolls)."""
    return page.evaluate("""[...document.querySelectorAll('button.action')].filter(b => b.offsetParent).map(b => {
        const r = b.getBoundingClientRect(); return [r.x + scrollX, r.y + scrollY, r.width, r.height]; })""")


def big_enough(locator) -> None:
    box = locator.bounding_box()
    assert box["height"] >= 24, f"{locator} is {box['height']} px high"
    assert box["width"] >= 24, f"{locator} is {box['width']} px wide"


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_a_new_player_opens_the_help_for_the_phase_and_the_moves(live_server, new_page, game):
    if game == "army-combat":
        match, pages = battle_on_two_phones(new_page, live_server.url)
    else:
        match, pages = duel_on_two_phones(new_page, live_server.url, game, seed=5)
    seat = next(s for s, page in enumerate(pages) if page.locator("button.action").count())
    page, other = pages[seat], pages[1 - seat]
    view = seat_view(match, seat)

    what_now = page.get_by_test_id("phase-help")
    question = what_now.locator("summary")
    big_enough(question)
    question.focus()
    page.keyboard.press("Enter")
    assert what_now.get_attribute("open") is not None, "Enter opens What now?"
    assert rules_help.phase_term(game, view).text in what_now.inner_text()

    moves = page.get_by_test_id("moves-help")
    big_enough(moves.locator("summary"))
    before = button_boxes(page)
    moves.locator("summary").click()
    assert button_boxes(page) == before, "opening the moves' help moves no button"
    first = json.loads(page.locator("button.action").first.get_attribute("data-action"))
    term = rules_help.terms_by_key(game)[action_key(first)]
    assert term.text in moves.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the help is too wide"
    words = page.get_by_test_id("words-help")  # the words on the table (Command Dice has its fist's help instead)
    for question in words.locator("summary").all():
        question.click()
    page.evaluate("window.scrollTo(0, 0)")  # as the accessibility test reads pages: no button under the top bar
    assert _axe_violations(page) == [], "the table with its help open passes axe"
    screenshot(page, f"rules-help-{game}-390")

    other.get_by_test_id("phase-help").locator("summary").click()
    version = match.version
    page.locator("button.action:visible").first.click()
    other.wait_for_selector(f'[data-testid="table"]:not([data-version="{version}"])', timeout=15_000)
    assert other.get_by_test_id("phase-help").get_attribute("open") is not None, "help stays open on a redraw"


def test_the_rules_page_filters_as_one_types(live_server, new_page):
    user = UserFactory(username="newcomer")
    for width in (390, 1280):
        page = new_page(width=width)
        log_in(page, live_server.url, user.username, "pass-word-123")
        page.get_by_test_id("rules-link").click()
        page.wait_for_selector("#army-combat-morale")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"too wide at {width}"
        screenshot(page, f"rules-glossary-{width}")
        page.fill("#glossary-q", "fair escape")
        assert page.locator("#army-combat-fair-escape").is_visible()
        assert not page.locator("#army-combat-morale").is_visible()
        assert not page.get_by_test_id("section-unity").is_visible()
        assert not page.get_by_role("link", name="Unity", exact=True).is_visible(), "no link to a hidden game"
        assert "terms match “fair escape”" in page.get_by_test_id("glossary-count").inner_text()
        assert page.url.endswith("?q=fair+escape")
        page.fill("#glossary-q", "")
        assert page.locator("#army-combat-morale").is_visible()
