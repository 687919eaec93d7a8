"""Armies: formed from a commander's units, split, merged, disbanded, placed on the map or withdrawn, and
marked as led on a Day (upkeep charges led armies).
"""

from __future__ import annotations

import math

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction

from campaign.campaigns.audit import audit_record
from campaign.campaigns.permissions import require_acting_for
from campaign.locking import lock
from campaign.map import selectors
from campaign.map.common import army_locked, inches_text, orders_cancel, point_on_map_check
from campaign.map.orders import orders_reestimate
from campaign.models import (
    Army,
    ArmyDayActivity,
    Commander,
    Day,
    DueBattle,
    TacticalMap,
    Unit,
)

# --- armies -------------------------------------------------------------------------------------------


@transaction.atomic
def army_create(*, commander: Commander, name: str, actor: User | None) -> Army:
    require_acting_for(actor=actor, commander=commander)
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
    """Put a unit into one of its leader's armies (its commander's, or its borrower's while it is lent), or back
    into reserve (army None)."""
    unit = lock(Unit.objects).select_related("commander", "lent_to").get(pk=unit.pk)
    leader = unit.lent_to or unit.commander
    require_acting_for(actor=actor, commander=leader)
    if unit.state == Unit.State.KILLED:
        raise ValidationError("This unit was Killed: it cannot join an army.")
    if army is not None and army.commander_id != leader.pk:
        raise ValidationError(f"{army.name} is not {leader}'s army: a unit joins the armies of the commander "
                              "who leads it (lend it to put it in another's).")
    new_state = Unit.State.IN_ARMY if army is not None else Unit.State.RESERVE
    new_army_id = army.pk if army is not None else None
    if unit.army_id != new_army_id:
        changed = [pk for pk in (unit.army_id, new_army_id) if pk is not None]
        unit.army_id, unit.state = new_army_id, new_state
        unit.save(update_fields=["army", "state"])
        orders_reestimate(army_ids=changed)  # a unit's pace counts in both armies' marches
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


# --- armies on the map ------------------------------------------------------------------------------------


def _moved(army: Army) -> dict:
    """What the audit row of a change by hand to the armies on the map names: the army and its commander (the map
    of a past hour is refused after such a change of an army its viewer sees: campaign.map.map_at_hour)."""
    return {"army": army.pk, "commander": army.commander_id}


@transaction.atomic
def army_place(*, army: Army, tactical_map: TacticalMap, x: float, y: float, actor: User | None) -> Army:
    """A game master puts an army on the map (or moves it by hand); an order under way is cancelled."""
    army = army_locked(army)
    if tactical_map.campaign_id != army.campaign_id:
        raise ValidationError("That map belongs to another campaign.")
    point_on_map_check(tactical_map, x, y)
    if selectors.tactical_map_rules(tactical_map=tactical_map).impassable_at((x, y)) is not None:
        raise ValidationError("That point is inside impassable terrain: place the army outside it.")
    orders_cancel([army.pk])
    army.map, army.x, army.y = tactical_map, float(x), float(y)
    army.save(update_fields=["map", "x", "y"])
    audit_record(campaign=army.campaign, actor=actor, action="army.place", target=army,
                 data={"x": x, "y": y, **_moved(army)})
    return army


@transaction.atomic
def army_withdraw(*, army: Army, actor: User | None) -> Army:
    """Take an army off the map into reserve; its order is cancelled."""
    army = army_locked(army)
    orders_cancel([army.pk])
    army.map = None
    army.save(update_fields=["map"])
    audit_record(campaign=army.campaign, actor=actor, action="army.withdraw", target=army, data=_moved(army))
    return army


def _units_of(commander: Commander, unit_ids: list[int]) -> list[Unit]:
    """The units picked, locked: each must be one the commander leads (their own, or lent to them)."""
    units = list(lock(selectors.units_led_by(commander)).filter(pk__in=unit_ids))
    if len(units) != len(set(unit_ids)):
        raise ValidationError(f"Pick units of {commander} only.")
    if any(unit.state == Unit.State.KILLED for unit in units):
        raise ValidationError("A Killed unit cannot join an army.")
    return units


def _inherit_activity(*, from_army_id: int, to_army_id: int) -> None:
    """Units that were led today stay billed today: the army they join inherits the Day's activity."""
    ArmyDayActivity.objects.bulk_create(
        [ArmyDayActivity(army_id=to_army_id, day_id=row.day_id, reason=row.reason)
         for row in ArmyDayActivity.objects.filter(army_id=from_army_id, day__status=Day.Status.OPEN)],
        ignore_conflicts=True)


def _new_army(commander: Commander, name: str) -> Army:
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": "Give the army a name."})
    if Army.objects.filter(commander=commander, name=name).exists():
        raise ValidationError({"name": f"{commander} already has an army called {name}: pick another name."})
    return Army.objects.create(campaign_id=commander.campaign_id, commander=commander, name=name)


