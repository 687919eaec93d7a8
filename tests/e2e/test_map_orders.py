"""The interactive map on a 390 px phone: a player zooms to their army and orders it by tapping; the GM advances
the clock until it arrives (announced without a reload); a GM finds a Battle due on the map and starts it; the
map's data never holds another player's hidden army."""

import json

import pytest

from campaign.map import services as map_services
from campaign.map.hour import event_hour_process
from campaign.models import DueBattle, MoveOrder, Reveal
from tests.campaign.factories import CampaignFactory, CommanderFactory, EventFactory, MembershipFactory, UserFactory
from tests.campaign.map_fixtures import make_army, make_map, ready
from tests.e2e.conftest import log_in, map_settled, on_map, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HIDDEN = "Shadow Legion of Vashti"


@pytest.fixture
def border_wars():
    campaign = CampaignFactory(name="Border Wars", slug="border-wars")
    gm, amira, bastian = UserFactory(username="gm"), UserFactory(username="amira"), UserFactory(username="bastian")
    MembershipFactory(campaign=campaign, user=gm, role="gm")
    MembershipFactory(campaign=campaign, user=amira)
    MembershipFactory(campaign=campaign, user=bastian)
    event = ready(EventFactory(campaign=campaign, name="Autumn Muster"))
    board = make_map(campaign)
    map_services.terrain_region_create(tactical_map=board, name="Old Forest", kind="difficult",
                                       points=[[10, 2], [16, 2], [16, 12], [10, 12]], actor=None)
    map_services.location_create(tactical_map=board, name="Stone Bridge", size="town", x=30, y=20, actor=None)
    ford = make_army(board, commander=CommanderFactory(campaign=campaign, player=amira, name="Amira"), at=(4, 6),
                     name="Ford Guard")
    hidden = make_army(board, commander=CommanderFactory(campaign=campaign, player=bastian, name="Bastian"),
                       at=(40, 30), name=HIDDEN)
    return {"event": event, "map": board, "ford": ford, "hidden": hidden}


def test_a_player_zooms_to_their_army_orders_it_by_tapping_and_hears_it_arrive(live_server, new_page, border_wars):
    ford = border_wars["ford"]
    page = new_page()
    log_in(page, live_server.url, "amira", "pass-word-123")
    page.goto(f"{live_server.url}/c/border-wars/map/")
    page.get_by_test_id(f"list-army-{ford.pk}").get_by_role("button").click()  # the list zooms to the army
    map_settled(page)
    zoom = page.evaluate("() => document.getElementById('tactical-map').leafletMap.getZoom()")
    assert zoom > page.evaluate("() => document.getElementById('tactical-map').leafletMap.getMinZoom()") + 2
    page.mouse.click(*on_map(page, 4, 6))  # tap the army itself
    page.get_by_test_id("give-order").click()
    page.locator(".leaflet-control-zoom-out").click()
    map_settled(page)
    page.locator(".leaflet-control-zoom-out").click()
    map_settled(page)
    page.mouse.click(*on_map(page, 22, 6))  # tap where it should go
    page.wait_for_selector("[data-testid=arrival-hour]")
    promised = int(page.get_by_test_id("arrival-hour").inner_text())
    assert promised >= 6  # 18 inches, 6 of them through the forest at 2 inches an hour
    assert page.locator("path.preview-route").count() == 1
    screenshot(page, "map-order-preview-phone")
    assert not MoveOrder.objects.exists()  # nothing is ordered before the confirmation
    page.get_by_test_id("confirm-order").click()
    page.wait_for_selector(f"[data-testid=order-sent]:has-text('arrives at hour {promised}')")
    order = MoveOrder.objects.get(status="active")
    assert (order.arrival_hour, order.target_x, order.target_y) == (promised, pytest.approx(22, abs=0.5),
                                                                     pytest.approx(6, abs=0.5))
    page.wait_for_selector(f"[data-testid=list-army-{ford.pk}]:has-text('arrives at hour {promised}')")
    screenshot(page, "map-order-sent-phone")

    for hour in range(1, promised + 1):
        event_hour_process(event=border_wars["event"], hour=hour)
    page.wait_for_selector("[data-testid=map-announce]:has-text('Ford Guard arrived')", state="attached",
                           timeout=15_000)  # the poll brought the new version, no reload
    assert page.get_by_test_id(f"list-army-{ford.pk}").inner_text().count("arrives") == 0
    data = json.loads(page.evaluate("() => fetch(document.getElementById('tactical-map').dataset.src)"
                                    ".then(r => r.text())"))["map"]
    assert HIDDEN not in json.dumps(data)
    assert {a["id"] for a in data["armies"]} == {ford.pk}
    screenshot(page, "map-arrived-phone")


def test_a_gm_finds_a_battle_due_on_the_map_and_starts_it_there(live_server, new_page, border_wars):
    ford, hidden = border_wars["ford"], border_wars["hidden"]
    from campaign.map import armies

    armies.army_place(army=hidden, tactical_map=border_wars["map"], x=5, y=6, actor=None)
    event_hour_process(event=border_wars["event"], hour=1)
    due = DueBattle.objects.get(status="due")
    page = new_page()
    log_in(page, live_server.url, "gm", "pass-word-123")
    page.goto(f"{live_server.url}/c/border-wars/map/")
    page.wait_for_selector("[data-testid=list-battles] li:has-text('due')")
    screenshot(page, "map-gm-battle-due-phone")
    page.get_by_test_id(f"list-army-{ford.pk}").get_by_role("button").click()  # the GM reveals an army from the map
    panel = page.get_by_test_id("map-panel")
    panel.locator("select[name=to_commander]").select_option(label="Bastian")
    panel.get_by_role("button", name="Reveal").click()
    page.wait_for_selector("[data-testid=map-announce]:has-text('Revealed')", state="attached")
    assert Reveal.objects.filter(army=ford, to_commander__name="Bastian", what="position").exists()
    panel.get_by_role("button", name="Close").click()  # else the next poll redraws the panel and the page shifts
    map_settled(page)
    x, y = on_map(page, due_x := (ford.x + 5) / 2, 6)
    assert due_x == 4.5
    page.mouse.click(x, y - 26)  # the Battle's marker stands above the spot
    page.wait_for_selector("[data-testid=map-panel] h2:has-text('Battle due')")
    assert "Ford Guard" in page.get_by_test_id("battle-sides").inner_text()
    page.get_by_test_id("map-panel").get_by_test_id("start-battle").click()
    page.wait_for_url(f"**/battles/start/?due={due.pk}")
    page.get_by_role("button", name="Commit to the Battle").click()
    page.wait_for_selector("text=The Battle has begun")
    from battles.models import Battle

    assert Battle.objects.get().due_battle_id == due.pk


def test_a_keyboard_alone_orders_an_army_to_a_location_from_the_list(live_server, new_page, border_wars):
    ford = border_wars["ford"]
    page = new_page()
    log_in(page, live_server.url, "amira", "pass-word-123")
    page.goto(f"{live_server.url}/c/border-wars/map/")
    page.get_by_test_id(f"list-army-{ford.pk}").get_by_role("button").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=map-panel]:focus")  # the panel, where the army's actions are
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.testid") == "give-order"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.name") == "location"  # Stone Bridge, the only one
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=arrival-hour]")
    page.get_by_test_id("confirm-order").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=order-sent]")
    assert page.get_by_test_id("map-announce").inner_text().startswith("Orders sent: Ford Guard arrives at hour")
    order = MoveOrder.objects.get(status="active")
    assert (order.kind, order.target_location.name) == ("location", "Stone Bridge")
