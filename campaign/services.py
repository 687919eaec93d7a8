"""Writes for campaigns, events, days, memberships and the economy. Each is one transaction with an audit row."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone
from django.utils.text import slugify

from campaign import artwork, ledger, selectors
from campaign.catalogue import catalogue_entry_clean, catalogue_entry_of, catalogue_load
from campaign.economy_rules import (
    COMMANDER_POWERS,
    MAX_TRAININGS,
    TACTICIAN_CHOICES,
    EconomyRefusal,
    TrainingPrice,
    morale_purchase_price,
    recruit_price,
    starting_morale,
    training_price,
)
from campaign.models import (
    Army,
    ArmyDayActivity,
    AuditEntry,
    Campaign,
    Commander,
    Day,
    Event,
    EventRecruitOffer,
    FundingRequest,
    Heartbeat,
    Item,
    Membership,
    Role,
    Unit,
    UnitTraining,
    UnitType,
    UpkeepArrears,
    UpkeepBill,
    UpkeepLine,
    UpkeepMoralePledge,
)
from campaign.permissions import NotAllowed, may_act_for, membership_for


def audit_record(*, campaign: Campaign, actor: User | None, action: str, target: object = "",
                 data: dict | None = None) -> AuditEntry:
    return AuditEntry.objects.create(campaign=campaign, actor=actor if actor and actor.pk else None,
                                     action=action, target=str(target)[:200], data=data or {})


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "campaign"
    slug, n = base, 1
    while Campaign.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def campaign_create(*, name: str, creator: User, description: str = "") -> Campaign:
    """A new campaign; its creator is its first game master."""
    if not name.strip():
        raise ValidationError({"name": "Give the campaign a name."})
    campaign = Campaign.objects.create(name=name.strip(), slug=_unique_slug(name), description=description)
    Membership.objects.create(campaign=campaign, user=creator, role=Role.GM)
    audit_record(campaign=campaign, actor=creator, action="campaign.create", target=campaign)
    return campaign


@transaction.atomic
def campaign_update(*, campaign: Campaign, actor: User, name: str | None = None,
                    description: str | None = None, house_rules: dict | None = None) -> Campaign:
    changed = []
    if name is not None:
        if not name.strip():
            raise ValidationError({"name": "Give the campaign a name."})
        campaign.name = name.strip()
        changed.append("name")
    if description is not None:
        campaign.description = description
        changed.append("description")
    if house_rules is not None:
        campaign.house_rules = house_rules
        changed.append("house_rules")
    if changed:
        campaign.save(update_fields=changed)
        audit_record(campaign=campaign, actor=actor, action="campaign.update", target=campaign,
                     data={"fields": changed})
    return campaign


@transaction.atomic
def membership_add(*, campaign: Campaign, user: User, role: str,
                   actor: User | None) -> Membership:
    if role not in Role.values:
        raise ValidationError({"role": f"Role must be one of: {', '.join(Role.values)}."})
    if Membership.objects.filter(campaign=campaign, user=user).exists():
        raise ValidationError({"user": f"{user} is already in {campaign}: change their role instead."})
    membership = Membership.objects.create(campaign=campaign, user=user, role=role)
    audit_record(campaign=campaign, actor=actor, action="membership.add", target=user, data={"role": role})
    return membership


def _ensure_another_gm(membership: Membership) -> None:
    others = Membership.objects.select_for_update().filter(campaign=membership.campaign_id, role=Role.GM)
    if membership.role == Role.GM and others.exclude(pk=membership.pk).count() == 0:
        raise ValidationError({"role": "A campaign needs a game master: make someone else GM first."})


@transaction.atomic
def membership_set_role(*, membership: Membership, role: str, actor: User) -> Membership:
    if role not in Role.values:
        raise ValidationError({"role": f"Role must be one of: {', '.join(Role.values)}."})
    if role != membership.role:
        _ensure_another_gm(membership)
        old = membership.role
        membership.role = role
        membership.save(update_fields=["role"])
        audit_record(campaign=membership.campaign, actor=actor, action="membership.role",
                     target=membership.user, data={"from": old, "to": role})
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, actor: User) -> None:
    _ensure_another_gm(membership)
    audit_record(campaign=membership.campaign, actor=actor, action="membership.remove", target=membership.user)
    membership.delete()


def _check_event_times(starts_at: datetime, ends_at: datetime) -> None:
    if timezone.is_naive(starts_at) or timezone.is_naive(ends_at):
        raise ValidationError("Event times need a time zone.")
    if ends_at <= starts_at:
        raise ValidationError({"ends_at": "An Event must end after it starts: pick a later end."})


@transaction.atomic
def event_create(*, campaign: Campaign, name: str, starts_at: datetime, ends_at: datetime,
                 actor: User | None, minutes_per_hour: int = 60) -> Event:
    """A planned Event with its first Day open."""
    _check_event_times(starts_at, ends_at)
    if minutes_per_hour < 1:
        raise ValidationError({"minutes_per_hour": "An in-game hour must last at least one real minute."})
    event = Event.objects.create(campaign=campaign, name=name, starts_at=starts_at, ends_at=ends_at,
                                 minutes_per_hour=minutes_per_hour)
    Day.objects.create(event=event, number=1)
    audit_record(campaign=campaign, actor=actor, action="event.create", target=event)
    return event


@transaction.atomic
def event_update(*, event: Event, actor: User, **fields) -> Event:
    allowed = {"name", "starts_at", "ends_at", "minutes_per_hour"}
    unknown = set(fields) - allowed
    if unknown:
        raise ValidationError(f"These fields cannot be changed here: {', '.join(sorted(unknown))}.")
    for key, value in fields.items():
        setattr(event, key, value)
    _check_event_times(event.starts_at, event.ends_at)
    if fields:
        event.save(update_fields=sorted(fields))
        audit_record(campaign=event.campaign, actor=actor, action="event.update", target=event,
                     data={"fields": sorted(fields)})
    return event


def heartbeat_record(*, name: str) -> Heartbeat:
    """Note that a background process is alive (idempotent apart from the counter)."""
    now = timezone.now()
    heartbeat, created = Heartbeat.objects.get_or_create(name=name, defaults={"seen_at": now, "beats": 1})
    if not created:
        Heartbeat.objects.filter(pk=heartbeat.pk).update(seen_at=now, beats=F("beats") + 1)
        heartbeat.refresh_from_db()
    return heartbeat


# ---------------------------------------------------------------------------------------------
# The economy: commanders, items, armies, recruiting, training, upkeep, Morale, retinues, funding.
# Lunari move only through campaign.ledger. Role checks (GM-only actions) happen in the views
# through campaign.permissions; a service here also refuses an actor who may not act for the
# commander whose purse or unit it touches (actor None is a scheduled job or the demo loader).
# ---------------------------------------------------------------------------------------------


@contextmanager
def _rules() -> Iterator[None]:
    """Turn a rule's refusal into the ValidationError views and the API know how to show."""
    try:
        yield
    except EconomyRefusal as exc:
        raise ValidationError(str(exc)) from exc


