"""The "shared" cache's Redis backend (config.redis_cache): sessions and remembered pages go through Redis when
it answers, and a Redis that is down neither fails a request nor makes each one wait."""

from __future__ import annotations

import socket
import time

import pytest
from django.core.cache import caches
from django.test import Client

from config.redis_cache import TolerantRedisCache

pytestmark = pytest.mark.django_db


def a_closed_port() -> int:
    """A local port nothing listens on: connections to it are refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def shared_at(settings, location: str) -> None:
    settings.CACHES = {**settings.CACHES, "shared": {
        "BACKEND": "config.redis_cache.TolerantRedisCache", "LOCATION": location, "KEY_PREFIX": "muster-test",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1}}}


@pytest.mark.redis
def test_sessions_and_pages_go_through_redis(settings, player, mine, day):
    shared_at(settings, settings.REDIS_URL.rsplit("/", 1)[0] + "/13")
    caches["shared"].clear()
    client = Client()
    client.force_login(player)
    url = f"/c/{mine.campaign.slug}/commanders/{mine.pk}/"
    client.get(url)
    kept = client.get(url).content
    assert client.get(url).content == kept
    assert caches["shared"].get(f"page-user:{player.pk}"), "the user's state is in Redis"
    caches["shared"].clear()


def test_a_redis_that_is_down_answers_misses_at_once():
    cache = TolerantRedisCache(f"redis://127.0.0.1:{a_closed_port()}/0", {"OPTIONS": {"socket_connect_timeout": 0.5}})
    assert cache.get("k") is None
    assert cache.get("k", "fallback") == "fallback"
    assert cache.set("k", 1) is None
    assert cache.add("k", 1) is False
    assert cache.get_many(["k"]) == {}
    assert cache.set_many({"a": 1, "b": 2}) == ["a", "b"], "every write is reported as not made"
    assert cache.down_until > time.monotonic(), "the failure pauses Redis"
    cache.down_until = time.monotonic() + 60
    cache._cache = None  # while paused, Redis is not even asked (this would raise if it were)
    assert cache.get("k") is None
    assert cache.delete("k") is False


def test_pages_are_served_and_sessions_kept_while_redis_is_down(settings, player, mine, day):
    shared_at(settings, f"redis://127.0.0.1:{a_closed_port()}/0")
    client = Client()
    client.force_login(player)
    url = f"/c/{mine.campaign.slug}/commanders/{mine.pk}/"
    assert client.get(url).status_code == 200
    assert client.get(url).status_code == 200, "the session was read from the database"
