"""A service's refusal in words for a page: a ValidationError's messages or a NotAllowed's sentence, and the one
way a view shows it (refusal_shown) instead of failing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from campaign.campaigns.permissions import NotAllowed

Refusal = type[ValidationError] | type[NotAllowed]


def refusal_sentence(exc: ValidationError | NotAllowed) -> str:
    return exc.message if isinstance(exc, NotAllowed) else " ".join(exc.messages)


def refusal_message(request: HttpRequest, exc: ValidationError | NotAllowed) -> None:
    """Show the refusal as an error message on the next page."""
    messages.error(request, refusal_sentence(exc))


@contextmanager
def refusal_shown(request: HttpRequest, *refusals: Refusal) -> Iterator[None]:
    """Run a form's work (the service call, then its success message and redirect); a refusal stops it and is
    shown as an error message instead, and the view goes on after the block (back to the page, or the form
    again). `refusals` narrows what is shown: with ValidationError alone, a NotAllowed (a role, an archived
    campaign) goes on to the 403 page."""
    shown = refusals or (ValidationError, NotAllowed)
    try:
        yield
    except shown as exc:
        refusal_message(request, exc)