def _require_acting_for(actor: User | None, commander: Commander) -> None:
    if actor is None:
        return
    membership = membership_for(user=actor, campaign=commander.campaign_id)
    if not may_act_for(membership, commander.player_id):
        raise NotAllowed(f"Only {commander}'s player or a game master may do that for {commander}.")


def _same_campaign(*objects, message: str = "These belong to different campaigns: pick ones from this campaign."
                   ) -> int:
    campaigns = {obj.campaign_id for obj in objects}
    if len(campaigns) != 1:
        raise ValidationError(message)
    return campaigns.pop()


def _check_power(power: str, tactician_choice: str) -> None:
    if power not in COMMANDER_POWERS:
        raise ValidationError({"power": f"Pick one of the twenty commander powers, not {power!r}."})
    if tactician_choice and power != "Tactician":
        raise ValidationError({"tactician_choice": "Only a Tactician picks a power to copy: leave it empty."})
    if tactician_choice and tactician_choice not in TACTICIAN_CHOICES:
        raise ValidationError({"tactician_choice": "A Tactician copies a power of the Guardian row or the Steel "
                                                   f"column: one of {', '.join(TACTICIAN_CHOICES)}."})


@transaction.atomic
def commander_create(*, campaign: Campaign, name: str, level: int, power: str, actor: User | None,
                     player: User | None = None, tactician_choice: str = "",
                     influence: int = 0) -> Commander:
    """A commander with full starting Morale and an empty purse. No player: a GM-run commander."""
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": "Give the commander a name."})
    if level < 0 or influence < 0:
        raise ValidationError("Level and Influence cannot be negative.")
    _check_power(power, tactician_choice)
    if player is not None and not Membership.objects.filter(campaign=campaign, user=player).exists():
        raise ValidationError({"player": f"{player} is not in {campaign}: add them as a player first."})
    if Commander.objects.filter(campaign=campaign, name=name).exists():
        raise ValidationError({"name": f"{campaign} already has a commander called {name}: pick another name."})
    commander = Commander.objects.create(campaign=campaign, player=player, name=name, level=level, power=power,
                                         tactician_choice=tactician_choice, influence=influence,
                                         morale=starting_morale(level))
    ledger.ledger_purse(commander=commander)
    audit_record(campaign=campaign, actor=actor, action="commander.create", target=commander,
                 data={"level": level, "power": power, "player": player.pk if player else None})
    return commander


