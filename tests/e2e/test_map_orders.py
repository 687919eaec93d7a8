"""A player orders a move on the map from a phone; the GM advances the clock by hand until the army arrives."""

import pytest

from campaign.map import services as map_services
from campaign.models import MoveOrder
from tests.campaign.factories import CampaignFactory, CommanderFactory, EventFactory, MembershipFactory, UserFactory
from tests.campaign.map_fixtures import make_army, make_map, ready
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_orders_a_move_and_the_gm_advances_the_clock_until_it_arrives(live_server, new_page):
    campaign = CampaignFactory(name="Border Wars", slug="border-wars")
    gm, player = UserFactory(username="gm"), UserFactory(username="amira")
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=player)
    ready(EventFactory(campaign=campaign, name="Autumn Muster"))
    board = make_map(campaign)
    map_services.terrain_region_create(tactical_map=board, name="Old Forest", kind="difficult",
                                       points=[[10, 2], [16, 2], [16, 12], [10, 12]], actor=None)
    army = make_army(board, commander=CommanderFactory(campaign=campaign, player=player), at=(4, 6),
                     name="Ford Guard")

    page = new_page()
    log_in(page, live_server.url, "amira", "pass-word-123")
    page.goto(f"{live_server.url}/c/border-wars/map/")
    wrap = page.locator("#map-wrap").bounding_box()
    page.mouse.click(wrap["x"] + wrap["width"] * 22 / 48, wrap["y"] + wrap["height"] * 6 / 36)
    assert abs(float(page.get_by_test_id("order-x").input_value()) - 22) < 0.2
    page.get_by_test_id("preview-order").click()
    page.wait_for_selector("[data-testid=arrival-hour]")
    promised = int(page.get_by_test_id("arrival-hour").inner_text())
    assert promised >= 6  # 18 inches, 6 of them through the forest at 2 inches an hour
    assert page.locator("#overlay polyline.preview-route").count() == 1
    screenshot(page, "map-order-preview-phone")
    assert not MoveOrder.objects.exists()  # nothing is ordered before the confirmation
    page.get_by_test_id("confirm-order").click()
    page.wait_for_selector(f"text=arrives at hour {promised}")
    assert MoveOrder.objects.get(status="active").arrival_hour == promised

    console = new_page()
    log_in(console, live_server.url, "gm", "pass-word-123")
    console.goto(f"{live_server.url}/c/border-wars/clock/")
    for hour in range(1, promised + 1):
        console.get_by_test_id("advance-hour").click()
        console.wait_for_selector(f"[data-testid=clock-hour]:text-is('{hour}')")
    screenshot(console, "map-clock-console-phone")
    order = MoveOrder.objects.get(army=army)
    assert (order.status, order.done_hour) == ("arrived", promised)
    arrived = f'[data-testid="army-{army.pk}"][data-x="{order.target_x:.2f}"][data-y="{order.target_y:.2f}"]'
    page.wait_for_selector(arrived, state="attached", timeout=15_000)  # htmx polling redrew it, no reload
    screenshot(page, "map-arrived-phone")
