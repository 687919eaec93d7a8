"""Signed poll tokens: an unchanged poll answered from a version number, without the session, the user or
the page.

A polled fragment carries ``t``, a token signed with SECRET_KEY that names what it polls (a kind and an
id), beside ``v``, the version it shows. A poll with a valid, unexpired token for the same object whose
version still matches is answered 204 after one small query, by UnchangedPollMiddleware before the session,
the user or the view are read; anything else goes on to the full view, which checks who may see what as
always. So a token earns only the answer "nothing changed", never content: a leaked or outlived one reveals
nothing a 204 does not. Tokens last a day, an event's length. Each app registers the kinds it polls
(poll_register, in its AppConfig.ready).
"""

from __future__ import annotations

from collections.abc import Callable

from django.core import signing
from django.http import HttpRequest, HttpResponse

SALT = "muster.poll"
MAX_AGE_SECONDS = 24 * 60 * 60


def poll_token(*subject: object) -> str:
    """The token a page embeds in its poll URL; `subject` names what is polled, e.g. ("match", 12)."""
    return signing.dumps(list(subject), salt=SALT, compress=False)


def poll_subject(request: HttpRequest) -> list | None:
    """The subject of the request's valid, unexpired token, when it also says which version it shows."""
    token = request.GET.get("t")
    if not token or request.GET.get("v") is None:
        return None
    try:
        subject = signing.loads(token, salt=SALT, max_age=MAX_AGE_SECONDS)
    except signing.BadSignature:  # an expired token raises SignatureExpired, a BadSignature
        return None
    return subject if isinstance(subject, list) else None


_POLLS: dict[str, tuple[Callable[[list], str], Callable[[list], object]]] = {}


def poll_register(kind: str, *, path: Callable[[list], str], version: Callable[[list], object]) -> None:
    """How an unchanged poll of `kind` is told: how the polled path ends for a token's subject (the token is
    answered on that path only), and the subject's current version (None: not known, so the view decides)."""
    _POLLS[kind] = (path, version)


class UnchangedPollMiddleware:
    """Answers an unchanged poll 204 right after the security middleware, before the session, the user, the URL
    resolver or the view: a phone's poll then costs little more than /healthz."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET" and "t" in request.GET:
            subject = poll_subject(request)
            poll = _POLLS.get(subject[0]) if subject and isinstance(subject[0], str) else None
            if poll is not None and subject is not None and request.path.endswith(poll[0](subject)):
                current = poll[1](subject)
                if current is not None and request.GET["v"] == str(current):
                    return HttpResponse(status=204)
        return self.get_response(request)
