"""A player forms, splits and merges armies from a phone, and learns why two armies apart cannot merge."""

import pytest

from campaign.models import Army
from tests.campaign.factories import (
    CampaignFactory,
    CommanderFactory,
    EventFactory,
    MembershipFactory,
    UnitFactory,
    UnitTypeFactory,
    UserFactory,
)
from tests.campaign.map_fixtures import make_army, make_map, ready
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_forms_splits_and_merges_armies_on_a_phone(live_server, new_page):
    campaign = CampaignFactory(name="Border Wars", slug="border-wars")
    player = UserFactory(username="amira")
    MembershipFactory(campaign=campaign, user=player)
    ready(EventFactory(campaign=campaign, name="Autumn Muster"))
    board = make_map(campaign)
    amira = CommanderFactory(campaign=campaign, player=player, name="Amira")
    guard = make_army(board, commander=amira, at=(5, 5), name="Ford Guard")
    riders = make_army(board, commander=amira, at=(11, 5), units=2, traits=["Fast"], name="Bastian's Riders")
    outriders = UnitTypeFactory(name="Outriders", strength=3, traits=["Fast"])
    for _ in range(3):
        UnitFactory(commander=amira, unit_type=outriders)

    page = new_page()
    log_in(page, live_server.url, "amira", "pass-word-123")
    page.goto(f"{live_server.url}/c/border-wars/map/")
    page.get_by_test_id("armies-link").click()
    page.wait_for_selector(f"[data-testid=army-{guard.pk}]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing sticks out sideways

    form = page.get_by_test_id(f"form-army-{amira.pk}")
    for box in form.locator("input[type=checkbox]").all():
        box.check()
    page.get_by_test_id(f"form-name-{amira.pk}").fill("Vanguard")
    page.get_by_test_id(f"form-{amira.pk}").click()
    page.wait_for_selector("text=Vanguard is formed")
    vanguard = Army.objects.get(name="Vanguard")
    assert vanguard.units.count() == 3

    page.locator(f"[data-testid=army-{guard.pk}] summary", has_text="Split").click()
    page.locator(f"[data-testid=army-{guard.pk}] input[name=units]").first.check()
    page.get_by_test_id(f"split-name-{guard.pk}").fill("Scouts")
    page.get_by_test_id(f"split-{guard.pk}").click()
    page.wait_for_selector("text=Scouts splits off from Ford Guard")
    assert Army.objects.get(name="Scouts").units.count() == 1

    page.locator(f"[data-testid=army-{riders.pk}] summary", has_text="Merge").click()
    page.get_by_test_id(f"merge-into-{riders.pk}").select_option(str(guard.pk))
    page.get_by_test_id(f"merge-{riders.pk}").click()
    page.wait_for_selector("text=Bastian's Riders is 6 inches from Ford Guard")
    assert Army.objects.filter(pk=riders.pk).exists()
    page.locator(f"[data-testid=army-{guard.pk}] summary", has_text="Merge").click()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.evaluate("window.scrollTo(0, 0)")  # the sticky top bar stays at the top of the full-page picture
    screenshot(page, "armies-phone")
