"""Poor signal, nothing lost: a phone goes offline, reads the pages and the map it saw, makes a move at a table
and a movement order by tapping the tactical map, comes back, and both are applied exactly once; a move queued
for a table that moved on meanwhile comes back with its sentence."""

import json

import pytest

from campaign.models import IdempotentRequest, MoveOrder
from cardgames import selectors
from cardgames.models import Match
from cardgames.services import SeatSpec, match_act, match_create
from tests.campaign.factories import CampaignFactory, CommanderFactory, EventFactory, MembershipFactory, UserFactory
from tests.campaign.map_fixtures import make_army, make_map, ready
from tests.e2e.conftest import log_in, map_settled, on_map, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
RESULTS = "[data-testid=queue-results] li"


def controlled(page) -> None:
    """Wait until the service worker controls the page (from then on the phone keeps its pages and actions)."""
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                           timeout=15_000)


def test_a_move_and_an_order_made_offline_are_applied_once_and_a_stale_move_is_told(live_server, new_page):
    campaign = CampaignFactory(name="Border Wars", slug="border-wars")
    amira, bastian = UserFactory(username="amira"), UserFactory(username="bastian")
    for user in (amira, bastian):
        MembershipFactory(campaign=campaign, user=user)
    ready(EventFactory(campaign=campaign, name="Autumn Muster"))
    army = make_army(make_map(campaign), commander=CommanderFactory(campaign=campaign, player=amira), at=(4, 6),
                     name="Ford Guard")
    seats = [SeatSpec("amira", amira), SeatSpec("bastian", bastian)]
    played, stale = (match_create(campaign=campaign, game="command-dice", actor=amira, seed=seed, title=title,
                                  seats=seats) for seed, title in ((3, "Duel"), (4, "Rematch")))
    base = f"{live_server.url}/c/border-wars"

    page = new_page()
    log_in(page, live_server.url, "amira", "pass-word-123")
    page.goto(f"{base}/matches/{played.pk}/")
    controlled(page)
    # online, a stale move's answer (409) is swapped in like any other, so its sentence shows in the table
    assert page.evaluate("htmx.config.responseHandling.some((rule) => rule.code === '409' && rule.swap)")
    commander = army.commander
    for url in (f"{base}/commanders/{commander.pk}/", f"{base}/armies/", f"{base}/matches/{stale.pk}/",
                f"{base}/matches/{played.pk}/", f"{base}/map/"):
        page.goto(url)  # each page visited while the worker is in control is kept for offline reading
    page.get_by_test_id(f"list-army-{army.pk}").get_by_role("button").click()  # the army, on the map as drawn
    page.get_by_test_id("give-order").click()
    map_settled(page)
    for _ in range(2):  # back out to where it should go
        page.locator(".leaflet-control-zoom-out").click()
        map_settled(page)

    page.context.set_offline(True)
    page.wait_for_selector("[data-testid=offline-state]:text('You are offline')")
    page.evaluate("document.getElementById('tactical-map').scrollIntoView({block: 'end'})")  # below the banner
    page.mouse.click(*on_map(page, 20, 6))  # tap where it should go: no preview without the signal
    offline_preview = page.get_by_test_id("preview-offline")
    offline_preview.wait_for()
    assert "route and the arrival hour of Ford Guard will be worked out" in offline_preview.inner_text()
    page.get_by_test_id("confirm-order").click()  # the worker keeps the order with the map's idempotency key
    page.wait_for_selector("[data-testid=order-kept]")
    kept = "Order kept: it will be sent when the signal returns."
    assert page.get_by_test_id("order-kept").inner_text() == kept
    assert page.get_by_test_id("map-announce").inner_text() == kept
    page.wait_for_selector("[data-testid=queue-count]:text('1 action waiting to send')")
    assert "You are offline" in page.get_by_test_id("offline-state").inner_text()
    screenshot(page, "offline-map-order-kept-phone")
    for headers in ("{'Authorization': 'Token abc', 'X-CSRFToken': 'x', 'Idempotency-Key': 'token-client-01'}",
                    "{'X-CSRFToken': 'x'}"):  # a token client's order, one without a key: never kept
        sent = page.evaluate(f"() => fetch('/api/move-orders/', {{method: 'POST', headers: {headers}}})"
                             ".then(() => 'answered', () => 'failed')")
        assert sent == "failed"
    page.wait_for_selector("[data-testid=queue-count]:text('1 action waiting to send')")
    page.goto(f"{base}/commanders/{commander.pk}/")  # the phone's own copy of each page it visited
    assert commander.name in page.locator("h1").inner_text()
    page.goto(f"{base}/armies/")
    assert "Ford Guard" in page.content()
    page.goto(f"{base}/map/")  # the map page kept, and the data it draws itself from: the army is on it
    page.get_by_test_id(f"list-army-{army.pk}").wait_for()
    for match in (played, stale):
        page.goto(f"{base}/matches/{match.pk}/")
        page.wait_for_selector('[data-testid="table"][data-version="0"]')
        page.locator("button.action").first.click()
    page.wait_for_selector("[data-testid=queue-count]:text('3 actions waiting to send')")
    screenshot(page, "offline-queue-phone")
    assert not MoveOrder.objects.filter(army=army).exists()
    assert Match.objects.get(pk=played.pk).version == 0

    move = json.loads(selectors.match_table(match=stale, seat=1).actions[0][1])
    match_act(match_id=stale.pk, seat=1, action=move, user=bastian)  # the rematch's table moves on meanwhile

    page.context.set_offline(False)
    page.wait_for_selector(f"{RESULTS} >> nth=2", timeout=20_000)
    said = page.locator(RESULTS).all_inner_texts()
    screenshot(page, "offline-queue-sent-phone")
    assert said[0].startswith("Movement order: sent and applied (Orders sent: Ford Guard arrives at hour")
    assert said[1].startswith("Your move: sent and applied")
    assert said[2].startswith("Your move: not applied (The table moved on since your page was drawn: "
                              "your move was not played.")
    assert page.get_by_test_id("queue-count").inner_text() == ""

    page.evaluate("navigator.serviceWorker.controller.postMessage({type: 'replay'})")  # a second replay sends nothing
    page.reload()
    order = MoveOrder.objects.get(army=army)  # exactly one, planned by the server when it arrived
    assert (order.target_x, order.target_y) == (pytest.approx(20, abs=0.5), pytest.approx(6, abs=0.5))
    assert f"arrives at hour {order.arrival_hour}." in said[0]
    assert IdempotentRequest.objects.filter(user=amira, path="/api/move-orders/").count() == 1
    assert Match.objects.get(pk=played.pk).version == 1
    assert Match.objects.get(pk=stale.pk).version == 1  # bastian's move only
    assert IdempotentRequest.objects.filter(user=amira, path__endswith="/act/").count() == 2

    page.get_by_role("button", name="Log out").click()  # logging out forgets every page kept for amira
    page.wait_for_load_state("networkidle")
    kept = page.evaluate("caches.keys().then((names) => names.filter((name) => name.startsWith('muster-pages-')))")
    assert kept == []
