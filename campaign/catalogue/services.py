"""Writes for the unit catalogue: a campaign's own unit types (add, edit, delete when nothing names
them) and their artwork. Each change is audited.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

from campaign.campaigns.audit import audit_record
from campaign.catalogue import artwork
from campaign.catalogue.entries import catalogue_entry_clean, catalogue_entry_of, catalogue_load
from campaign.locking import lock
from campaign.models import (
    Campaign,
    UnitTraining,
    UnitType,
)


@transaction.atomic
def unit_type_set_artwork(*, unit_type: UnitType, upload, actor: User | None) -> UnitType:
    """Replace a unit type's artwork with a cleaned, bounded copy of the upload and a thumbnail."""
    processed = artwork.artwork_process(upload)
    old = [f.name for f in (unit_type.artwork, unit_type.artwork_thumbnail) if f]
    unit_type.artwork.save(processed.name, processed.image, save=False)
    unit_type.artwork_thumbnail.save(processed.thumbnail_name, processed.thumbnail, save=False)
    unit_type.save(update_fields=["artwork", "artwork_thumbnail"])
    storage = unit_type.artwork.storage
    transaction.on_commit(lambda: [storage.delete(name) for name in old if storage.exists(name)])
    if (campaign := unit_type.campaign) is not None:
        audit_record(campaign=campaign, actor=actor, action="unit_type.artwork", target=unit_type,
                     data={"width": processed.width, "height": processed.height})
    return unit_type


def _unit_type_locked_in_scope(unit_type: UnitType, campaign: Campaign | None) -> UnitType:
    unit_type = lock(UnitType.objects).select_related("trains_to").get(pk=unit_type.pk)
    if unit_type.campaign_id not in (None, campaign.pk if campaign else None):
        raise ValidationError(f"{unit_type} belongs to another campaign's catalogue: edit it there.")
    return unit_type


@transaction.atomic
def unit_type_save(*, campaign: Campaign | None, entry: dict, actor: User | None,
                   unit_type: UnitType | None = None, with_artwork: bool = True) -> UnitType:
    """Add a unit type to a catalogue (a campaign's, or the defaults for None) or change one, through
    catalogue_load so a form, the API, the admin and a file all pass the same checks.

    Changing a default type for a campaign saves the campaign's own version under the same name, which replaces
    the default there and nowhere else; it starts with the default's artwork unless with_artwork is False.
    A new type may not take the name of one the catalogue already has: edit that one instead."""
    name = catalogue_entry_clean(entry)["name"]
    scope = UnitType.objects.filter(campaign=campaign)
    if unit_type is None:
        if scope.filter(name=name).exists():
            raise ValidationError({"name": f"The catalogue already has {name}: edit it instead, or pick another "
                                           "name."})
    else:
        unit_type = _unit_type_locked_in_scope(unit_type, campaign)
        if unit_type.campaign_id == (campaign.pk if campaign else None) and unit_type.name != name:
            if scope.filter(name=name).exists():
                raise ValidationError({"name": f"The catalogue already has {name}: pick another name."})
            unit_type.name = name
            unit_type.save(update_fields=["name"])
    catalogue_load(entries=[entry], campaign=campaign, actor=actor)
    saved = scope.get(name=name)
    if (with_artwork and unit_type is not None and unit_type.pk != saved.pk and unit_type.artwork
            and not saved.artwork):
        with unit_type.artwork.open("rb") as original:
            saved = unit_type_set_artwork(unit_type=saved, upload=original, actor=actor)
    return saved


@transaction.atomic
def unit_type_set_campaign_artwork(*, campaign: Campaign, unit_type: UnitType, upload,
                                   actor: User | None) -> UnitType:
    """A campaign's artwork for a type it sees. A default type gets the campaign's own version first, so other
    campaigns keep the default's picture."""
    unit_type = _unit_type_locked_in_scope(unit_type, campaign)
    if unit_type.campaign_id is None:
        unit_type = unit_type_save(campaign=campaign, entry=catalogue_entry_of(unit_type), unit_type=unit_type,
                                   actor=actor, with_artwork=False)
    return unit_type_set_artwork(unit_type=unit_type, upload=upload, actor=actor)


@transaction.atomic
def unit_type_delete(*, campaign: Campaign, unit_type: UnitType, actor: User | None) -> str:
    """Take one of the campaign's own types out of its catalogue (a replaced default shows again). A type that
    units, trainings, recruit lists or other types' training name stays: the records that name it must keep it.
    Returns the deleted type's name."""
    unit_type = _unit_type_locked_in_scope(unit_type, campaign)
    if unit_type.campaign_id is None:
        raise ValidationError(f"{unit_type} is a default type every campaign shares: only {campaign}'s own types "
                              f"can be deleted. Edit it to make {campaign}'s own version instead.")
    uses = [(unit_type.units.count(), "unit"), (unit_type.offers.count(), "recruit offer"),
            (UnitTraining.objects.filter(Q(type_from=unit_type) | Q(type_to=unit_type)).count(), "training"),
            (unit_type.trained_from.count(), "unit type training into it")]
    named = [f"{n} {what}{'s' if n > 1 else ''}" for n, what in uses if n]
    if named:
        raise ValidationError(f"{unit_type} cannot be deleted: {', '.join(named)} name it. Edit it instead.")
    name = unit_type.name
    audit_record(campaign=campaign, actor=actor, action="catalogue.delete", target=campaign,
                 data={"unit_type": unit_type.pk, "name": name})
    files = [image for image in (unit_type.artwork, unit_type.artwork_thumbnail) if image]
    unit_type.delete()
    transaction.on_commit(lambda: [image.storage.delete(image.name) for image in files])
    return name
