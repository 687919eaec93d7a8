"""Signed poll tokens: an unchanged poll answered from a version number, without the session, the user or
the page.

A polled fragment carries ``t``, a token signed with SECRET_KEY that names what it polls (a kind and an
id), beside ``v``, the version it shows. A poll with a valid, unexpired token for the same object whose
version still matches is answered 204 after one small query; anything else goes on to the full view,
which checks who may see what as always. So a token earns only the answer "nothing changed", never
content: a leaked or outlived one reveals nothing a 204 does not. Tokens last a day, an event's length.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core import signing
from django.http import HttpRequest

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


def poll_unchanged(request: HttpRequest, subject: list, current_version: Callable[[], object]) -> bool:
    """True when the request's token names `subject` and its ``v`` equals `current_version()`, which is read
    only once the token checks out."""
    return poll_subject(request) == subject and request.GET["v"] == str(current_version())
