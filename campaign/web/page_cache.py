"""Whole pages remembered per session: the pages players open most are answered from the shared cache while
nothing they show has changed, before the user is read or a template is drawn.

A view opts in by naming, while it draws the page, what the page shows and the version it read before drawing
(`page_keep(request, "stamp", campaign.pk, version=stamp)`: the campaign's change stamp, a match's version).
PageCacheMiddleware keeps the finished page under the session's key and the path, beside what it was drawn
for: the user and their session's password hash, the CSRF secret the page's tokens were masked with, the query
string and those versions (the header's unread count among them). A later GET of the same path in the same
session is answered with it only if every one of those still holds, the versions all asked anew in one small
query; else the view draws it again, with the versions that query read. So a page is only ever served to the
session it was drawn for, never after its user signed out (the session is gone), changed their password (the
hash in the user's state no longer matches) or was deactivated (their state is dropped), and never once
anything it shows has changed.

Pages holding flashed messages, setting cookies or answering htmx are not kept, and a session with messages
waiting is always drawn afresh. The user's state and the pages live in the "shared" cache: Redis, so every
server process sees a user's password change at once; without Redis (one process, as `make run` without it)
the process's own memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import caches
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse

TTL_SECONDS = 10 * 60
"""How long a page and its user's state are kept without being drawn again: it bounds the memory of sessions
that stopped asking, and how long a stale state written by a request racing a password change could serve a
page to a session the change signed out."""

@dataclass(frozen=True)
class _Kind:
    columns: Callable[[], Sequence[str]]
    value: Callable[[Sequence[object]], object]


_VERSIONS: dict[str, _Kind] = {}


def _first(values: Sequence[object]) -> object:
    return values[0]


def page_version_register(kind: str, *, columns: Callable[[], Sequence[str]],
                          value: Callable[[Sequence[object]], object] = _first) -> None:
    """How the current version of `kind` (e.g. "stamp": a campaign's change stamp) is read for an id, cheaply,
    as it is asked on every answer from the cache: `columns()` gives scalar SQL expressions each naming the id
    once (``%s``), and `value` makes the version of what they read (by default the first one). Every version a
    page names is read in one query (versions_read)."""
    _VERSIONS[kind] = _Kind(columns=columns, value=value)


def versions_read(wanted: Iterable[tuple[str, int]]) -> dict[tuple[str, int], str | None]:
    """The current version of each (kind, id), read in one query; None where there is none (a deleted object,
    a kind no app registers): never equal to a version a page was drawn at."""
    wanted = [(kind, object_id) for kind, object_id in dict.fromkeys(wanted) if kind in _VERSIONS]
    spans, columns = [], []
    for kind, object_id in wanted:
        named = _VERSIONS[kind].columns()
        spans.append((kind, object_id, len(columns), len(columns) + len(named)))
        columns.extend(named)
    if not columns:
        return {}
    params = [object_id for kind, object_id, start, end in spans for _ in range(end - start)]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(columns)}", params)
        row = cursor.fetchone()
    read = {}
    for kind, object_id, start, end in spans:
        version = _VERSIONS[kind].value(row[start:end])
        read[kind, object_id] = None if version is None else str(version)
    return read


def page_depends(request: HttpRequest, kind: str, object_id: int, *, version: object) -> None:
    """Says that the page being drawn shows `kind` `object_id` at `version`, read before the page was drawn (so
    a change made while it draws makes the next request draw it again)."""
    request.page_depends = [*getattr(request, "page_depends", ()), (kind, object_id, str(version))]  # type: ignore[attr-defined]


def page_version(request: HttpRequest, kind: str, object_id: int) -> str:
    """The current version of `kind` `object_id` (a registered kind): the one PageCacheMiddleware read for this
    request when it found the remembered page stale (read before the view began, so as good as reading it
    now: a page drawn after a change costs no second read), else read now."""
    read = getattr(request, "page_versions", {})
    if (kind, object_id) not in read:
        read = versions_read([(kind, object_id)])
    return str(read[kind, object_id])


def page_keep(request: HttpRequest, kind: str, object_id: int, *, version: object) -> None:
    """page_depends, and the page may be kept: a view says so once it has named everything its page shows
    (the header's parts name themselves)."""
    page_depends(request, kind, object_id, version=version)
    request.page_keep = True  # type: ignore[attr-defined]


def _shared():
    return caches["shared"]


def _page_key(request: HttpRequest) -> str:
    return f"page:{request.session.session_key}:{request.path}"


def _user_key(user_id: object) -> str:
    return f"page-user:{user_id}"


def user_object_key(user_id: object) -> str:
    """Where the signed-in user is kept whole (campaign.web.user_backend)."""
    return f"user:{user_id}"


def user_state_forget(user_id: int) -> None:
    """Drops a user's state and kept copy, now and again once the change to them commits (a request that read
    them before the commit may have kept them since): no page is served to any of their sessions until a
    request has read them anew (a password change or a deactivation then signs the other sessions out)."""
    keys = [_user_key(user_id), user_object_key(user_id)]
    _shared().delete_many(keys)
    transaction.on_commit(lambda: _shared().delete_many(keys))


def _messages_waiting(request: HttpRequest) -> bool:
    return CookieStorage.cookie_name in request.COOKIES or "_messages" in request.session


class PageCacheMiddleware:
    """Answers a GET from the session's remembered page when it still holds, and remembers the pages views say
    how to check (page_depends). Sits after the message middleware: what is outside it (sessions, CSRF cookies,
    security headers) runs for every answer, what is inside (the frame and owner headers) is remembered."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (request.method != "GET" or not settings.PAGE_CACHE or "HX-Request" in request.headers
                or not request.session.session_key):
            return self.get_response(request)  # htmx asks for a page to redraw it: after a change, so drawn
        key = _page_key(request)
        remembered = self._remembered(request, key)
        if remembered is not None:
            return remembered
        response = self.get_response(request)
        self._remember(request, key, response)
        return response

    def _remembered(self, request: HttpRequest, key: str) -> HttpResponse | None:
        entry = _shared().get(key)
        if entry is None:
            return None
        session = request.session
        if (entry["user"] != session.get(SESSION_KEY) or _messages_waiting(request)
                or entry["query"] != request.META.get("QUERY_STRING", "")
                or entry["csrf"] != request.COOKIES.get(settings.CSRF_COOKIE_NAME)):
            return None
        auth_hash = session.get(HASH_SESSION_KEY)
        if not auth_hash or _shared().get(_user_key(entry["user"])) != auth_hash:
            return None
        request.page_versions = read = versions_read(  # type: ignore[attr-defined]
            (kind, object_id) for kind, object_id, _ in entry["depends"])
        if any(read.get((kind, object_id)) != version for kind, object_id, version in entry["depends"]):
            return None
        response = HttpResponse(entry["content"], status=200)
        for name, value in entry["headers"]:
            response[name] = value
        return response

    def _remember(self, request: HttpRequest, key: str, response: HttpResponse) -> None:
        user = getattr(request, "user", None)
        if not _keepable(request, response) or user is None or not user.is_authenticated or not user.is_active:
            return
        auth_hash = user.get_session_auth_hash()
        if request.session.get(HASH_SESSION_KEY) != auth_hash:
            return
        entry = {"user": str(user.pk), "query": request.META.get("QUERY_STRING", ""),
                 "csrf": request.COOKIES.get(settings.CSRF_COOKIE_NAME), "depends": request.page_depends,
                 "content": response.content, "headers": list(response.items())}
        _shared().set_many({key: entry, _user_key(user.pk): auth_hash}, timeout=TTL_SECONDS)


def _keepable(request: HttpRequest, response: HttpResponse) -> bool:
    """A whole page its view said may be kept, that sets no cookie and neither shows nor leaves a message,
    asked for with a CSRF cookie (without one, its tokens are masked with a secret only its answer sets)."""
    storage = getattr(request, "_messages", None)
    return (getattr(request, "page_keep", False) and settings.CSRF_COOKIE_NAME in request.COOKIES
            and response.status_code == 200 and not response.streaming
            and not response.cookies and not (storage is not None and (storage.used or storage.added_new))
            and not _messages_waiting(request) and request.session.session_key is not None)