@transaction.atomic
def commander_update(*, commander: Commander, actor: User | None, name: str | None = None,
                     level: int | None = None, power: str | None = None, tactician_choice: str | None = None,
                     influence: int | None = None) -> Commander:
    """Change a commander's sheet. A new level changes the starting Morale from the next Day on."""
    commander = Commander.objects.select_for_update().get(pk=commander.pk)
    changes: dict[str, object] = {}
    if name is not None and name.strip() != commander.name:
        if Commander.objects.filter(campaign_id=commander.campaign_id, name=name.strip()).exists():
            raise ValidationError({"name": f"There is already a commander called {name.strip()}: pick another."})
        changes["name"] = name.strip()
    if level is not None:
        if level < 0:
            raise ValidationError({"level": "A level cannot be negative."})
        changes["level"] = level
    if influence is not None:
        if influence < 0:
            raise ValidationError({"influence": "Influence cannot be negative."})
        changes["influence"] = influence
    new_power = power if power is not None else commander.power
    new_choice = tactician_choice if tactician_choice is not None else commander.tactician_choice
    if new_power != "Tactician" and power is not None and tactician_choice is None:
        new_choice = ""
    _check_power(new_power, new_choice)
    if new_power != commander.power:
        changes["power"] = new_power
    if new_choice != commander.tactician_choice:
        changes["tactician_choice"] = new_choice
    changes = {key: value for key, value in changes.items() if getattr(commander, key) != value}
    if changes:
        for key, value in changes.items():
            setattr(commander, key, value)
        commander.save(update_fields=sorted(changes))
        audit_record(campaign=commander.campaign, actor=actor, action="commander.update", target=commander,
                     data={"fields": sorted(changes)})
    return commander


@transaction.atomic
def commander_set_in_battle(*, commander: Commander, in_battle: bool, actor: User | None) -> Commander:
    """The battles app marks a commander as fighting (no Morale may be bought) and done."""
    commander = Commander.objects.select_for_update().get(pk=commander.pk)
    if commander.in_battle != in_battle:
        commander.in_battle = in_battle
        commander.save(update_fields=["in_battle"])
        audit_record(campaign=commander.campaign, actor=actor, action="commander.in_battle", target=commander,
                     data={"in_battle": in_battle})
    return commander


@transaction.atomic
def item_add(*, commander: Commander, name: str, kind: str, actor: User | None) -> Item:
    """Give a commander an item card (weapon cards can later pay for training)."""
    if kind not in Item.Kind.values:
        raise ValidationError({"kind": f"An item is one of: {', '.join(Item.Kind.values)}."})
    if not (name or "").strip():
        raise ValidationError({"name": "Give the item a name."})
    item = Item.objects.create(commander=commander, name=name.strip(), kind=kind)
    audit_record(campaign=commander.campaign, actor=actor, action="item.add", target=item,
                 data={"commander": commander.pk, "kind": kind})
    return item


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
    unit_type = UnitType.objects.select_for_update(of=("self",)).select_related("trains_to").get(pk=unit_type.pk)
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


# --- recruiting ---------------------------------------------------------------------------------------


@transaction.atomic
def recruit_offer_set(*, event: Event, unit_type: UnitType, actor: User | None, by_quest: bool = False,
                      gm_price: int | None = None, note: str = "") -> EventRecruitOffer:
    """Put a unit type on an Event's recruit list (or change its terms)."""
    if unit_type.campaign_id not in (None, event.campaign_id):
        raise ValidationError("That unit type belongs to another campaign's catalogue.")
    if gm_price is not None and gm_price < 0:
        raise ValidationError({"gm_price": "A price cannot be negative."})
    offer, created = EventRecruitOffer.objects.select_for_update().get_or_create(
        event=event, unit_type=unit_type, defaults={"by_quest": by_quest, "gm_price": gm_price, "note": note})
    if not created:
        offer.by_quest, offer.gm_price, offer.note = by_quest, gm_price, note
        offer.save(update_fields=["by_quest", "gm_price", "note"])
    audit_record(campaign=event.campaign, actor=actor, action="recruit_offer.set", target=offer,
                 data={"unit_type": unit_type.name, "by_quest": by_quest, "gm_price": gm_price})
    return offer


@transaction.atomic
def recruit_offer_mark_quest(*, offer: EventRecruitOffer, done: bool, actor: User | None
                             ) -> EventRecruitOffer:
    """A game master marks an offer's quest done (or not yet): only then may it be recruited, at the quest price."""
    offer = EventRecruitOffer.objects.select_for_update(of=("self",)).select_related("event__campaign").get(pk=offer.pk)
    if not offer.by_quest:
        raise ValidationError(f"{offer.unit_type} is not recruited by quest: there is nothing to mark.")
    if offer.quest_done != done:
        offer.quest_done = done
        offer.save(update_fields=["quest_done"])
        audit_record(campaign=offer.event.campaign, actor=actor, action="recruit_offer.quest", target=offer,
                     data={"quest_done": done})
    return offer


@transaction.atomic
def recruit_offer_remove(*, offer: EventRecruitOffer, actor: User | None) -> None:
    audit_record(campaign=offer.event.campaign, actor=actor, action="recruit_offer.remove", target=offer)
    offer.delete()


