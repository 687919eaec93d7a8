"""Turns service refusals into API answers: a model ValidationError is a 400 with field errors,
a role refusal a 403 with the sentence, never a 500.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
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
    return drf_exception_handler(exc, context)
