"""A Redis cache that a Redis that is down cannot stop: every read misses and every write is dropped, at once.

Sessions and remembered pages live in it (the "shared" cache). Were Redis down, the plain backend would fail
every request that touches the session; this one logs the outage once and, for PAUSE_SECONDS after a failure,
does not try again, so requests do not each wait out a connection timeout. Sessions are also in the database
(cached_db), so nobody is signed out; pages are drawn afresh.
"""

from __future__ import annotations

import logging
import time

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

PAUSE_SECONDS = 5.0
"""How long after a failure Redis is left alone before it is tried again."""


def _failed_get(args: tuple, kwargs: dict) -> object:
    return kwargs.get("default", args[1] if len(args) > 1 else None)


_FAILED = {"get": _failed_get, "get_many": lambda args, kwargs: {}, "has_key": lambda args, kwargs: False,
           "set": lambda args, kwargs: None, "add": lambda args, kwargs: False,
           "touch": lambda args, kwargs: False, "delete": lambda args, kwargs: False,
           "set_many": lambda args, kwargs: list(args[0] if args else kwargs["data"]),
           "delete_many": lambda args, kwargs: None}
"""What each operation answers while Redis is down: a miss, or a write that did not happen."""


class TolerantRedisCache(RedisCache):
    """RedisCache whose operations answer a miss, or drop the write, while Redis does not answer."""

    down_until = 0.0


def _tolerant(name: str):
    plain = getattr(RedisCache, name)
    failed = _FAILED[name]

    def operation(self: TolerantRedisCache, *args, **kwargs):
        if time.monotonic() < self.down_until:
            return failed(args, kwargs)
        try:
            return plain(self, *args, **kwargs)
        except RedisError:
            log.warning("Redis does not answer: the shared cache misses for %s s.", PAUSE_SECONDS, exc_info=True)
            self.down_until = time.monotonic() + PAUSE_SECONDS
            return failed(args, kwargs)

    operation.__name__ = operation.__qualname__ = name
    operation.__doc__ = plain.__doc__
    return operation


for _name in _FAILED:
    setattr(TolerantRedisCache, _name, _tolerant(_name))