def recruit_offer_price(*, offer: EventRecruitOffer) -> int:
    """What recruiting from this offer costs now, or a ValidationError that says what is missing."""
    if offer.by_quest and not offer.quest_done:
        raise ValidationError(f"{offer.unit_type} is recruited by quest: complete its quest first "
                              "(a game master marks it done).")
    with _rules():
        return recruit_price(offer.unit_type.strength, after_quest=offer.by_quest, gm_price=offer.gm_price)


@transaction.atomic
def unit_recruit(*, commander: Commander, unit_type: UnitType, event: Event, paid_by: Commander,
                 actor: User | None) -> Unit:
    """Recruit a unit from the Event's recruit list into the commander's reserve; `paid_by` pays the price.

    A quest offer recruits once per completed quest: the quest must be done again for the next unit.
    """
    _require_acting_for(actor, paid_by)
    _same_campaign(commander, paid_by, event)
    if event.status == Event.Status.CLOSED:
        raise ValidationError(f"{event.name} is over: recruit at a running Event.")
    offer = EventRecruitOffer.objects.select_for_update().filter(event=event, unit_type=unit_type).first()
    if offer is None:
        raise ValidationError(f"{unit_type} is not on the recruit list of {event.name}: "
                              "ask a game master to offer it.")
    offer.unit_type = unit_type
    price = recruit_offer_price(offer=offer)
    unit = Unit.objects.create(campaign_id=commander.campaign_id, commander=commander, unit_type=unit_type,
                               strength=unit_type.strength, recruited_event=event)
    txn = None
    if price:
        txn = ledger.ledger_pay_recruitment(payer=paid_by, amount=price, unit=unit, actor=actor,
                                            reason=f"Recruiting {unit_type} for {commander} at {event.name}")
    if offer.by_quest:
        offer.quest_done = False
        offer.save(update_fields=["quest_done"])
    audit_record(campaign=commander.campaign, actor=actor, action="unit.recruit", target=unit,
                 data={"unit": unit.pk, "commander": commander.pk, "paid_by": paid_by.pk, "price": price,
                       "transaction": txn.pk if txn else None, "by_quest": offer.by_quest})
    return unit


# --- training -----------------------------------------------------------------------------------------


def unit_training_quote(*, unit: Unit, weapon_cards: int = 0) -> TrainingPrice:
    """The price of the unit's next training with that many weapon cards destroyed (refusals as sentences)."""
    with _rules():
        return training_price(current_strength=unit.strength, trainings_done=unit.trainings,
                              weapon_cards=weapon_cards)


@transaction.atomic
def unit_train(*, unit: Unit, event: Event, paid_by: Commander, actor: User | None,
               weapon_items: Sequence[Item] = ()) -> UnitTraining:
    """Train a unit: +1 Strength for 10 x the new Strength, less 5 per weapon card of the payer's destroyed
    (at most half). Once per unit per Event, three times in all. A type that names what it trains into
    becomes that type; the third training gives the type's third-training ability."""
    _require_acting_for(actor, paid_by)
    unit = Unit.objects.select_for_update(of=("self",)).select_related("unit_type__trains_to").get(pk=unit.pk)
    _same_campaign(unit, paid_by, event)
    if event.status == Event.Status.CLOSED:
        raise ValidationError(f"{event.name} is over: train units at a running Event.")
    if unit.state == Unit.State.KILLED:
        raise ValidationError("This unit was Killed: it cannot be trained.")
    if unit.last_trained_event_id == event.pk or UnitTraining.objects.filter(unit=unit, event=event).exists():
        raise ValidationError(f"This unit was already trained at {event.name}: train it again at the next Event.")
    item_ids = sorted({item.pk for item in weapon_items})
    items = list(Item.objects.select_for_update().filter(pk__in=item_ids).order_by("pk"))
    if len(items) != len(item_ids):
        raise ValidationError("One of those item cards is gone: reload and pick again.")
    for item in items:
        if item.commander_id != paid_by.pk:
            raise ValidationError(f"{item.name} is not {paid_by}'s: only the payer's weapon cards can be destroyed.")
        if item.kind != Item.Kind.WEAPON:
            raise ValidationError(f"{item.name} is not a weapon: only weapon item cards pay for training.")
        if item.destroyed_at is not None:
            raise ValidationError(f"{item.name} was already destroyed.")
    quote = unit_training_quote(unit=unit, weapon_cards=len(items))
    strength_from = unit.strength
    if strength_from is None:  # unit_training_quote refuses a unit without Strength
        raise RuntimeError(f"Unit {unit.pk} has no Strength but was quoted a training.")
    type_from = unit.unit_type
    type_to = type_from.trains_to or type_from
    number = unit.trainings + 1
    training = UnitTraining.objects.create(
        unit=unit, event=event, number=number, strength_from=strength_from, strength_to=quote.new_strength,
        type_from=type_from, type_to=type_to, price=quote.base, weapon_offset=quote.weapon_offset, paid=quote.to_pay)
    txn = ledger.ledger_pay_training(payer=paid_by, amount=quote.to_pay, training=training, actor=actor,
                                     reason=f"Training {type_from} of {unit.commander} "
                                            f"to Strength {quote.new_strength}")
    if items:
        now = timezone.now()
        for item in items:
            item.destroyed_at, item.destroyed_for = now, training
        Item.objects.bulk_update(items, ["destroyed_at", "destroyed_for"])
    unit.strength = quote.new_strength
    unit.trainings = number
    unit.last_trained_event = event
    unit.unit_type = type_to
    fields = ["strength", "trainings", "last_trained_event", "unit_type"]
    if number == MAX_TRAININGS:
        unit.third_training_ability = type_to.third_training or type_from.third_training
        fields.append("third_training_ability")
    unit.save(update_fields=fields)
    audit_record(campaign=event.campaign, actor=actor, action="unit.train", target=unit,
                 data={"unit": unit.pk, "number": number, "strength": quote.new_strength, "paid": quote.to_pay,
                       "weapon_cards": len(items), "paid_by": paid_by.pk, "transaction": txn.pk,
                       "type_from": type_from.name, "type_to": type_to.name})
    return training


