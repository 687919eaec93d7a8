"""Which rows belong to a campaign, read from the app registry: every model with a chain of foreign keys to
Campaign (the shortest, through required keys where there is one). A new model is exported without anyone
listing it; a model of the project's apps with no such chain must be named in NOT_A_CAMPAIGNS with a reason
(a test keeps that list honest)."""

from __future__ import annotations

from collections import deque
from functools import cache
from typing import cast

from django.apps import apps
from django.db import models

PROJECT_APPS = ("campaign", "battles", "cardgames")

NOT_A_CAMPAIGNS = {
    "campaign.heartbeat": "the workers' heartbeat is the server's, not a campaign's",
    "campaign.feedtoken": "a user's chronicle feed secret, not a campaign's",
    "campaign.idempotentrequest": "a user's retried requests, answered for a few days, not a campaign's history",
    "campaign.notificationpreference": "a user's choice of push and e-mail, not a campaign's",
    "campaign.pushsubscription": "a user's browser, not a campaign's",
}
"""Models of the project's apps that belong to no campaign, with the reason."""

SHARED_CATALOGUE = "campaign.unittype"
"""The catalogue's default unit types (no campaign) are shared by every campaign: an export carries the ones its
rows use, and an import reuses a default of the same name where the instance has one."""


def _foreign_keys(model: type[models.Model]) -> list[models.ForeignKey]:
    return [f for f in model._meta.concrete_fields if isinstance(f, models.ForeignKey)]


def _path_to_campaign(model: type[models.Model], campaign_model: type[models.Model]) -> str | None:
    """The lookup from `model` to its campaign ("" for Campaign itself), or None. Breadth first, trying
    required keys before optional ones so a row's campaign is never read through a key that may be empty."""
    if model is campaign_model:
        return ""
    for allow_optional in (False, True):
        seen = {model}
        queue: deque[tuple[type[models.Model], str]] = deque([(model, "")])
        while queue:
            current, path = queue.popleft()
            for field in _foreign_keys(current):
                if field.null and not allow_optional:
                    continue
                target = cast(type[models.Model], field.related_model)  # resolved: the registry is ready
                lookup = f"{path}__{field.name}" if path else field.name
                if target is campaign_model:
                    return lookup
                if target not in seen and target._meta.app_label in PROJECT_APPS:
                    seen.add(target)
                    queue.append((target, lookup))
    return None


@cache
def campaign_models() -> tuple[tuple[type[models.Model], str], ...]:
    """(model, lookup to its campaign) for every model whose rows belong to one, Campaign first."""
    campaign_model = apps.get_model("campaign", "Campaign")
    found = []
    for model in apps.get_models():
        if model._meta.label_lower in NOT_A_CAMPAIGNS:
            continue
        path = _path_to_campaign(model, campaign_model)
        if path is not None:
            found.append((model, path))
    return tuple(sorted(found, key=lambda pair: (pair[0] is not campaign_model, pair[0]._meta.label_lower)))


def campaign_rows(model: type[models.Model], path: str, campaign) -> models.QuerySet:
    """The rows of `model` that belong to `campaign`, in primary-key order."""
    lookup = f"{path}__pk" if path else "pk"
    return model._base_manager.filter(**{lookup: campaign.pk}).order_by("pk")
