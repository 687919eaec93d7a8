"""Writes for commanders and their forces: commanders (level, power, Influence), items, recruiting (offers and
prices), training, units killed and retinues named, and Fair Escape. Each is one transaction with an audit row.

Lunari move only through campaign.economy.ledger. Only a game master creates commanders or changes their
sheet; a service here also refuses an actor who may not act for the commander whose purse or unit it touches
(actor None is a scheduled job or the demo loader).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaign.campaigns.audit import audit_record
from campaign.campaigns.permissions import Action, NotAllowed, can, membership_for, require_acting_for
from campaign.economy import ledger, quests, selectors
from campaign.economy.checks import rule_refusals, same_campaign
from campaign.economy.rules import (
    COMMANDER_POWERS,
    DERVISH_CHOICES,
    MAX_TRAININGS,
    TACTICIAN_CHOICES,
    TrainingPrice,
    recruit_price,
    starting_morale,
    training_price,
)
from campaign.locking import lock
from campaign.models import (
    Campaign,
    Commander,
    Day,
    Event,
    EventRecruitOffer,
    Item,
    Membership,
    Unit,
    UnitTraining,
    UnitType,
)


def _check_power(power: str, tactician_choice: str) -> None:
    if power not in COMMANDER_POWERS:
        raise ValidationError({"power": f"Pick one of the twenty commander powers, not {power!r}."})
    if tactician_choice and power != "Tactician":
        raise ValidationError({"tactician_choice": "Only a Tactician picks a power to copy: leave it empty."})
    if tactician_choice and tactician_choice not in TACTICIAN_CHOICES:
        raise ValidationError({"tactician_choice": "A Tactician copies a power of the Guardian row or the Steel "
                                                   f"column: one of {', '.join(TACTICIAN_CHOICES)}."})


def _require_gm(actor: User | None, campaign: Campaign | int, what: str) -> None:
    """Only a game master of the campaign (or a job, actor None, or a superuser in the admin) may do `what`."""
    if actor is not None and not actor.is_superuser and not can(membership_for(user=actor, campaign=campaign),
                                                                  Action.ACT_FOR_ANY):
        raise NotAllowed(f"Only a game master may {what}.")


def _player_checked(campaign: Campaign | int, player: User | None) -> None:
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    if player is not None and not Membership.objects.filter(campaign_id=campaign_id, user=player).exists():
        raise ValidationError({"player": f"{player} is not in this campaign: invite them first."})


@transaction.atomic
def commander_create(*, campaign: Campaign, name: str, level: int, power: str, actor: User | None,
                     player: User | None = None, tactician_choice: str = "",
                     influence: int = 0) -> Commander:
    """A game master makes a commander with full starting Morale and an empty purse. No player: GM-run."""
    _require_gm(actor, campaign, "create commanders")
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": "Give the commander a name."})
    if level < 0 or influence < 0:
        raise ValidationError("Level and Influence cannot be negative.")
    _check_power(power, tactician_choice)
    _player_checked(campaign, player)
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
                     influence: int | None = None, player: User | Literal["keep"] | None = "keep") -> Commander:
    """A game master changes a commander's sheet or who plays it (`player` None: the GMs run it). A new level
    changes the starting Morale from the next Day on."""
    _require_gm(actor, commander.campaign_id, "change a commander's sheet")
    commander = lock(Commander.objects).get(pk=commander.pk)
    changes: dict[str, object] = {}
    if player != "keep" and player != commander.player:
        _player_checked(commander.campaign_id, player)
        changes["player"] = player
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
def commander_retire(*, commander: Commander, actor: User | None, retired: bool = True) -> Commander:
    """A game master retires a commander from play (it stays on record: ledger, units, Battles) or brings it
    back. Not in a Battle, and with no army on the map: withdraw or disband those first."""
    _require_gm(actor, commander.campaign_id, "retire a commander")
    commander = lock(Commander.objects).get(pk=commander.pk)
    if (commander.retired_at is not None) == retired:
        return commander
    if retired and commander.in_battle:
        raise ValidationError(f"{commander} is in a Battle: retire them once it is over.")
    if retired and commander.armies.filter(map__isnull=False).exists():
        raise ValidationError(f"{commander} has armies on the map: withdraw or disband them first.")
    commander.retired_at = timezone.now() if retired else None
    commander.save(update_fields=["retired_at"])
    audit_record(campaign=commander.campaign, actor=actor, action="commander.retire" if retired else
                 "commander.return", target=commander)
    return commander


@transaction.atomic
def commander_set_in_battle(*, commander: Commander, in_battle: bool, actor: User | None) -> Commander:
    """The battles app marks a commander as fighting (no Morale may be bought) and done."""
    commander = lock(Commander.objects).get(pk=commander.pk)
    if commander.in_battle != in_battle:
        commander.in_battle = in_battle
        commander.save(update_fields=["in_battle"])
        audit_record(campaign=commander.campaign, actor=actor, action="commander.in_battle", target=commander,
                     data={"in_battle": in_battle})
    return commander


def dervish_choice_on(commander: Commander, day: Day) -> str:
    """The Path or Role a Dervish chose for `day`, or "" while they have not chosen."""
    return commander.dervish_choice if commander.dervish_day_id == day.pk else ""


@transaction.atomic
def commander_dervish_choose(*, commander: Commander, day: Day, choice: str, actor: User | None) -> Commander:
    """A Dervish chooses the Path or Role their units Add 1 against, once per Day: it holds for every Battle
    of that Day (RULINGS.md). Their player chooses; a game master may correct a choice."""
    require_acting_for(actor=actor, commander=commander, what=f"choose {commander}'s Dervish bonus")
    commander = lock(Commander.objects).get(pk=commander.pk)
    if commander.power != "Dervish":
        raise ValidationError(f"{commander} is not a Dervish: only a Dervish chooses a Path or Role each Day.")
    if choice not in DERVISH_CHOICES:
        raise ValidationError({"dervish": f"Choose one Path or Role: {', '.join(DERVISH_CHOICES)}."})
    chosen = dervish_choice_on(commander, day)
    if chosen == choice:
        return commander
    gm = actor is None or can(membership_for(user=actor, campaign=commander.campaign_id), Action.ACT_FOR_ANY)
    if chosen and not gm:
        raise ValidationError({"dervish": f"{commander} chose {chosen} for {day}: the choice holds for every Battle "
                                          "of the Day (a game master can correct it)."})
    commander.dervish_choice, commander.dervish_day = choice, day
    commander.save(update_fields=["dervish_choice", "dervish_day"])
    audit_record(campaign=commander.campaign, actor=actor, action="commander.dervish", target=commander,
                 data={"day": day.pk, "choice": choice, "was": chosen})
    return commander


# --- recruiting ---------------------------------------------------------------------------------------


@transaction.atomic
def recruit_offer_set(*, event: Event, unit_type: UnitType, actor: User | None, by_quest: bool = False,
                      gm_price: int | None = None, note: str = "") -> EventRecruitOffer:
    """A game master puts a unit type on an Event's recruit list (or changes its terms)."""
    _require_gm(actor, event.campaign_id, "change the recruit list")
    if unit_type.campaign_id not in (None, event.campaign_id):
        raise ValidationError("That unit type belongs to another campaign's catalogue.")
    if gm_price is not None and gm_price < 0:
        raise ValidationError({"gm_price": "A price cannot be negative."})
    offer, created = lock(EventRecruitOffer.objects).get_or_create(
        event=event, unit_type=unit_type, defaults={"by_quest": by_quest, "gm_price": gm_price, "note": note})
    if not created:
        offer.by_quest, offer.gm_price, offer.note = by_quest, gm_price, note
        offer.save(update_fields=["by_quest", "gm_price", "note"])
    audit_record(campaign=event.campaign, actor=actor, action="recruit_offer.set", target=offer,
                 data={"unit_type": unit_type.name, "by_quest": by_quest, "gm_price": gm_price})
    return offer