@transaction.atomic
def army_form(*, commander: Commander, name: str, unit_ids: list[int], actor: User | None) -> Army:
    """Form an army of units in reserve (it starts off the map; a game master places it)."""
    require_acting_for(actor=actor, commander=commander, what=f"give {commander}'s armies orders")
    units = _units_of(commander, unit_ids)
    if not units:
        raise ValidationError({"units": "Pick at least one unit for the army."})
    if any(unit.army_id for unit in units):
        raise ValidationError({"units": "Pick units in reserve: split or disband their army first."})
    army = _new_army(commander, name)
    Unit.objects.filter(pk__in=[u.pk for u in units]).update(army=army, state=Unit.State.IN_ARMY)
    audit_record(campaign=commander.campaign, actor=actor, action="army.form", target=army,
                 data={"units": sorted(u.pk for u in units)})
    return army


@transaction.atomic
def army_split(*, army: Army, unit_ids: list[int], name: str, actor: User | None) -> Army:
    """Some of an army's units leave as a new army standing where the army stands, with no order."""
    army = army_locked(army)
    require_acting_for(actor=actor, commander=army.commander, what=f"give {army.commander}'s armies orders")
    units = _units_of(army.commander, unit_ids)
    staying = Unit.objects.filter(army=army).exclude(pk__in=unit_ids).count()
    if not units or any(unit.army_id != army.pk for unit in units):
        raise ValidationError({"units": f"Pick units of {army.name} to split off."})
    if staying == 0:
        raise ValidationError({"units": "Leave at least one unit behind: to move them all, keep the army."})
    new = _new_army(army.commander, name)
    new.map_id, new.x, new.y = army.map_id, army.x, army.y
    new.save(update_fields=["map", "x", "y"])
    Unit.objects.filter(pk__in=[u.pk for u in units]).update(army=new)
    _inherit_activity(from_army_id=army.pk, to_army_id=new.pk)
    orders_reestimate(army_ids=[army.pk])
    audit_record(campaign=army.campaign, actor=actor, action="army.split", target=army,
                 data={"new_army": new.pk, "units": sorted(u.pk for u in units), **_moved(army)})
    return new


@transaction.atomic
def army_merge(*, army: Army, into: Army, actor: User | None) -> Army:
    """Two armies of one commander standing together become one; the merged army is gone."""
    first, second = sorted((army, into), key=lambda a: a.pk)
    locked = {a.pk: army_locked(a) for a in (first, second)}
    army, into = locked[army.pk], locked[into.pk]
    require_acting_for(actor=actor, commander=army.commander, what=f"give {army.commander}'s armies orders")
    if army.pk == into.pk or army.commander_id != into.commander_id:
        raise ValidationError("Merge two different armies of the same commander.")
    if army.map_id != into.map_id:
        where = {a.pk: "on the map" if a.map_id else "in reserve" for a in (army, into)}
        raise ValidationError(f"{army.name} is {where[army.pk]} and {into.name} is {where[into.pk]}: armies merge "
                              "only where they stand together.")
    into_map = into.map  # the map both stand on (their map_ids are equal), or None for two armies in reserve
    if into_map is not None and (apart := math.dist((army.x, army.y), (into.x, into.y))) > into_map.contact_inches:
        raise ValidationError(f"{army.name} is {inches_text(apart)} from {into.name}: armies merge only where they "
                              f"stand together (within {inches_text(into_map.contact_inches)}).")
    if DueBattle.objects.filter(first_id__in=[army.pk, into.pk], status=DueBattle.Status.DUE).exists() or \
            DueBattle.objects.filter(second_id__in=[army.pk, into.pk], status=DueBattle.Status.DUE).exists():
        raise ValidationError("An army with a Battle due cannot merge until the Battle is fought.")
    Unit.objects.filter(army=army).update(army=into)
    _inherit_activity(from_army_id=army.pk, to_army_id=into.pk)
    orders_cancel([army.pk])
    orders_reestimate(army_ids=[into.pk])
    audit_record(campaign=army.campaign, actor=actor, action="army.merge", target=into,
                 data={"merged": army.pk, **_moved(into)})
    Army.objects.filter(pk=army.pk).delete()
    return into


@transaction.atomic
def army_disband(*, army: Army, actor: User | None) -> None:
    """The army's units return to reserve and the army leaves the map for good."""
    army = army_locked(army)
    require_acting_for(actor=actor, commander=army.commander, what=f"give {army.commander}'s armies orders")
    if DueBattle.objects.filter(status=DueBattle.Status.DUE).filter(first=army).exists() or \
            DueBattle.objects.filter(status=DueBattle.Status.DUE, second=army).exists():
        raise ValidationError("An army with a Battle due cannot disband until the Battle is fought.")
    Unit.objects.filter(army=army).update(army=None, state=Unit.State.RESERVE)
    audit_record(campaign=army.campaign, actor=actor, action="army.disband", target=army, data=_moved(army))
    army.delete()
