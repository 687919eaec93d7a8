"""Brute force: failed sign-ins are counted per user name and per address; past the limit the page and the
token endpoint answer 429 with a sentence and Retry-After until the window passes; a success clears the
name's count; a cache that does not answer never turns a sign-in into a 500."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from rest_framework.test import APIClient
from rest_framework.throttling import UserRateThrottle

from campaign.web import login_limits
from tests.campaign.factories import UserFactory

pytestmark = pytest.mark.django_db
PASSWORD = "right-horse-battery"


@pytest.fixture
def amira():
    user = UserFactory(username="amira")
    user.set_password(PASSWORD)
    user.save()
    return user


def _login(client, username: str, password: str):
    return client.post("/accounts/login/", {"username": username, "password": password})


def test_the_page_refuses_a_name_after_five_failures_until_the_window_passes(client, amira, settings):
    for _ in range(settings.LOGIN_FAILURES_PER_NAME):
        assert _login(client, "amira", "wrong").status_code == 200
    refused = _login(client, "amira", PASSWORD)
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= settings.LOGIN_LIMIT_WINDOW_SECONDS
    assert "Too many failed sign-ins for this name: wait 15 minutes" in refused.content.decode()
    assert 'name="username"' in refused.content.decode()
    caches["limits"].clear()  # what the cache's own expiry does when the window passes
    assert _login(client, "amira", PASSWORD).status_code == 302


def test_a_success_clears_the_names_count(client, amira, settings):
    for _ in range(settings.LOGIN_FAILURES_PER_NAME - 1):
        _login(client, "amira", "wrong")
    assert _login(client, "amira", PASSWORD).status_code == 302
    client.logout()
    for _ in range(settings.LOGIN_FAILURES_PER_NAME - 1):
        assert _login(client, "amira", "wrong").status_code == 200
    assert _login(client, "amira", PASSWORD).status_code == 302


def test_many_names_from_one_address_trip_the_address_limit(client, amira, settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = 6
    for n in range(6):
        assert _login(client, f"guess{n}", "wrong").status_code == 200
    refused = _login(client, "amira", PASSWORD)
    assert refused.status_code == 429
    assert "from this address" in refused.content.decode()


def test_the_token_endpoint_is_limited_the_same_way_with_json(amira, settings):
    api = APIClient()
    for _ in range(settings.LOGIN_FAILURES_PER_NAME):
        assert api.post("/api/token/", {"username": "amira", "password": "wrong"}).status_code == 400
    refused = api.post("/api/token/", {"username": "amira", "password": PASSWORD})
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith("Too many failed sign-ins for this name")
    assert int(refused["Retry-After"]) > 0
    assert APIClient().post("/api/token/", {"username": "someone", "password": "x"}).status_code == 400


def test_a_cache_that_does_not_answer_never_breaks_signing_in(client, amira, monkeypatch):
    class Broken:
        def __getattr__(self, name):
            raise ConnectionError("Redis is down")

    monkeypatch.setattr(login_limits, "caches", {"limits": Broken()})
    assert _login(client, "amira", "wrong").status_code == 200
    assert _login(client, "amira", PASSWORD).status_code == 302


def test_the_api_throttles_a_user_past_the_rate(amira, monkeypatch):
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "3/minute", "anon": "3/minute"})
    caches["default"].clear()
    api = APIClient()
    api.force_authenticate(amira)
    answers = [api.get("/api/campaigns/").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]


@pytest.mark.redis
def test_counts_are_shared_through_redis_when_it_is_configured(amira, settings):
    settings.CACHES = {**settings.CACHES, "limits": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": settings.REDIS_URL.rsplit("/", 1)[0] + "/14", "KEY_PREFIX": "muster-test"}}
    caches["limits"].clear()
    for _ in range(settings.LOGIN_FAILURES_PER_NAME):
        login_limits.failure_record(username="amira", address="10.0.0.1")
    assert login_limits.wait_seconds(username="amira", address="10.0.0.2")[0] == "name"
    caches["limits"].clear()


def test_the_address_is_the_connections_unless_proxies_are_trusted(rf, settings):
    request = rf.get("/", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9", REMOTE_ADDR="10.0.0.2")
    settings.PROXY_COUNT = 0
    assert login_limits.client_address(request) == "10.0.0.2", "a header anyone can forge counts for nothing"
    settings.PROXY_COUNT = 1
    assert login_limits.client_address(request) == "203.0.113.9", "the entry our proxy wrote, not the client's word"


def test_behind_one_proxy_clients_are_limited_apart(client, amira, settings):
    settings.PROXY_COUNT = 1
    settings.LOGIN_FAILURES_PER_ADDRESS = 3
    for n in range(3):
        client.post("/accounts/login/", {"username": f"guess{n}", "password": "x"}, HTTP_X_FORWARDED_FOR="198.51.100.7")
    refused = client.post("/accounts/login/", {"username": "amira", "password": PASSWORD},
                          HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert refused.status_code == 429
    other = client.post("/accounts/login/", {"username": "amira", "password": PASSWORD},
                        HTTP_X_FORWARDED_FOR="198.51.100.8")
    assert other.status_code == 302, "another client behind the same proxy still signs in"


def test_sign_ups_from_one_address_are_limited(client, settings):
    settings.SIGN_UPS_PER_ADDRESS = 2
    for name in ("one", "two"):
        answer = client.post("/accounts/sign-up/", {"username": name, "password": "lantern-harbour-77"})
        assert answer.status_code == 302
        client.logout()
    refused = client.post("/accounts/sign-up/", {"username": "three", "password": "lantern-harbour-77"})
    assert refused.status_code == 429
    assert "Too many sign-ups from this address: wait 15 minutes and try again." in refused.content.decode()
    assert 0 < int(refused["Retry-After"]) <= settings.LOGIN_LIMIT_WINDOW_SECONDS
    assert not get_user_model().objects.filter(username="three").exists()