@transaction.atomic
def recruit_offer_remove(*, offer: EventRecruitOffer, actor: User | None) -> None:
    """A game master takes an offer off the list; the units recruited from it stay, and so does their record."""
    _require_gm(actor, offer.event.campaign_id, "change the recruit list")
    audit_record(campaign=offer.event.campaign, actor=actor, action="recruit_offer.remove", target=offer)
    offer.delete()


def recruit_offer_price(*, offer: EventRecruitOffer, commander: Commander) -> int:
    """What recruiting from this offer into the commander's reserve costs now, or a ValidationError that says
    what is missing (a quest offer: a quest done for this commander)."""
    if offer.by_quest and quests.quest_unused(offer=offer, commander=commander) is None:
        raise ValidationError(f"{offer.unit_type} is recruited by quest: a character must do its quest for "
                              f"{commander} first (a game master records it).")
    with rule_refusals():
        return recruit_price(offer.unit_type.strength, after_quest=offer.by_quest, gm_price=offer.gm_price)


@transaction.atomic
def unit_recruit(*, commander: Commander, unit_type: UnitType, event: Event, paid_by: Commander,
                 actor: User | None) -> Unit:
    """Recruit a unit from the Event's recruit list into the commander's reserve; `paid_by` pays the price.

    A quest offer recruits once per quest done for this commander: the quest must be done again for the next.
    """
    require_acting_for(actor=actor, commander=paid_by)
    same_campaign(commander, paid_by, event)
    if commander.retired_at is not None:
        raise ValidationError(f"{commander} is retired: a game master brings them back before they recruit.")
    if event.status == Event.Status.CLOSED:
        raise ValidationError(f"{event.name} is over: recruit at a running Event.")
    offer = lock(EventRecruitOffer.objects).filter(event=event, unit_type=unit_type).first()
    if offer is None:
        raise ValidationError(f"{unit_type} is not on the recruit list of {event.name}: "
                              "ask a game master to offer it.")
    offer.unit_type = unit_type
    price = recruit_offer_price(offer=offer, commander=commander)  # the offer's row lock orders the quests' use
    completion = quests.quest_unused(offer=offer, commander=commander) if offer.by_quest else None
    unit = Unit.objects.create(campaign_id=commander.campaign_id, commander=commander, unit_type=unit_type,
                               strength=unit_type.strength, recruited_event=event)
    txn = None
    if price:
        txn = ledger.ledger_pay_recruitment(payer=paid_by, amount=price, unit=unit, actor=actor,
                                            reason=f"Recruiting {unit_type} for {commander} at {event.name}")
    if completion is not None:
        completion.unit = unit
        completion.save(update_fields=["unit"])
    audit_record(campaign=commander.campaign, actor=actor, action="unit.recruit", target=unit,
                 data={"unit": unit.pk, "commander": commander.pk, "paid_by": paid_by.pk, "price": price,
                       "transaction": txn.pk if txn else None, "by_quest": offer.by_quest})
    return unit


