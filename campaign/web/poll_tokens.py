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


def poll_token(kind: str, pk: int) -> str:
    """The token a page embeds in its poll URL for object `pk` of `kind` ("match", ...)."""
    return signing.dumps([kind, pk], salt=SALT, compress=False)


def poll_unchanged(request: HttpRequest, kind: str, pk: int, current_version: Callable[[], object]) -> bool:
    """True when the request's token is valid for (`kind`, `pk`) and its ``v`` equals `current_version()`.
    The version is read only once the token checks out."""
    token, seen = request.GET.get("t"), request.GET.get("v")
    if not token or seen is None:
        return False
    try:
        subject = signing.loads(token, salt=SALT, max_age=MAX_AGE_SECONDS)
    except signing.BadSignature:  # expired tokens raise SignatureExpired, a BadSignature
        return False
    return subject == [kind, pk] and seen == str(current_version())
