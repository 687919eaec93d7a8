"""Two commanders on two devices play a whole live Battle through the battle page.

Neither page may ever show the other commander's hand (the engine shows it only as a count), nor their
face-down card before the reveal; each page shows its own hand as cards.
"""

import pytest

from battles.models import Battle
from battles.services import battle_start
from cardgames.models import Match
from cardgames.registry import game_for
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
from tests.e2e.conftest import open_devices, play_to_the_end, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARMIES = {
    "amira": [("Red Lancers", 3, "Aggressor"), ("Red Bowmen", 2, "Savant"), ("Red Shields", 2, "Guardian")],
    "bastian": [("Blue Guards", 3, "Guardian"), ("Blue Slingers", 1, "Savant"), ("Blue Riders", 2, "Aggressor")],
}


def area_text(page, test_id: str) -> str:
    """What the page shows in one area of the battle table ("" when the page has none)."""
    area = page.get_by_test_id(test_id)
    return area.inner_text() if area.count() else ""


def seat_view(match: Match, seat: int) -> dict:
    """The engine's own view of the match for `seat` now."""
    engine = game_for(match.game)
    return engine.view(engine.load(match.state), seat)


def check_secrets(page, match: Match, seat: int) -> None:
    """The page shows all of its own hand, none of the other hand (a count only), and not the other
    commander's face-down card."""
    mine, theirs = seat_view(match, seat), seat_view(match, 1 - seat)
    hand = area_text(page, "hand")
    for card in mine["hand"]:
        assert card["name"] in hand, f"seat {seat}'s page did not show its own {card['name']}"
    shown = hand + area_text(page, "their-hand")
    for card in theirs["hand"]:
        assert card["name"] not in shown, f"seat {seat}'s page showed the other hand's {card['name']}"
    assert area_text(page, "their-hand").startswith(f"{len(theirs['hand'])} card")
    if mine["skirmish"]["offense"] == {"face_down": True}:
        hidden = theirs["skirmish"]["offense"]["name"]
        assert hidden not in area_text(page, "skirmish"), f"seat {seat}'s page showed the face-down {hidden}"
        assert page.get_by_test_id("face-down").count() == 1


def test_two_commanders_play_a_battle_to_the_end(live_server, new_page):
    campaign = CampaignFactory(name="Border Wars", slug="border-wars")
    gm = MembershipFactory(campaign=campaign, user=UserFactory(username="warden"), role="gm").user
    open_day(EventFactory(campaign=campaign, name="Spring Muster"))
    users, armies = [], []
    for name, units in ARMIES.items():
        user = MembershipFactory(campaign=campaign, user=UserFactory(username=name)).user
        commander = CommanderFactory(campaign=campaign, name=name.title(), player=user, level=2, power="Rogue")
        army = ArmyFactory(commander=commander, name=f"{name.title()}'s host")
        for unit_name, strength, role in units:
            UnitFactory(commander=commander, army=army,
                        unit_type=UnitTypeFactory(name=unit_name, strength=strength, role=role, path="Steel"))
        users.append(user)
        armies.append(army)
    battle = battle_start(attacker_army=armies[0], defender_army=armies[1], actor=gm, seed=12)
    match = battle.match
    url = f"{live_server.url}/c/{campaign.slug}/battles/{battle.pk}/"
    pages = open_devices(new_page, live_server.url, users, url)
    screenshot(pages[0], "battle-table-start-seat0")
    moves = play_to_the_end(match, pages, check=lambda page, seat: check_secrets(page, match, seat), rounds=200)
    screenshot(pages[0], "battle-table-last-move-seat0")
    match.refresh_from_db()
    battle.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert moves == match.version
    assert battle.status == Battle.Status.APPLIED  # the match_finished signal applied it
    for seat, page in enumerate(pages):
        page.wait_for_selector("text=The match is over", timeout=15_000)
        page.goto(url)
        assert page.get_by_test_id("result").count() == 1
        screenshot(page, f"battle-table-over-seat{seat}")
    assert battle.result["winner"] in (0, 1)
