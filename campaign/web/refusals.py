"""A service's refusal in words for a page: a ValidationError's messages or a NotAllowed's sentence."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from campaign.campaigns.permissions import NotAllowed


def refusal_sentence(exc: ValidationError | NotAllowed) -> str:
    return exc.message if isinstance(exc, NotAllowed) else " ".join(exc.messages)


def refusal_message(request: HttpRequest, exc: ValidationError | NotAllowed) -> None:
    """Show the refusal as an error message on the next page."""
    messages.error(request, refusal_sentence(exc))
