"""Who is online: the game masters with a socket open on a campaign's console, each seen within the last
EXPIRY_SECONDS (the page pings every HEARTBEAT_SECONDS; a socket that vanished without closing drops out).

Kept in the "limits" cache, which every server process shares (Redis when REDIS_URL is set, files otherwise).
Nothing here may fail a socket: a cache that does not answer makes nobody appear online.
"""

from __future__ import annotations

import logging
import time

from django.core.cache import caches

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 25
EXPIRY_SECONDS = 75


def _key(campaign_id: int) -> str:
    return f"presence:{campaign_id}"


def _seen(campaign_id: int) -> dict[int, float]:
    try:
        return caches["limits"].get(_key(campaign_id)) or {}
    except Exception:
        log.warning("The presence cache did not answer.", exc_info=True)
        return {}


def _store(campaign_id: int, seen: dict[int, float]) -> None:
    try:
        caches["limits"].set(_key(campaign_id), seen, EXPIRY_SECONDS * 2)
    except Exception:
        log.warning("The presence cache did not answer.", exc_info=True)


def presence_mark(*, campaign_id: int, user_id: int, online: bool = True, now: float | None = None) -> bool:
    """Record `user_id` as online now (or gone); True when the list of who is online changed."""
    now = time.time() if now is None else now
    seen = {uid: at for uid, at in _seen(campaign_id).items() if now - at < EXPIRY_SECONDS}
    was_online = user_id in seen
    if online:
        seen[user_id] = now
    else:
        seen.pop(user_id, None)
    _store(campaign_id, seen)
    return was_online != online


def presence_online(*, campaign_id: int, now: float | None = None) -> set[int]:
    """The ids of the users seen on the campaign within EXPIRY_SECONDS."""
    now = time.time() if now is None else now
    return {uid for uid, at in _seen(campaign_id).items() if now - at < EXPIRY_SECONDS}
