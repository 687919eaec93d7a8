"""Every state-changing request, page or API, may carry an idempotency key and is applied at most once.

Phones at events retry on poor signal, and the offline queue (static/js/sw.js) sends each action again until it
gets an answer. The key comes in the `Idempotency-Key` header (htmx, the API, the queue) or in a form's hidden
`idempotency_key` field. The key's row is written first, in the same transaction as the action, so the key exists
exactly when the action's writes do: a repeat waits for the first to finish, then gets its stored answer back.
Answers that changed nothing and may change on a retry (a refused CSRF token, a 404, a 5xx) are not remembered, nor
is a file sent as a stream (a campaign's export: it changes nothing but the audit's note that it was sent, and a
retry sends it again rather than keep a copy of it here).

The queue's replays also send `Muster-Replay: 1` and get, instead of the page, a short JSON account of what
happened (`status`, `applied`, `sentence`, `location`), so the phone can say "applied" or "the table moved on".
The sentence is what the action said: its messages, an API answer's `sentence`, or a refusal's text."""

from __future__ import annotations

import json
import re
from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone

from campaign.models import IdempotentRequest

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
FORM_FIELD = "idempotency_key"
KEY_PATTERN = re.compile(r"[A-Za-z0-9_.:-]{8,100}")
KEY_SENTENCE = ("An idempotency key is 8 to 100 letters, digits, '-', '_', '.' or ':': send a fresh random one "
                "(a UUID) with each action.")
REUSED_SENTENCE = ("This idempotency key was already used for another action ({method} {path}): send a new key "
                   "with each action.")
REMEMBERED_REFUSALS = frozenset({409})  # a stale action stays stale: its retry gets the same sentence


def _key(request: HttpRequest) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None and request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
        key = request.POST.get(FORM_FIELD)
    return key


def _user(request: HttpRequest):
    """The session's user, or the API token's (DRF authenticates only inside the view, after this middleware)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return user
    from rest_framework.authentication import TokenAuthentication
    from rest_framework.exceptions import AuthenticationFailed

    try:
        found = TokenAuthentication().authenticate(request)  # type: ignore[arg-type]
    except AuthenticationFailed:
        return None
    return found[0] if found else None


def _said(request: HttpRequest) -> tuple[str, bool]:
    """The messages this request added (left in place for the next page), and whether one of them is an error."""
    storage = getattr(request, "_messages", None)
    added = list(getattr(storage, "_queued_messages", []))
    return " ".join(str(message) for message in added), any(message.level >= messages.ERROR for message in added)


def _text(response: HttpResponse) -> str:
    """The answer's own sentence: an API's JSON `sentence` (refused: its `detail`), or a refusal's plain text."""
    refused = response.status_code >= 400
    if response.get("Content-Type", "").startswith("application/json"):
        try:
            body = json.loads(response.content)
        except ValueError:
            return ""
        said = body.get("sentence") or (body.get("detail") if refused else "") if isinstance(body, dict) else ""
        return said if isinstance(said, str) else ""
    plain = response.get("Content-Type", "").startswith("text/plain")
    return response.content.decode("utf-8", "replace") if refused and plain else ""


def _remember(record: IdempotentRequest, request: HttpRequest, response: HttpResponse) -> None:
    sentence, refused = _said(request)
    record.status = response.status_code
    record.content_type = response.get("Content-Type", "")
    record.body = response.content
    record.location = response.get("Location", "")
    record.sentence = sentence or _text(response)
    record.refused = refused or response.status_code >= 400
    record.save(update_fields=["status", "content_type", "body", "location", "sentence", "refused"])


def _replayed(record: IdempotentRequest) -> HttpResponse:
    response = HttpResponse(bytes(record.body), status=record.status, content_type=record.content_type or None)
    if record.location:
        response["Location"] = record.location
    response["Idempotent-Replayed"] = "true"
    return response


def _account(record: IdempotentRequest, *, replayed: bool) -> JsonResponse:
    """What the offline queue shows for one action it sent."""
    return JsonResponse({"status": record.status, "applied": not record.refused, "sentence": record.sentence,
                         "location": record.location, "replayed": replayed})


def _refusal(request: HttpRequest, sentence: str, status: int) -> HttpResponse:
    if request.path.startswith("/api/") or request.headers.get("Muster-Replay"):
        return JsonResponse({"detail": sentence, "status": status, "applied": False, "sentence": sentence},
                            status=status)
    return HttpResponse(sentence, status=status, content_type="text/plain; charset=utf-8")


class IdempotencyMiddleware:
    """Applies each (user, key) at most once and answers repeats with the first answer."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in SAFE_METHODS:
            return self.get_response(request)
        key = _key(request)
        if key is None:
            return self.get_response(request)
        if not KEY_PATTERN.fullmatch(key):
            return _refusal(request, KEY_SENTENCE, 400)
        user = _user(request)
        if user is None:  # signing in or up: nobody to key the request to, and nothing of theirs to apply twice
            return self.get_response(request)
        try:
            return self._first(request, user, key)
        except IntegrityError:
            return self._repeat(request, user, key)

    def _first(self, request: HttpRequest, user, key: str) -> HttpResponse:
        with transaction.atomic():
            record = IdempotentRequest.objects.create(user=user, key=key, method=request.method or "",
                                                      path=request.path[:500])
            response = self.get_response(request)
            if response.status_code >= 500:
                transaction.set_rollback(True)  # nothing half done, and the retry runs again
                return response
            if response.streaming or (response.status_code >= 400
                                       and response.status_code not in REMEMBERED_REFUSALS):
                record.delete()
                return response
            _remember(record, request, response)
            cutoff = timezone.now() - timedelta(hours=settings.IDEMPOTENCY_KEY_HOURS)
            IdempotentRequest.objects.filter(user=user, created_at__lt=cutoff).delete()
        return _account(record, replayed=False) if request.headers.get("Muster-Replay") else response

    def _repeat(self, request: HttpRequest, user, key: str) -> HttpResponse:
        record = IdempotentRequest.objects.filter(user=user, key=key).first()
        if record is None:  # the first attempt was refused and forgotten meanwhile: run this one afresh
            return self.__call__(request)
        if (record.method, record.path) != (request.method, request.path[:500]):
            return _refusal(request, REUSED_SENTENCE.format(method=record.method, path=record.path), 422)
        return _account(record, replayed=True) if request.headers.get("Muster-Replay") else _replayed(record)
