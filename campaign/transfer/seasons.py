"""A new season from a campaign: the same members, house rules, catalogue, map and commanders, without the history.

Copied: the description and house rules; every membership with its role; the campaign's own unit types with their
artwork; the map with its picture, terrain, locations (with their holders, capture progress reset) and Bases (their
bonus fresh); every commander still in play with a fresh sheet (full Morale, no Battle, no Dervish choice), their
item cards not destroyed and their living units (Strength, trainings and what a third training gave), in reserve.
Not copied: Events and Days, the ledger, armies and orders, Battles, matches and challenges, funding requests,
invitations, the audit trail. Lunari carry over only when the game master asks, as one grant from the bank per
purse (the new ledger starts there); a retinue is read from who paid for a unit in the ledger, so units start the
season as no one's retinue.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import models, transaction
from django.utils.text import slugify

from campaign.campaigns.audit import audit_record
from campaign.economy import ledger
from campaign.economy.rules import starting_morale
from campaign.models import (
    AuditEntry,
    Base,
    Campaign,
    Commander,
    Item,
    Location,
    Membership,
    Role,
    TacticalMap,
    TerrainRegion,
    Unit,
    UnitType,
)

SEASON_OF = "campaign.season_of"


def _fields(obj: models.Model, *skip: str) -> dict:
    """The row's values but its id, its files and the fields named in `skip` (by name)."""
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields
            if not f.primary_key and not isinstance(f, models.FileField) and f.name not in skip}


def _copy_files(source: models.Model, copy: models.Model) -> None:
    """Each file of `source` stored again for `copy` (under the copy's own folder), then the copy saved."""
    for field in source._meta.concrete_fields:
        stored = getattr(source, field.attname) if isinstance(field, models.FileField) else None
        if stored and stored.storage.exists(stored.name):
            with stored.open("rb") as content:
                getattr(copy, field.attname).save(stored.name.rsplit("/", 1)[-1], ContentFile(content.read()),
                                                  save=False)
    copy.save()


def _season_already_made(source: Campaign, slug: str) -> Campaign | None:
    """The campaign at `slug` if it is this source's new season (a retried request), None if the slug is free;
    refused if another campaign has it."""
    existing = Campaign.objects.filter(slug=slug).first()
    if existing is None:
        return None
    if AuditEntry.objects.filter(campaign=existing, action=SEASON_OF, data__source=source.pk).exists():
        return existing
    raise ValidationError({"slug": f"The address /c/{slug}/ is taken by another campaign: choose another."})


def _unit_types(source: Campaign, season: Campaign) -> dict[int, int]:
    """The campaign's own unit types copied, with their artwork: old id -> new id (defaults are shared)."""
    ids: dict[int, int] = {}
    own = list(UnitType.objects.filter(campaign=source).order_by("pk"))
    for unit_type in own:
        copy = UnitType(**_fields(unit_type, "campaign", "trains_to"), campaign=season)
        _copy_files(unit_type, copy)
        ids[unit_type.pk] = copy.pk
    for unit_type in own:
        if unit_type.trains_to_id:
            UnitType.objects.filter(pk=ids[unit_type.pk]).update(
                trains_to_id=ids.get(unit_type.trains_to_id, unit_type.trains_to_id))
    return ids


def _commanders(source: Campaign, season: Campaign, type_ids: dict[int, int], *, carry_purses: bool,
                actor: User) -> dict[int, Commander]:
    """Commanders in play with a fresh sheet, their item cards and living units; purses empty or carried over."""
    copies: dict[int, Commander] = {}
    for commander in Commander.objects.filter(campaign=source).active().order_by("pk"):
        copy = Commander.objects.create(
            campaign=season, player_id=commander.player_id, name=commander.name, level=commander.level,
            power=commander.power, tactician_choice=commander.tactician_choice, influence=commander.influence,
            morale=starting_morale(commander.level))
        ledger.ledger_purse(commander=copy)
        balance = ledger.ledger_purse(commander=commander).balance
        if carry_purses and balance > 0:
            ledger.ledger_grant(commander=copy, amount=balance, reason=f"Carried over from {source}", actor=actor)
        copies[commander.pk] = copy
    Item.objects.bulk_create(
        Item(commander=copies[item.commander_id], name=item.name, kind=item.kind)
        for item in Item.objects.filter(commander__in=copies, destroyed_at__isnull=True).order_by("pk"))
    Unit.objects.bulk_create(
        Unit(**_fields(unit, "campaign", "commander", "unit_type", "last_trained_event", "state", "army",
                       "lent_to", "recruited_event", "recruited_at"),
             campaign=season, commander=copies[unit.commander_id],
             unit_type_id=type_ids.get(unit.unit_type_id, unit.unit_type_id), state=Unit.State.RESERVE)
        for unit in Unit.objects.filter(commander__in=copies).exclude(state=Unit.State.KILLED).order_by("pk"))
    return copies


def _map(source: Campaign, season: Campaign, commanders: dict[int, Commander]) -> None:
    """The map, its picture and terrain, locations kept by their holders (progress reset) and Bases, fresh."""
    original = TacticalMap.objects.filter(campaign=source).first()
    if original is None:
        return
    copy = TacticalMap(**_fields(original, "campaign"), campaign=season)
    _copy_files(original, copy)
    TerrainRegion.objects.bulk_create(TerrainRegion(**_fields(region, "map"), map=copy)
                                      for region in original.regions.order_by("pk"))
    locations = {}
    for location in original.locations.order_by("pk"):
        holder = commanders.get(location.holder_id) if location.holder_id else None
        locations[location.pk] = Location.objects.create(
            **_fields(location, "map", "holder", "capture_progress", "capturing_army"), map=copy, holder=holder)
    Base.objects.bulk_create(
        Base(**_fields(base, "map", "location", "spent_on"), map=copy,
             location=locations.get(base.location_id) if base.location_id else None)
        for base in original.bases.order_by("pk"))


@transaction.atomic
def campaign_new_season(*, source: Campaign, name: str, slug: str, actor: User, carry_purses: bool) -> Campaign:
    """The new season at /c/<slug>/ (see the module's docstring). A retried request answers the season it already
    made; the source is left as it was (it may be archived: it is only read)."""
    name = name.strip()
    if not name:
        raise ValidationError({"name": "Give the new season a name."})
    slug = slugify(slug or name)[:140]
    if not slug:
        raise ValidationError({"slug": "Give the new season an address of letters, digits and hyphens."})
    if (made := _season_already_made(source, slug)) is not None:
        return made
    season = Campaign.objects.create(name=name, slug=slug, description=source.description,
                                     house_rules=source.house_rules)
    Membership.objects.bulk_create(Membership(campaign=season, user_id=m.user_id, role=m.role)
                                   for m in Membership.objects.filter(campaign=source).order_by("pk"))
    Membership.objects.filter(campaign=season, user=actor).update(role=Role.GM)
    audit_record(campaign=season, actor=actor, action=SEASON_OF, target=source, data={"source": source.pk})
    commanders = _commanders(source, season, _unit_types(source, season), carry_purses=carry_purses, actor=actor)
    _map(source, season, commanders)
    audit_record(campaign=source, actor=actor, action="campaign.new_season", target=season,
                 data={"season": season.pk, "commanders": len(commanders)})
    return season
