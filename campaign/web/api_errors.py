"""Every API error is one JSON shape: ``{"detail": "<what went wrong and what to do>"}``, and a 400 about
particular fields also names each field with its list of sentences (``{"detail": "amount: ...", "amount":
["..."]}``). Service refusals become API answers here: a model ValidationError is a 400, a role refusal a 403
with the sentence, deleting what other records still need a 409 that names them; never a 500. Unknown API
addresses and server errors under /api/ answer the same shape (`api_not_found`, `api_server_error`).
"""

from __future__ import annotations

from collections.abc import Iterator

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import ProtectedError, RestrictedError
from django.http import JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from campaign.campaigns.permissions import NotAllowed

NON_FIELD_KEYS = ("detail", "non_field_errors")
NOT_FOUND_SENTENCE = "Nothing is at this API address: the routes are listed at /api/ and described at /api/docs/."
SERVER_ERROR_SENTENCE = "Muster failed to answer this request; it has been logged. Try again in a moment."


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    elif isinstance(exc, NotAllowed):
        exc = exceptions.PermissionDenied(exc.message)
    elif isinstance(exc, ProtectedError | RestrictedError):
        return Response({"detail": still_needed_sentence(exc)}, status=status.HTTP_409_CONFLICT)
    response = drf_exception_handler(exc, context)
    if response is not None:
        response.data = error_body(response.data)
    return response


def error_body(data) -> dict:
    """DRF's error data (a sentence, a list of them, or field errors) as ``{"detail": str, <field>: [str]}``."""
    if not isinstance(data, dict):
        return {"detail": " ".join(_sentences(data))}
    fields = {name: value if isinstance(value, list) else [value] for name, value in data.items()
              if name not in NON_FIELD_KEYS}
    said = [sentence for key in NON_FIELD_KEYS for sentence in _sentences(data.get(key, []))]
    said += [f"{name}: {sentence}" for name, value in fields.items() for sentence in _sentences(value)]
    return {"detail": " ".join(said) or "The request was refused.", **fields}


def _sentences(value) -> Iterator[str]:
    """Every message in a nested error structure (lists of messages, or of per-item field errors)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _sentences(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _sentences(item)
    elif value is not None:
        yield str(value)


def api_not_found() -> JsonResponse:
    return JsonResponse({"detail": NOT_FOUND_SENTENCE}, status=404)


def api_server_error() -> JsonResponse:
    return JsonResponse({"detail": SERVER_ERROR_SENTENCE}, status=500)


def still_needed_sentence(exc: ProtectedError | RestrictedError) -> str:
    """'This cannot be deleted: 3 battles, 2 armies still refer to it. ...' from the objects that block it."""
    counts: dict[str, int] = {}
    for obj in exc.protected_objects if isinstance(exc, ProtectedError) else exc.restricted_objects:
        name = str(obj._meta.verbose_name_plural)
        counts[name] = counts.get(name, 0) + 1
    what = ", ".join(f"{n} {name}" for name, n in sorted(counts.items()))
    return f"This cannot be deleted: {what} still refer to it. Remove or reassign those first."
