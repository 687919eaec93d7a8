"""A game master on a phone (390 px) logs a table Battle with the sides swapped, sees it applied, reverses it with a
reason, logs the right result, and the audit trail and the chronicle say all of it in words (#15)."""

import pytest

from battles.models import Battle
from battles.services import battle_start
from campaign.models import Unit
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
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def enter(page, base: str, battle: Battle, *, winner: int, killed_seat: int, unit: Unit) -> None:
    """Fill the table Battle's form: one unit of `killed_seat` Killed, and `winner` won."""
    page.goto(f"{base}/c/{battle.campaign.slug}/battles/{battle.pk}/")
    page.get_by_test_id("enter-result").click()
    page.check(f"input[name=killed_{killed_seat}][value='{unit.pk}']")
    page.check(f"input[name=winner][value='{winner}']")
    fits(page)
    page.get_by_role("button", name="Enter the result").click()
    page.wait_for_load_state("networkidle")


def test_a_gm_reverses_a_wrong_winner_and_records_the_right_one(live_server, new_page):
    campaign = CampaignFactory(name="Border Wars", slug="border-wars")
    gm = MembershipFactory(campaign=campaign, user=UserFactory(username="warden"), role="gm").user
    open_day(EventFactory(campaign=campaign, name="Spring Muster"))
    armies, units = [], []
    for name in ("Amira", "Bastian"):
        commander = CommanderFactory(campaign=campaign, name=name, level=2, power="Evoker")
        army = ArmyFactory(commander=commander, name=f"{name}'s host")
        units.append(UnitFactory(commander=commander, army=army,
                                 unit_type=UnitTypeFactory(name=f"{name}'s Lancers", strength=3, role="Aggressor")))
        UnitFactory(commander=commander, army=army, unit_type=UnitTypeFactory(name=f"{name}'s Shields", strength=2))
        armies.append(army)
    battle = battle_start(attacker_army=armies[0], defender_army=armies[1], mode=Battle.Mode.LOGGED, actor=gm)
    phone = new_page()
    log_in(phone, live_server.url, "warden", "pass-word-123")

    enter(phone, live_server.url, battle, winner=1, killed_seat=0, unit=units[0])  # the sides swapped
    assert "Applied to the campaign" in phone.get_by_test_id("battle-status").inner_text()
    assert Unit.objects.get(pk=units[0].pk).state == Unit.State.KILLED

    phone.get_by_text("Reverse this result").first.click()
    phone.get_by_test_id("reversal-reason").fill("Wrong winner: the sides were swapped at the table")
    phone.get_by_test_id("reversal-confirm").check()
    fits(phone)
    screenshot(phone, "battle-reversal-form")
    phone.get_by_test_id("reversal-submit").click()
    phone.wait_for_load_state("networkidle")
    assert "Being fought at a table" in phone.get_by_test_id("battle-status").inner_text()
    reversed_note = phone.get_by_test_id("reversed").inner_text()
    assert f"Battle #{battle.pk}, Amira against Bastian was reversed by warden" in reversed_note
    assert Unit.objects.get(pk=units[0].pk).state == Unit.State.IN_ARMY

    enter(phone, live_server.url, battle, winner=0, killed_seat=1, unit=units[1])
    assert "Applied to the campaign" in phone.get_by_test_id("battle-status").inner_text()
    battle.refresh_from_db()
    assert battle.result["winner"] == 0
    assert Unit.objects.get(pk=units[0].pk).state == Unit.State.IN_ARMY
    assert Unit.objects.get(pk=units[1].pk).state == Unit.State.KILLED
    screenshot(phone, "battle-reversal-right-result")

    phone.goto(f"{live_server.url}/c/{campaign.slug}/audit/?kind=battle")
    trail = phone.locator("main").inner_text()
    label = f"Battle #{battle.pk}, Amira against Bastian"
    assert (f"warden (game master) reversed the applied result of {label}: Wrong winner: the sides were swapped "
            "at the table.") in trail
    assert trail.count("warden (game master) applied the result of Amira against Bastian") == 2
    assert trail.count("warden (game master) entered the result of Amira against Bastian") == 2
    fits(phone)
    screenshot(phone, "battle-reversal-audit")

    phone.goto(f"{live_server.url}/c/{campaign.slug}/chronicle/")
    chronicle = phone.locator("main").inner_text()
    assert f"A game master reversed {label}: Wrong winner: the sides were swapped at the table." in chronicle
    assert chronicle.count("Amira attacked Bastian") == 1, "the Battle once, with the result that stands"
    assert "Amira won" in chronicle
    assert chronicle.count("was Killed") == 1, "the death the reversal undid is not told"
    assert "Bastian's Lancers was Killed" in chronicle
    fits(phone)
    screenshot(phone, "battle-reversal-chronicle")
