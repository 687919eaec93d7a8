"""Pushed updates in a real browser against the real ASGI server: two phones at one table see each other's moves
without polling (the socket says "changed", the page fetches its own view), and the socket carries nothing but
topics and versions. Several game masters: one claims a Battle due (or an encounter) and the other's console (or
match list) shows it live."""

from __future__ import annotations

import json

import pytest

from campaign.models import DueBattle
from cardgames.services import SeatSpec, match_create
from tests.campaign.factories import ArmyFactory, CommanderFactory, EventFactory, MembershipFactory, UserFactory
from tests.e2e.conftest import duel_on_two_phones, log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _watch(page) -> dict:
    """Counts of the page's table fetches and every socket frame it received."""
    seen: dict = {"table_requests": 0, "frames": []}
    page.on("request", lambda r: seen.__setitem__("table_requests", seen["table_requests"] + ("/table/" in r.url)))
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: seen["frames"].append(frame)))
    return seen


def test_two_phones_at_one_table_see_each_others_moves_without_polling(asgi_server, new_page):
    match, pages = duel_on_two_phones(new_page, asgi_server, "command-dice", seed=4)
    watched = [_watch(page) for page in pages]
    for page in pages:
        page.reload()
        page.wait_for_selector("body[data-live=open]", timeout=10_000)
    pages[0].wait_for_timeout(4500)  # the poll runs every 2 s when there is no socket
    assert [w["table_requests"] for w in watched] == [0, 0], "no polling while the socket is open"
    for mover in (0, 1):
        match.refresh_from_db()
        version = match.version
        pages[mover].locator("button.action").first.click()
        for page in pages:
            page.wait_for_selector(f'[data-testid="table"][data-version="{version + 1}"]', timeout=3_000)
    settled = [w["table_requests"] for w in watched]
    for w in watched:  # each fetch answered a message (one's own move may be heard before its answer is drawn)
        assert 1 <= w["table_requests"] <= len(w["frames"]) == 2
    pages[0].wait_for_timeout(4500)
    assert [w["table_requests"] for w in watched] == settled, "still no polling"
    screenshot(pages[1], "live-table-after-two-moves")
    for w in watched:
        assert w["frames"], "the moves came over the socket"
        for frame in w["frames"]:
            assert set(json.loads(frame)) == {"topic", "version"}, "a socket frame carries no game content"
            assert json.loads(frame)["topic"] == f"match.{match.pk}"


@pytest.mark.parametrize("what", ["battle", "match"])
def test_a_claim_by_one_game_master_shows_on_the_others_phone_at_once(asgi_server, new_page, what):
    """A Battle due claimed on the clock console, or an encounter on the match list."""
    gms = [UserFactory(username=name) for name in ("gm-a", "gm-b")]
    campaign = None
    for gm in gms:
        membership = MembershipFactory(user=gm, role="gm", **({"campaign": campaign} if campaign else {}))
        campaign = membership.campaign
    event = EventFactory(campaign=campaign, name="Summer Muster")
    commanders = [CommanderFactory(campaign=campaign, name=n, player=UserFactory(username=n.lower()))
                  for n in ("Amira", "Bastian")]
    armies = [ArmyFactory(commander=commander, name=f"{commander.name}'s host") for commander in commanders]
    due = DueBattle.objects.create(event=event, hour=1, first=armies[0], second=armies[1])
    match_create(campaign=campaign, game="command-dice", actor=gms[0], seed=3, title="Duel at the ford",
                 seats=[SeatSpec(c.name, c.player) for c in commanders])
    pages = []
    for gm in gms:
        page = new_page()
        log_in(page, asgi_server, gm.username, "pass-word-123")
        page.goto(f"{asgi_server}/c/{campaign.slug}/{'clock' if what == 'battle' else 'matches'}/")
        page.wait_for_selector("body[data-live=open]", timeout=10_000)
        pages.append(page)
    if what == "battle":
        pages[1].wait_for_selector('[data-testid="online-gm"]:has-text("gm-a")', timeout=3_000)
    pages[0].get_by_test_id(f"claim-{what}").click()
    pages[1].wait_for_selector('[data-testid="claimed-by"]:has-text("gm-a is resolving it")', timeout=3_000)
    pages[1].get_by_test_id(f"release-{what}").wait_for(timeout=1_000)
    if what == "battle":
        assert pages[1].get_by_test_id("due-battle-start").get_attribute("href").endswith(f"?due={due.pk}")
    assert pages[1].evaluate("document.documentElement.scrollWidth") <= 390, "the page fits a phone"
    screenshot(pages[1], f"live-{what}-claimed")


def test_a_players_map_shows_the_hour_a_game_master_advances_as_it_is_pushed(asgi_server, new_page):
    from tests.campaign.map_fixtures import make_army, make_map, ready

    gm, amira = UserFactory(username="gm-map"), UserFactory(username="amira-map")
    campaign = MembershipFactory(user=gm, role="gm").campaign
    MembershipFactory(user=amira, campaign=campaign)
    ready(EventFactory(campaign=campaign, name="Autumn Muster"))
    make_army(make_map(campaign), commander=CommanderFactory(campaign=campaign, player=amira), at=(4, 6),
              name="Ford Guard")
    player = new_page()
    log_in(player, asgi_server, amira.username, "pass-word-123")
    data_fetches: list[str] = []
    frames: list = []
    player.on("request", lambda r: data_fetches.append(r.url) if "/map/data/" in r.url else None)
    player.on("websocket", lambda ws: ws.on("framereceived", lambda frame: frames.append(frame)))
    player.goto(f"{asgi_server}/c/{campaign.slug}/map/")
    player.wait_for_selector("body[data-live=open]", timeout=10_000)
    player.wait_for_selector("[data-testid=map-hour] .badge", timeout=5_000)
    player.wait_for_timeout(4500)  # a poll would have run by now (every 4 s without a socket)
    assert len(data_fetches) == 1, "no polling while the socket is open"
    director = new_page()
    log_in(director, asgi_server, gm.username, "pass-word-123")
    director.goto(f"{asgi_server}/c/{campaign.slug}/clock/")
    director.get_by_test_id("advance-hour").click()
    player.wait_for_function(
        "() => document.querySelector('[data-testid=map-hour]').textContent.includes('hour 1')", timeout=3_000)
    assert [json.loads(frame)["topic"] for frame in frames] == [f"campaign.{campaign.pk}.hour"]
    assert len(data_fetches) == 2, "one fetch, answering the pushed message"
