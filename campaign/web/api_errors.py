"""Turns service refusals into API answers: a model ValidationError is a 400 with field errors, a role
refusal a 403 with the sentence, deleting what other records still need a 409 that names them; never a 500.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import ProtectedError, RestrictedError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from campaign.campaigns.permissions import NotAllowed


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        exc = exceptions.ValidationError(detail)
    elif isinstance(exc, NotAllowed):
        return Response({"detail": exc.message}, status=status.HTTP_403_FORBIDDEN)
    elif isinstance(exc, ProtectedError | RestrictedError):
        return Response({"detail": still_needed_sentence(exc)}, status=status.HTTP_409_CONFLICT)
    return drf_exception_handler(exc, context)


def still_needed_sentence(exc: ProtectedError | RestrictedError) -> str:
    """'This cannot be deleted: 3 battles, 2 armies still refer to it. ...' from the objects that block it."""
    counts: dict[str, int] = {}
    for obj in exc.protected_objects if isinstance(exc, ProtectedError) else exc.restricted_objects:
        name = str(obj._meta.verbose_name_plural)
        counts[name] = counts.get(name, 0) + 1
    what = ", ".join(f"{n} {name}" for name, n in sorted(counts.items()))
    return f"This cannot be deleted: {what} still refer to it. Remove or reassign those first."