@transaction.atomic
def unit_kill(*, unit: Unit, actor: User | None) -> Unit:
    """A unit is Killed: it leaves its army and costs no more upkeep."""
    unit = Unit.objects.select_for_update().get(pk=unit.pk)
    if unit.state != Unit.State.KILLED:
        unit.state, unit.army = Unit.State.KILLED, None
        unit.save(update_fields=["state", "army"])
        audit_record(campaign=unit.campaign, actor=actor, action="unit.kill", target=unit, data={"unit": unit.pk})
    return unit


@transaction.atomic
def unit_name_retinue(*, unit: Unit, name: str, actor: User | None) -> Unit:
    """Name a retinue. Only its owner (the one character who paid for everything, as the ledger shows) may:
    their player, or a game master for a GM-run owner."""
    unit = Unit.objects.select_for_update().get(pk=unit.pk)
    owner = selectors.unit_retinue_owner(unit=unit)
    if owner is None:
        raise ValidationError("This unit is nobody's retinue: only a unit whose recruitment, every training and "
                              "every upkeep one character paid can be named.")
    if actor is not None:
        if owner.player_id is not None:
            allowed = owner.player_id == actor.pk
        else:
            membership = membership_for(user=actor, campaign=unit.campaign_id)
            allowed = membership is not None and membership.is_gm
        if not allowed:
            raise NotAllowed(f"Only {owner}, whose retinue this is, may name it.")
    name = (name or "").strip()
    if not name or len(name) > 120:
        raise ValidationError({"name": "Give the retinue a name of 1 to 120 characters."})
    if name != unit.name:
        unit.name = name
        unit.save(update_fields=["name"])
        audit_record(campaign=unit.campaign, actor=actor, action="unit.name", target=unit,
                     data={"unit": unit.pk, "name": name, "owner": owner.pk})
    return unit


FAIR_ESCAPE_INFLUENCE = 1
"""What Fair Escape costs a player character (RULINGS: spent as Influence, unless a retinue takes -2)."""
RETINUE_ESCAPE_STRENGTH = 2


@transaction.atomic
def commander_fair_escape(*, commander: Commander, actor: User | None,
                          retinue_unit: Unit | None = None) -> Commander:
    """A player character invokes Fair Escape: they spend 1 Influence, or one of their own retinue units
    takes -2 Strength instead and is Killed at 0 or less (army-combat.txt, Retinues)."""
    commander = Commander.objects.select_for_update().get(pk=commander.pk)
    _require_acting_for(actor, commander)
    if not commander.is_player_character:
        raise ValidationError("Fair Escape is for player characters: this commander is run by the game masters.")
    data: dict = {"commander": commander.pk}
    if retinue_unit is None:
        if commander.influence < FAIR_ESCAPE_INFLUENCE:
            raise ValidationError(f"{commander} has no Influence left for Fair Escape: one of their retinue units "
                                  "may take -2 Strength instead.")
        commander.influence -= FAIR_ESCAPE_INFLUENCE
        commander.save(update_fields=["influence"])
        data["influence"] = FAIR_ESCAPE_INFLUENCE
    else:
        unit = Unit.objects.select_for_update().get(pk=retinue_unit.pk)
        if unit.state == Unit.State.KILLED or selectors.unit_retinue_owner(unit=unit) != commander:
            raise ValidationError(f"Only a living unit of {commander}'s own retinue can take -2 Strength for "
                                  "their Fair Escape.")
        if unit.strength is None:
            raise ValidationError(f"{unit.name or unit.unit_type.name} has no Strength to lose: choose another "
                                  "retinue unit or Influence.")
        data.update(unit=unit.pk, strength_from=unit.strength)
        if unit.strength <= RETINUE_ESCAPE_STRENGTH:
            unit_kill(unit=unit, actor=actor)
            data["killed"] = True
        else:
            unit.strength -= RETINUE_ESCAPE_STRENGTH
            unit.save(update_fields=["strength"])
            data["strength_to"] = unit.strength
    audit_record(campaign=commander.campaign, actor=actor, action="commander.fair_escape", target=commander,
                 data=data)
    return commander


