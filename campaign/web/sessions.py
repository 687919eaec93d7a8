"""Sessions read from the shared cache (Redis) and kept in the database too (Django's cached_db): a signed-in
request costs no query for its session, and nobody is signed out when Redis is emptied or down.

The cache holds a session for at most CACHE_SECONDS: a session deleted (signed out) while Redis did not answer
leaves its copy there, which would otherwise outlive the sign-out for as long as the session would have.
"""

from __future__ import annotations

from django.contrib.sessions.backends import cached_db

CACHE_SECONDS = 10 * 60


class _Capped:
    """The session cache, with every entry's time to live cut to CACHE_SECONDS."""

    def __init__(self, cache) -> None:
        self.cache = cache

    def set(self, key, value, timeout) -> None:
        self.cache.set(key, value, min(timeout, CACHE_SECONDS))

    def __contains__(self, key) -> bool:
        return key in self.cache

    async def aset(self, key, value, timeout) -> None:
        await self.cache.aset(key, value, min(timeout, CACHE_SECONDS))

    def __getattr__(self, name: str):
        return getattr(self.cache, name)  # reads and deletes, as they are


class SessionStore(cached_db.SessionStore):
    def __init__(self, session_key=None) -> None:
        super().__init__(session_key)
        self._cache = _Capped(self._cache)
