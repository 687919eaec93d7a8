"""Poor signal, nothing lost: a phone goes offline, makes a move and a movement order, comes back, and both are
applied exactly once; a move queued for a table that moved on meanwhile comes back with its sentence."""

import json

import pytest

from campaign.models import IdempotentRequest, MoveOrder
from cardgames import selectors
from cardgames.models import Match
from cardgames.services import SeatSpec, match_act, match_create
from tests.campaign.factories import CampaignFactory, CommanderFactory, EventFactory, MembershipFactory, UserFactory
from tests.campaign.map_fixtures import make_army, make_map, ready
from tests.e2e.conftest import log_in, screenshot

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
    page.get_by_test_id("order-x").fill("20")
    page.get_by_test_id("order-y").fill("6")
    page.get_by_test_id("preview-order").click()
    page.wait_for_selector("[data-testid=confirm-order]")

    page.context.set_offline(True)
    page.get_by_test_id("confirm-order").click()  # the worker keeps it and shows the kept map page again
    page.wait_for_selector("[data-testid=queue-count]:text('1 action waiting to send')")
    assert "You are offline" in page.get_by_test_id("offline-state").inner_text()
    page.goto(f"{base}/commanders/{commander.pk}/")  # the phone's own copy of each page it visited
    assert commander.name in page.locator("h1").inner_text()
    page.goto(f"{base}/armies/")
    assert "Ford Guard" in page.content()
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
    assert MoveOrder.objects.filter(army=army).count() == 1
    assert Match.objects.get(pk=played.pk).version == 1
    assert Match.objects.get(pk=stale.pk).version == 1  # bastian's move only
    assert IdempotentRequest.objects.filter(user=amira, path__endswith="/act/").count() == 2

    page.get_by_role("button", name="Log out").click()  # logging out forgets every page kept for amira
    page.wait_for_load_state("networkidle")
    kept = page.evaluate("caches.keys().then((names) => names.filter((name) => name.startsWith('muster-pages-')))")
    assert kept == []