# --- armies -------------------------------------------------------------------------------------------


@transaction.atomic
def army_create(*, commander: Commander, name: str, actor: User | None) -> Army:
    _require_acting_for(actor, commander)
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": "Give the army a name."})
    if Army.objects.filter(commander=commander, name=name).exists():
        raise ValidationError({"name": f"{commander} already has an army called {name}: pick another name."})
    army = Army.objects.create(campaign_id=commander.campaign_id, commander=commander, name=name)
    audit_record(campaign=commander.campaign, actor=actor, action="army.create", target=army)
    return army


@transaction.atomic
def army_assign_unit(*, unit: Unit, army: Army | None, actor: User | None) -> Unit:
    """Put a unit into one of its commander's armies, or back into reserve (army None)."""
    unit = Unit.objects.select_for_update(of=("self",)).select_related("commander").get(pk=unit.pk)
    _require_acting_for(actor, unit.commander)
    if unit.state == Unit.State.KILLED:
        raise ValidationError("This unit was Killed: it cannot join an army.")
    if army is not None and army.commander_id != unit.commander_id:
        raise ValidationError(f"{army.name} is not {unit.commander}'s army: a unit joins its own commander's armies.")
    new_state = Unit.State.IN_ARMY if army is not None else Unit.State.RESERVE
    new_army_id = army.pk if army is not None else None
    if unit.army_id != new_army_id:
        unit.army_id, unit.state = new_army_id, new_state
        unit.save(update_fields=["army", "state"])
        audit_record(campaign=unit.campaign, actor=actor, action="unit.assign", target=unit,
                     data={"unit": unit.pk, "army": new_army_id})
    return unit


@transaction.atomic
def army_mark_led(*, army: Army, day: Day, reason: str, actor: User | None) -> ArmyDayActivity:
    """Record that an army was led on a Day (moved, captured, defended, fought, or marked by a person):
    its commander pays its upkeep when the Day closes. Marking twice for the same reason changes nothing."""
    if reason not in ArmyDayActivity.Reason.values:
        reasons = ", ".join(ArmyDayActivity.Reason.values)
        raise ValidationError({"reason": f"Say why the army was led: one of {reasons}."})
    day = Day.objects.select_related("event").get(pk=day.pk)
    if day.event.campaign_id != army.campaign_id:
        raise ValidationError("That Day belongs to another campaign.")
    if day.status != Day.Status.OPEN:
        raise ValidationError(f"{day} is closed: its upkeep is already settled.")
    activity, created = ArmyDayActivity.objects.get_or_create(
        army=army, day=day, reason=reason, defaults={"marked_by": actor if actor and actor.pk else None})
    if created and actor is not None:
        audit_record(campaign=army.campaign, actor=actor, action="army.led", target=army,
                     data={"day": day.pk, "reason": reason})
    return activity


# --- upkeep, Morale and the end of a Day -----------------------------------------------------------------


@transaction.atomic
def upkeep_pledge_morale(*, commander: Commander, day: Day, points: int, actor: User | None
                         ) -> UpkeepMoralePledge:
    """Set how much Morale the commander will spend on this Day's upkeep (5 lunari off a point).
    At the close the pledge is capped at the Morale left and at what the bill can use."""
    _require_acting_for(actor, commander)
    commander = Commander.objects.select_for_update().get(pk=commander.pk)
    if day.status != Day.Status.OPEN:
        raise ValidationError(f"{day} is closed: pledge Morale on the open Day.")
    if points < 0:
        raise ValidationError({"points": "Pledge 0 or more Morale."})
    if points > commander.morale:
        raise ValidationError({"points": f"{commander} has {commander.morale} Morale: pledge at most that."})
    pledge, _ = UpkeepMoralePledge.objects.update_or_create(commander=commander, day=day,
                                                            defaults={"points": points})
    audit_record(campaign=commander.campaign, actor=actor, action="upkeep.pledge_morale", target=commander,
                 data={"day": day.pk, "points": points})
    return pledge


