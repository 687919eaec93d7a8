"""Checks the economy's services share: objects of one campaign, and a rule's refusal as a ValidationError."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.core.exceptions import ValidationError

from campaign.economy.rules import EconomyRefusal


@contextmanager
def rule_refusals() -> Iterator[None]:
    """Turn a rule's refusal into the ValidationError views and the API know how to show."""
    try:
        yield
    except EconomyRefusal as exc:
        raise ValidationError(str(exc)) from exc


def same_campaign(*objects, message: str = "These belong to different campaigns: pick ones from this campaign."
                  ) -> int:
    """The one campaign all `objects` belong to; refused when they belong to several."""
    campaigns = {obj.campaign_id for obj in objects}
    if len(campaigns) != 1:
        raise ValidationError(message)
    return campaigns.pop()
