"""Playwright for Python driving Debian's Chromium (never a downloaded browser).

Screenshots go to test-artifacts/ so CI keeps what each page looked like.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardgames.services import SeatSpec, match_create
from tests.campaign.factories import CampaignFactory, MembershipFactory, UserFactory

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]

# Playwright's sync API runs an event loop in this thread; the ORM calls tests make around it are safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser):
    """Pages in separate contexts (separate cookies), as if on separate devices; phone-sized by default."""
    contexts = []

    def make(*, width: int = 390, height: int = 844):
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def log_in(page, base_url: str, username: str, password: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_load_state("networkidle")


def on_map(page, x: float, y: float) -> tuple[float, float]:
    """Where the point (x, y) in inches is on the page, through the Leaflet map the page made."""
    box = page.get_by_test_id("tactical-map").bounding_box()
    point = page.evaluate("([x, y]) => document.getElementById('tactical-map').leafletMap"
                          ".latLngToContainerPoint([-y, x])", [x, y])
    assert 0 <= point["x"] <= box["width"], (x, point)
    assert 0 <= point["y"] <= box["height"], (y, point)
    at = box["x"] + point["x"], box["y"] + point["y"]
    assert page.evaluate("([x, y]) => Boolean(document.elementFromPoint(x, y).closest('#tactical-map'))", at), \
        f"({x}, {y}) is under something else on the page"
    return at


def map_settled(page) -> None:
    """Wait for the map to finish moving (the zoom animation), so taps land where they are aimed."""
    page.evaluate("() => new Promise(done => setTimeout(done, 400))")


def open_devices(new_page, base_url: str, users, url: str) -> list:
    """One logged-in page per user (separate contexts, like separate phones), each showing `url`."""
    pages = []
    for user in users:
        page = new_page()
        log_in(page, base_url, user.username, "pass-word-123")
        page.goto(url)
        pages.append(page)
    return pages


def duel_on_two_phones(new_page, base_url: str, game: str, seed: int) -> tuple:
    """A match of `game` between amira and bastian, members of a new campaign, open on one phone each:
    ``(match, [amira's page, bastian's page])``."""
    campaign = CampaignFactory(name="Border Wars", slug="border-wars")
    players = []
    for name in ("amira", "bastian"):
        user = UserFactory(username=name)
        MembershipFactory(campaign=campaign, user=user)
        players.append(user)
    match = match_create(campaign=campaign, game=game, actor=players[0], seed=seed, title="Duel",
                         seats=[SeatSpec("amira", players[0]), SeatSpec("bastian", players[1])])
    return match, open_devices(new_page, base_url, players, f"{base_url}/c/{campaign.slug}/matches/{match.pk}/")


def play_to_the_end(match, pages, *, check, choose=lambda page, buttons: buttons.first, rounds: int = 600) -> int:
    """Each device in turn takes the move `choose` picks until the match ends; returns the moves made.

    Before a page is read it must show the match's current version: the first stale page waits for htmx
    polling (proving the table follows the other side without a reload), later ones reload to keep the test
    quick. `check(page, seat)` runs on every up-to-date page (the tests' no-leak checks)."""
    from cardgames.models import Match

    moves, polled = 0, False
    for _ in range(rounds):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        acted = False
        for seat, page in enumerate(pages):
            current = f'[data-testid="table"][data-version="{match.version}"]'
            if not page.locator(current).count():
                if polled:
                    page.reload()
                else:
                    page.wait_for_selector(current, timeout=15_000)
                    polled = True
            page.wait_for_selector(current, timeout=15_000)
            check(page, seat)
            buttons = page.locator("button.action")
            if buttons.count():
                choose(page, buttons).click()
                page.wait_for_selector(f'[data-testid="table"]:not([data-version="{match.version}"])', timeout=15_000)
                moves += 1
                acted = True
                match.refresh_from_db()
                if match.status != Match.Status.ACTIVE:
                    break
        assert acted, "neither page offered a move"
    assert polled, "no page ever had to follow the other side"
    return moves


def _database_url() -> str:
    """The test database (already swapped in by pytest-django) as a DATABASE_URL for another process."""
    from urllib.parse import quote

    from django.db import connection

    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{Path(db['NAME']).resolve()}"
    return (f"postgres://{quote(db['USER'] or '')}:{quote(db['PASSWORD'] or '')}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{quote(db['NAME'])}")


@pytest.fixture
def asgi_server(transactional_db):
    """The real ASGI stack (uvicorn on config.asgi: pages and sockets) in its own process on a free port, reading
    the test database; its URL. One process, so sockets hear each other without Redis, and pages stop polling."""
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    from campaign.management.commands.runstack import web_options

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test", "DEBUG": "1",
           "DATABASE_URL": _database_url(), "LIVE_PUSH_EVERYWHERE": "1"}  # every change here is the web process's
    uvicorn = Path(sys.executable).parent / "uvicorn"
    server = subprocess.Popen([str(uvicorn), *web_options("127.0.0.1", str(port), workers=1), "--log-level",
                               "warning"], env=env, cwd=Path(__file__).resolve().parents[2])
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=1) as answer:  # noqa: S310 - our own server
                    if answer.status == 200:
                        break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("uvicorn did not answer /healthz within 30 s") from None
                time.sleep(0.2)
        yield url
    finally:  # uvicorn gives open sockets 10 s (a socket waiting on Redis may hold out that long), then this kills
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
