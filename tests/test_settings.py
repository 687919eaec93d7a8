"""Settings come from the environment through strict helpers that refuse bad values."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import database_from_url, env_bool, env_int, env_rate, redis_url

ROOT = Path(__file__).resolve().parent.parent


def test_env_bool_accepts_words_and_refuses_nonsense(monkeypatch):
    monkeypatch.setenv("X_FLAG", "yes")
    assert env_bool("X_FLAG") is True
    monkeypatch.setenv("X_FLAG", "off")
    assert env_bool("X_FLAG") is False
    monkeypatch.setenv("X_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="X_FLAG='maybe' is not a yes/no value"):
        env_bool("X_FLAG")


def test_env_int_refuses_words_and_small_numbers(monkeypatch):
    monkeypatch.setenv("X_NUM", "ten")
    with pytest.raises(ImproperlyConfigured, match="not a whole number"):
        env_int("X_NUM", 1)
    monkeypatch.setenv("X_NUM", "-1")
    with pytest.raises(ImproperlyConfigured, match="at least 0"):
        env_int("X_NUM", 1, minimum=0)


def test_env_rate_reads_rates_and_refuses_anything_else(monkeypatch):
    assert env_rate("X_RATE", "60/minute") == "60/minute"
    monkeypatch.setenv("X_RATE", "5/hour")
    assert env_rate("X_RATE", "60/minute") == "5/hour"
    for bad in ("sixty", "60/fortnight", "²/minute", "-1/day"):
        monkeypatch.setenv("X_RATE", bad)
        with pytest.raises(ImproperlyConfigured, match="write it like 60/minute"):
            env_rate("X_RATE", "60/minute")


@pytest.mark.parametrize(("url", "engine", "name"), [
    ("postgres://u:p%40ss@db:5433/muster", "django.db.backends.postgresql", "muster"),
    ("postgresql://postgres@127.0.0.1/muster", "django.db.backends.postgresql", "muster"),
    ("sqlite:////tmp/x.sqlite3", "django.db.backends.sqlite3", "/tmp/x.sqlite3"),
])
def test_database_urls(url, engine, name):
    config = database_from_url(url, base_dir=ROOT)
    assert (config["ENGINE"], config["NAME"]) == (engine, name)
    if "p%40ss" in url:
        assert (config["PASSWORD"], config["PORT"], config["HOST"]) == ("p@ss", "5433", "db")


@pytest.mark.parametrize(("url", "message"), [
    ("mysql://x/y", "not supported"),
    ("postgres://host:5432/", "names no database"),
    ("postgres://host:port/db", "port that is not a number"),
    ("sqlite://host/db", "has no host"),
])
def test_bad_database_urls_are_refused(url, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        database_from_url(url, base_dir=ROOT)


def test_redis_url_must_be_redis(monkeypatch):
    monkeypatch.setenv("X_REDIS", "http://localhost")
    with pytest.raises(ImproperlyConfigured, match="not a Redis URL"):
        redis_url("X_REDIS")
    monkeypatch.setenv("X_REDIS", "")
    assert redis_url("X_REDIS") is None


def _manage(*args, **env):
    dropped = {"DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    clean.update(env)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=clean,
                          capture_output=True, text=True, timeout=120, check=False)


def test_missing_secret_key_stops_start_up_with_a_clear_message():
    result = _manage("check")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_bad_time_zone_is_refused():
    result = _manage("check", DEBUG="1", TIME_ZONE="Mars/Olympus")
    assert "not a known time zone" in result.stderr


def test_production_settings_pass_check_deploy_without_warnings():
    result = _manage("check", "--deploy", "--fail-level", "WARNING",
                     SECRET_KEY="a-long-random-production-secret-" + "k" * 40, ALLOWED_HOSTS="muster.example.org",
                     DEBUG="0")
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout
