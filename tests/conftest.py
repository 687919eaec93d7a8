"""Suite-wide fixtures, and the rule for tests that need real services.

Tests marked `postgres`, `redis`, `browser` or `worker` run whenever their service is
there. Locally a missing service skips them with the reason; when `CI` is set a
missing service fails the run, so CI can never pass by skipping them.
"""

from __future__ import annotations

import os
import shutil
import socket
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core.servers.basehttp import ThreadedWSGIServer

CHROMIUM = "/usr/bin/chromium"

# The live server listens with socketserver's backlog of 5: fifty phones connecting at once (the spending test)
# then meet refused or reset connections now and then. A real server's backlog is larger; so is this one.
ThreadedWSGIServer.request_queue_size = 128


def _redis_answers() -> str | None:
    url = os.environ.get("REDIS_URL")
    if not url:
        return "REDIS_URL is not set"
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), timeout=2) as sock:
            sock.sendall(b"PING\r\n")
            if not sock.recv(16).startswith(b"+PONG"):
                return f"Redis at {url} did not answer PING"
    except OSError as exc:
        return f"Redis at {url} does not answer: {exc}"
    return None


def _missing(marker: str) -> str | None:
    if marker == "postgres":
        engine = settings.DATABASES["default"]["ENGINE"]
        return None if engine.endswith("postgresql") else "DATABASE_URL does not point at PostgreSQL"
    if marker == "redis":
        return _redis_answers()
    if marker == "browser":
        if not os.path.exists(CHROMIUM):
            return f"Chromium is not installed at {CHROMIUM} (apt-get install chromium chromium-driver)"
        try:
            import playwright  # noqa: F401
        except ImportError:
            return "Playwright for Python is not installed"
    if marker == "worker" and not shutil.which("celery", path=os.path.dirname(os.sys.executable)):
        return "the celery command is not installed next to this Python"
    return None


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in ("postgres", "redis", "browser", "worker"):
        if item.get_closest_marker(marker) is None:
            continue
        reason = _missing(marker)
        if reason:
            if os.environ.get("CI"):
                pytest.fail(f"CI needs this service: {reason}", pytrace=False)
            pytest.skip(reason)


@pytest.fixture(autouse=True)
def _fresh_caches():
    """Sign-in failure counts, remembered poll versions, sessions and pages start empty in every test
    (settings_test keeps them in memory, and a test database reuses the ids a rolled-back test used); engine
    tests run without Django (`-p no:django`) have none."""
    if not settings.configured:
        return
    from django.core.cache import caches

    caches["limits"].clear()
    caches["default"].clear()
    caches["shared"].clear()


# Campaign fixtures shared by every app's tests. Imports stay inside the fixtures so the pure
# engine tests can run without Django (`pytest -p no:django tests/cardgames/engine`).


@pytest.fixture
def campaign(db):
    from tests.campaign.factories import CampaignFactory

    return CampaignFactory(name="River Valley", slug="river-valley")


def _member(campaign, username: str, role: str):
    from tests.campaign.factories import MembershipFactory, UserFactory

    return MembershipFactory(campaign=campaign, role=role, user=UserFactory(username=username)).user


@pytest.fixture
def gm(campaign):
    return _member(campaign, "gm1", "gm")


@pytest.fixture
def player(campaign):
    return _member(campaign, "player1", "player")


@pytest.fixture
def outsider(db):
    """A user of another campaign: they must learn nothing of ours."""
    from tests.campaign.factories import CampaignFactory

    return _member(CampaignFactory(name="Elsewhere", slug="elsewhere"), "outsider", "gm")


@pytest.fixture
def event(campaign):
    from tests.campaign.factories import EventFactory

    return EventFactory(campaign=campaign, name="Spring Muster")


@pytest.fixture
def day(event):
    """The event's open Day."""
    from tests.campaign.factories import open_day

    return open_day(event)
