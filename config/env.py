"""Strict readers for settings from the environment.

Each helper refuses a bad value with a message that names the variable and says
what it should look like, so a misconfigured server stops at start-up instead of
misbehaving later (the pattern of healthchecks' ``hc/settings.py``).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    return default if value is None else value.strip()


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a yes/no value: use 1/0, true/false, yes/no or on/off.")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is too small: it must be at least {minimum}.")
    return number


def env_rate(name: str, default: str) -> str:
    """A request rate such as "60/minute" (per second, minute, hour or day)."""
    value = (os.environ.get(name) or "").strip() or default
    count, _, period = value.partition("/")
    if not count.isascii() or not count.isdigit() or period not in ("second", "minute", "hour", "day"):
        raise ImproperlyConfigured(f"{name}={value!r} is not a rate: write it like 60/minute (per second, "
                                   "minute, hour or day).")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def database_from_url(url: str, *, base_dir: Path) -> dict:
    """A Django DATABASES entry from ``postgres://user:pass@host:port/name`` or ``sqlite:///path``."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        raw = unquote(parts.path)
        if parts.netloc:
            raise ImproperlyConfigured(
                f"DATABASE_URL={url!r}: a SQLite URL has no host; write sqlite:///relative.db "
                "or sqlite:////absolute/path.db."
            )
        path = Path(raw[1:]) if raw.startswith("/") else Path(raw)
        if not path.is_absolute():
            path = base_dir / path
        if not raw.strip("/"):
            raise ImproperlyConfigured(f"DATABASE_URL={url!r} names no file: write sqlite:///var/db.sqlite3.")
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path)}
    if parts.scheme in {"postgres", "postgresql", "pgsql"}:
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured(
                f"DATABASE_URL={url!r} names no database: write postgres://user@host:5432/muster."
            )
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r} has a port that is not a number.") from None
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(port or ""),
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL={url!r} is not supported: use postgres://user:password@host:5432/name "
        "or sqlite:///var/muster.sqlite3."
    )


def redis_url(name: str) -> str | None:
    value = env_str(name)
    if not value:
        return None
    if urlsplit(value).scheme not in {"redis", "rediss"}:
        raise ImproperlyConfigured(f"{name}={value!r} is not a Redis URL: write redis://host:6379/0.")
    return value
