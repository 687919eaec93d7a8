"""Brute-force protection for signing in, on the page and at `POST /api/token/`, and for signing up: after
LOGIN_FAILURES_PER_NAME failures for one user name, or LOGIN_FAILURES_PER_ADDRESS from one address, within
LOGIN_LIMIT_WINDOW_SECONDS, sign-ins are answered 429 with a Retry-After until the window passes (a success
clears the name's count); after SIGN_UPS_PER_ADDRESS sign-up attempts from one address, so are sign-ups.
Counts live in the "limits" cache (Redis when configured); if it fails, nothing is limited rather than
anything failing (logged)."""

from __future__ import annotations

import hashlib
import logging
import math
import time

from django.conf import settings
from django.contrib.auth.views import LoginView
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from rest_framework import status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

log = logging.getLogger(__name__)


def _keys(*, username: str, address: str) -> dict[str, tuple[str, int]]:
    name = hashlib.sha256(username.strip().lower().encode()).hexdigest()[:32]
    return {"name": (f"login:name:{name}", settings.LOGIN_FAILURES_PER_NAME),
            "address": (f"login:address:{address}", settings.LOGIN_FAILURES_PER_ADDRESS)}


def client_address(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or behind PROXY_COUNT proxies the X-Forwarded-For entry the nearest
    trusted proxy wrote (entries further left are the client's own word). As DRF's throttles read it."""
    proxies = settings.PROXY_COUNT
    if proxies:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _blocked(keys: dict[str, tuple[str, int]]) -> tuple[str, int] | None:
    """(which, seconds to wait) for the first count at its limit, else None; a cache failure blocks nothing."""
    cache = caches["limits"]
    try:
        for which, (key, limit) in keys.items():
            found = cache.get_many([key, f"{key}:until"])
            count, until = found.get(key, 0), found.get(f"{key}:until")
            if count >= limit and until:
                return which, max(1, math.ceil(until - time.time()))
    except Exception:  # any cache failure: fail open, never block or break signing in
        log.warning("The limiter's cache does not answer: signing in and up are not limited now.", exc_info=True)
    return None


def _count(keys: dict[str, tuple[str, int]]) -> None:
    cache, window = caches["limits"], settings.LOGIN_LIMIT_WINDOW_SECONDS
    try:
        for key, _ in keys.values():
            if cache.add(key, 0, window):
                cache.set(f"{key}:until", time.time() + window, window)
            cache.incr(key)
    except Exception:
        log.warning("The limiter's cache does not answer: this attempt is not counted.", exc_info=True)


def wait_seconds(*, username: str, address: str) -> tuple[str, int] | None:
    """('name' or 'address', seconds to wait) when a limit is reached, else None."""
    return _blocked(_keys(username=username, address=address))


def failure_record(*, username: str, address: str) -> None:
    _count(_keys(username=username, address=address))


def _sign_up_keys(address: str) -> dict[str, tuple[str, int]]:
    return {"address": (f"signup:address:{address}", settings.SIGN_UPS_PER_ADDRESS)}


def sign_up_wait_seconds(*, address: str) -> int | None:
    """Seconds to wait when one address made SIGN_UPS_PER_ADDRESS sign-up attempts within the window."""
    blocked = _blocked(_sign_up_keys(address))
    return blocked[1] if blocked else None


def sign_up_record(*, address: str) -> None:
    _count(_sign_up_keys(address))


def success_record(*, username: str) -> None:
    try:
        key, _ = _keys(username=username, address="")["name"]
        caches["limits"].delete_many([key, f"{key}:until"])
    except Exception:
        log.warning("The login limiter's cache does not answer: the name's count stays.", exc_info=True)


def refusal_sentence(which: str, seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    whose = "for this name" if which == "name" else "from this address"
    return (f"Too many failed sign-ins {whose}: wait {minutes} minute{'s' if minutes > 1 else ''} and try again, "
            "or ask a game master to reset your password.")


class LimitedLoginView(LoginView):
    """Django's login page, refusing with 429 (the form and the sentence) while a limit holds."""

    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        username = request.POST.get("username", "")
        blocked = wait_seconds(username=username, address=client_address(request))
        if blocked is None:
            return super().post(request, *args, **kwargs)
        form = self.get_form_class()(request, initial={"username": username})
        response: HttpResponse = self.render_to_response(self.get_context_data(
            form=form, limited=refusal_sentence(*blocked)))
        response.status_code = 429
        response["Retry-After"] = str(blocked[1])
        return response

    def form_valid(self, form):
        success_record(username=form.get_user().get_username())
        return super().form_valid(form)

    def form_invalid(self, form):
        failure_record(username=self.request.POST.get("username", ""), address=client_address(self.request))
        return super().form_invalid(form)


class LimitedObtainAuthToken(ObtainAuthToken):
    """`POST /api/token/`: a token for user name and password, refused with 429 JSON while a limit holds."""

    def post(self, request, *args, **kwargs):
        username = str(request.data.get("username", ""))
        address = client_address(request)
        blocked = wait_seconds(username=username, address=address)
        if blocked is not None:
            return Response({"detail": refusal_sentence(*blocked)}, status=status.HTTP_429_TOO_MANY_REQUESTS,
                            headers={"Retry-After": str(blocked[1])})
        try:
            response = super().post(request, *args, **kwargs)
        except ValidationError:
            failure_record(username=username, address=address)
            raise
        success_record(username=username)
        return response
