"""Reads for the unit catalogue: the types a campaign sees (its own over the shared defaults)."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from campaign.models import (
    Campaign,
    UnitType,
)


def unit_types_for_campaign(*, campaign: Campaign | None) -> QuerySet[UnitType]:
    """The catalogue a campaign sees, by name: its own types, and every default type it has not replaced by name."""
    defaults = Q(campaign__isnull=True)
    if campaign is not None:
        own = UnitType.objects.filter(campaign=campaign)
        defaults = Q(campaign=campaign) | (defaults & ~Q(name__in=own.values("name")))
    return UnitType.objects.filter(defaults).select_related("trains_to").order_by("name")


def unit_type_by_name(*, campaign: Campaign | None, name: str) -> UnitType | None:
    """The campaign's own type of that name, else the default one."""
    if campaign is not None:
        own = UnitType.objects.filter(campaign=campaign, name=name).first()
        if own:
            return own
    return UnitType.objects.filter(campaign__isnull=True, name=name).first()