# --- training -----------------------------------------------------------------------------------------


def unit_training_quote(*, unit: Unit, weapon_cards: int = 0) -> TrainingPrice:
    """The price of the unit's next training with that many weapon cards destroyed (refusals as sentences)."""
    with rule_refusals():
        return training_price(current_strength=unit.strength, trainings_done=unit.trainings,
                              weapon_cards=weapon_cards)


@transaction.atomic
def unit_train(*, unit: Unit, event: Event, paid_by: Commander, actor: User | None,
               weapon_items: Sequence[Item] = ()) -> UnitTraining:
    """Train a unit: +1 Strength for 10 x the new Strength, less 5 per weapon card of the payer's destroyed
    (at most half). Once per unit per Event, three times in all. A type that names what it trains into
    becomes that type; the third training gives the type's third-training ability."""
    require_acting_for(actor=actor, commander=paid_by)
    unit = lock(Unit.objects).select_related("unit_type__trains_to").get(pk=unit.pk)
    same_campaign(unit, paid_by, event)
    if event.status == Event.Status.CLOSED:
        raise ValidationError(f"{event.name} is over: train units at a running Event.")
    if unit.state == Unit.State.KILLED:
        raise ValidationError("This unit was Killed: it cannot be trained.")
    if unit.last_trained_event_id == event.pk or UnitTraining.objects.filter(unit=unit, event=event).exists():
        raise ValidationError(f"This unit was already trained at {event.name}: train it again at the next Event.")
    item_ids = sorted({item.pk for item in weapon_items})
    items = list(lock(Item.objects).filter(pk__in=item_ids))
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
    if number == MAX_TRAININGS:  # "what it gains after the third": words for the card, traits and effects to play
        gives = next((t for t in (type_to, type_from) if t.third_training or t.third_training_traits
                      or t.third_training_effects), type_to)
        unit.third_training_ability = gives.third_training
        unit.gained_traits, unit.gained_effects = list(gives.third_training_traits), list(gives.third_training_effects)
        fields += ["third_training_ability", "gained_traits", "gained_effects"]
    unit.save(update_fields=fields)
    audit_record(campaign=event.campaign, actor=actor, action="unit.train", target=unit,
                 data={"unit": unit.pk, "number": number, "strength": quote.new_strength, "paid": quote.to_pay,
                       "weapon_cards": len(items), "paid_by": paid_by.pk, "transaction": txn.pk,
                       "type_from": type_from.name, "type_to": type_to.name})
    return training


@transaction.atomic
def unit_kill(*, unit: Unit, actor: User | None) -> Unit:
    """A unit is Killed: it leaves its army and costs no more upkeep."""
    unit = lock(Unit.objects).get(pk=unit.pk)
    if unit.state != Unit.State.KILLED:
        unit.state, unit.army = Unit.State.KILLED, None
        unit.save(update_fields=["state", "army"])
        audit_record(campaign=unit.campaign, actor=actor, action="unit.kill", target=unit, data={"unit": unit.pk})
    return unit


@transaction.atomic
def unit_name_retinue(*, unit: Unit, name: str, actor: User | None) -> Unit:
    """Name a retinue. Only its owner (the one character who paid for everything, as the ledger shows) may:
    their player, or a game master for a GM-run owner."""
    unit = lock(Unit.objects).get(pk=unit.pk)
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
    commander = lock(Commander.objects).get(pk=commander.pk)
    require_acting_for(actor=actor, commander=commander)
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
        unit = lock(Unit.objects).get(pk=retinue_unit.pk)
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