@transaction.atomic
def morale_buy(*, commander: Commander, day: Day, points: int, actor: User | None) -> Commander:
    """Buy Morale: once per Day, 5 lunari a point, up to the starting value, never during a Battle."""
    _require_acting_for(actor, commander)
    commander = Commander.objects.select_for_update().get(pk=commander.pk)
    day = Day.objects.select_related("event").get(pk=day.pk)
    if day.event.campaign_id != commander.campaign_id:
        raise ValidationError("That Day belongs to another campaign.")
    if day.status != Day.Status.OPEN:
        raise ValidationError(f"{day} is closed: buy Morale on the open Day.")
    with _rules():
        price = morale_purchase_price(current=commander.morale, start=commander.starting_morale, points=points,
                                      bought_today=commander.morale_bought_on_id == day.pk,
                                      in_battle=commander.in_battle)
    txn = ledger.ledger_buy_morale(commander=commander, points=points, amount=price, actor=actor)
    commander.morale += points
    commander.morale_bought_on = day
    commander.save(update_fields=["morale", "morale_bought_on"])
    audit_record(campaign=commander.campaign, actor=actor, action="morale.buy", target=commander,
                 data={"points": points, "price": price, "day": day.pk, "transaction": txn.pk})
    return commander


@dataclass(frozen=True)
class DayCloseResult:
    day: Day
    next_day: Day | None
    bills: list[UpkeepBill]
    arrears: list[UpkeepArrears]
    already_closed: bool = False


@transaction.atomic
def day_close(*, day: Day, actor: User | None) -> DayCloseResult:
    """End a Day: post every commander's upkeep (the same bill the forecast shows), record as arrears what a
    purse cannot pay, refresh every commander's Morale to its starting value, and open the next Day.

    Idempotent: a closed Day is returned as it is, and a bill is unique per commander and Day, so a close
    delivered twice charges once. The number of queries does not grow with the number of commanders.
    Locks: the Day, then the campaign's commanders, then the purses, each in primary-key order.
    """
    day = Day.objects.select_for_update(of=("self",)).select_related("event__campaign").get(pk=day.pk)
    event = day.event
    if day.status == Day.Status.CLOSED:
        next_day = Day.objects.filter(event=event, number=day.number + 1).first()
        return DayCloseResult(day=day, next_day=next_day, bills=list(day.upkeep_bills.all()),
                              arrears=list(UpkeepArrears.objects.filter(bill__day=day)), already_closed=True)
    levels = dict(Commander.objects.select_for_update().filter(campaign_id=event.campaign_id).order_by("pk")
                  .values_list("pk", "level"))
    inputs = selectors.upkeep_inputs_for_day(day=day)
    billed = set(UpkeepBill.objects.filter(day=day, commander_id__in=inputs).values_list("commander_id", flat=True))
    results = {cid: selectors.upkeep_bill_for(inp) for cid, inp in inputs.items() if cid not in billed}
    bills = UpkeepBill.objects.bulk_create([
        UpkeepBill(commander_id=cid, day=day, gross=res.gross, morale_spent=res.morale_spent,
                   morale_offset=res.morale_offset, amount_due=res.total)
        for cid, res in sorted(results.items())
    ])
    UpkeepLine.objects.bulk_create([
        UpkeepLine(bill=bill, unit_id=line.unit_id, counted_strength=line.counted_strength, lunari=line.lunari,
                   note=line.note)
        for bill in bills for line in results[bill.commander_id].lines
    ])
    payments = {p.bill_id: p for p in ledger.ledger_pay_upkeep(
        bills=bills, actor=actor, reason=f"Upkeep for Day {day.number} of {event.name}")}
    paid_bills = []
    for bill in bills:
        payment = payments.get(bill.pk)
        if payment:
            bill.amount_paid, bill.transaction = payment.paid, payment.transaction
            paid_bills.append(bill)
    if paid_bills:
        UpkeepBill.objects.bulk_update(paid_bills, ["amount_paid", "transaction"])
    arrears = UpkeepArrears.objects.bulk_create([
        UpkeepArrears(bill=bill, commander_id=bill.commander_id, amount=bill.amount_due - bill.amount_paid)
        for bill in bills if bill.amount_paid < bill.amount_due
    ])
    if levels:
        Commander.objects.filter(campaign_id=event.campaign_id).update(morale=Case(
            *[When(level=level, then=Value(starting_morale(level))) for level in sorted(set(levels.values()))],
            default=F("morale"), output_field=models.PositiveSmallIntegerField()))
    day.status, day.closed_at = Day.Status.CLOSED, timezone.now()
    day.save(update_fields=["status", "closed_at"])
    next_day = Day.objects.create(event=event, number=day.number + 1)
    audit_record(campaign=event.campaign, actor=actor, action="day.close", target=day,
                 data={"bills": len(bills), "upkeep_due": sum(b.amount_due for b in bills),
                       "upkeep_paid": sum(b.amount_paid for b in bills), "arrears": len(arrears),
                       "arrears_total": sum(a.amount for a in arrears), "next_day": next_day.pk})
    return DayCloseResult(day=day, next_day=next_day, bills=bills, arrears=arrears)


def _arrears_locked(arrears: UpkeepArrears) -> UpkeepArrears:
    arrears = (UpkeepArrears.objects.select_for_update(of=("self",)).select_related("commander__campaign")
               .get(pk=arrears.pk))
    if arrears.status != UpkeepArrears.Status.OPEN:
        raise ValidationError(f"This debt was already {arrears.get_status_display().lower()}.")
    return arrears


@transaction.atomic
def upkeep_arrears_settle(*, arrears: UpkeepArrears, paid_by: Commander, actor: User | None
                          ) -> UpkeepArrears:
    """Pay an upkeep debt in full, from the debtor's purse or a benefactor's."""
    _require_acting_for(actor, paid_by)
    arrears = _arrears_locked(arrears)
    _same_campaign(arrears.commander, paid_by)
    txn = ledger.ledger_pay_arrears(arrears=arrears, payer=paid_by, actor=actor)
    arrears.status, arrears.resolved_by, arrears.resolved_at = UpkeepArrears.Status.SETTLED, actor, timezone.now()
    arrears.transaction = txn
    arrears.save(update_fields=["status", "resolved_by", "resolved_at", "transaction"])
    audit_record(campaign=arrears.commander.campaign, actor=actor, action="arrears.settle", target=arrears,
                 data={"amount": arrears.amount, "paid_by": paid_by.pk, "transaction": txn.pk})
    return arrears


@transaction.atomic
def upkeep_arrears_forgive(*, arrears: UpkeepArrears, note: str, actor: User | None) -> UpkeepArrears:
    """A game master's decision to write a debt off. The row stays, with who forgave it and why."""
    if not (note or "").strip():
        raise ValidationError({"note": "Say why the debt is forgiven: the record keeps it."})
    arrears = _arrears_locked(arrears)
    arrears.status, arrears.resolved_by, arrears.resolved_at = UpkeepArrears.Status.FORGIVEN, actor, timezone.now()
    arrears.note = note.strip()[:300]
    arrears.save(update_fields=["status", "resolved_by", "resolved_at", "note"])
    audit_record(campaign=arrears.commander.campaign, actor=actor, action="arrears.forgive", target=arrears,
                 data={"amount": arrears.amount, "note": arrears.note})
    return arrears


# --- funding requests ---------------------------------------------------------------------------------


@transaction.atomic
def funding_request_create(*, requester: Commander, funder: Commander, amount: int, reason: str,
                           actor: User | None) -> FundingRequest:
    """A commander asks another for lunari."""
    _require_acting_for(actor, requester)
    campaign_id = _same_campaign(requester, funder, message="Ask a commander of the same campaign.")
    if requester.pk == funder.pk:
        raise ValidationError({"funder": "Ask another commander: you cannot fund yourself."})
    if not isinstance(amount, int) or amount <= 0:
        raise ValidationError({"amount": "Ask for a whole number of lunari above 0."})
    if not (reason or "").strip():
        raise ValidationError({"reason": "Say what the lunari are for."})
    request = FundingRequest.objects.create(campaign_id=campaign_id, requester=requester, funder=funder,
                                            amount=amount, reason=reason.strip()[:300])
    audit_record(campaign=requester.campaign, actor=actor, action="funding.request", target=request,
                 data={"amount": amount, "funder": funder.pk})
    return request


def _pending_request(request: FundingRequest) -> FundingRequest:
    request = (FundingRequest.objects.select_for_update(of=("self",)).select_related("requester", "funder", "campaign")
               .get(pk=request.pk))
    if request.status != FundingRequest.Status.PENDING:
        raise ValidationError(f"This request was already {request.get_status_display().lower()}.")
    return request


def _decide(request: FundingRequest, status: str, actor, response: str) -> FundingRequest:
    request.status, request.decided_by, request.decided_at = status, actor, timezone.now()
    request.response = (response or "").strip()[:300]
    request.save(update_fields=["status", "decided_by", "decided_at", "response", "transaction"])
    audit_record(campaign=request.campaign, actor=actor, action=f"funding.{status}", target=request,
                 data={"amount": request.amount, "transaction": request.transaction_id})
    return request


@transaction.atomic
def funding_request_accept(*, request: FundingRequest, actor: User | None, response: str = ""
                           ) -> FundingRequest:
    """The funder agrees: the lunari move in the same transaction."""
    request = _pending_request(request)
    _require_acting_for(actor, request.funder)
    request.transaction = ledger.ledger_transfer(
        from_commander=request.funder, to_commander=request.requester, amount=request.amount, actor=actor,
        reason=f"Funding for {request.requester}: {request.reason}", paid_for=request)
    return _decide(request, FundingRequest.Status.ACCEPTED, actor, response)


@transaction.atomic
def funding_request_decline(*, request: FundingRequest, actor: User | None, response: str = ""
                            ) -> FundingRequest:
    request = _pending_request(request)
    _require_acting_for(actor, request.funder)
    return _decide(request, FundingRequest.Status.DECLINED, actor, response)


@transaction.atomic
def funding_request_withdraw(*, request: FundingRequest, actor: User | None) -> FundingRequest:
    request = _pending_request(request)
    _require_acting_for(actor, request.requester)
    return _decide(request, FundingRequest.Status.WITHDRAWN, actor, "")
