"""Writes for the tactical map: the picture and scale, terrain, locations, Bases, armies on the map, move
orders, reveals and the outcome of a Battle. Each is one transaction with an audit row for a person's change.

Locks, when several are taken: the Event, then armies in primary-key order, then locations (the hour
processing in campaign.clock takes them in the same order, so the two never deadlock).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction

from campaign import map_image, map_rules, map_selectors, routing
from campaign.models import (
    Army,
    ArmyDayActivity,
    Base,
    Campaign,
    Commander,
    Day,
    DueBattle,
    Event,
    Location,
    MoveOrder,
    Reveal,
    TacticalMap,
    TerrainRegion,
    Unit,
)
from campaign.permissions import NotAllowed, may_act_for, membership_for
from campaign.services import audit_record


def _require_acting_for(actor: User | None, commander: Commander) -> None:
    """A GM may act for any commander; a player only for their own (actor None: a scheduled job or the demo)."""
    if actor is None:
        return
    if not may_act_for(membership_for(user=actor, campaign=commander.campaign_id), commander.player_id):
        raise NotAllowed(f"Only {commander}'s player or a game master may give {commander}'s armies orders.")


@transaction.atomic
def tactical_map_get_or_create(*, campaign: Campaign, actor: User | None) -> TacticalMap:
    tactical_map, created = TacticalMap.objects.get_or_create(campaign=campaign)
    if created:
        audit_record(campaign=campaign, actor=actor, action="map.create", target=tactical_map)
    return tactical_map


@transaction.atomic
def tactical_map_set_picture(*, tactical_map: TacticalMap, upload, actor: User | None) -> TacticalMap:
    """Store a clean web-sized copy and a thumbnail; the height in inches follows the new aspect ratio."""
    processed = map_image.map_picture_process(upload)
    old = [f.name for f in (tactical_map.picture, tactical_map.thumbnail) if f]
    tactical_map.picture.save(processed.name, processed.image, save=False)
    tactical_map.thumbnail.save(processed.thumbnail_name, processed.thumbnail, save=False)
    tactical_map.picture_width, tactical_map.picture_height = processed.width, processed.height
    tactical_map.height_inches = tactical_map.width_inches * processed.height / processed.width
    tactical_map.save(update_fields=["picture", "thumbnail", "picture_width", "picture_height", "height_inches"])
    storage = tactical_map.picture.storage
    transaction.on_commit(lambda: [storage.delete(name) for name in old])
    audit_record(campaign=tactical_map.campaign, actor=actor, action="map.picture", target=tactical_map,
                 data={"width": processed.width, "height": processed.height})
    return tactical_map


@transaction.atomic
def tactical_map_set_scale(*, tactical_map: TacticalMap, width_inches: float, actor: User | None,
                           height_inches: float | None = None) -> TacticalMap:
    """Inches per picture width. With a picture the height follows its aspect ratio; without one, give it."""
    if not width_inches or width_inches < 1:
        raise ValidationError({"width_inches": "A map is at least 1 inch wide: give its width in inches."})
    tactical_map.width_inches = float(width_inches)
    if tactical_map.picture_width:
        ratio = tactical_map.picture_height / tactical_map.picture_width
        tactical_map.height_inches = tactical_map.width_inches * ratio
    elif height_inches is not None:
        if height_inches < 1:
            raise ValidationError({"height_inches": "A map is at least 1 inch tall."})
        tactical_map.height_inches = float(height_inches)
    tactical_map.save(update_fields=["width_inches", "height_inches"])
    audit_record(campaign=tactical_map.campaign, actor=actor, action="map.scale", target=tactical_map,
                 data={"width_inches": tactical_map.width_inches, "height_inches": tactical_map.height_inches})
    return tactical_map


def _inches(value: float) -> str:
    return "1 inch" if f"{value:.3g}" == "1" else f"{value:.3g} inches"


def _check_on_map(tactical_map: TacticalMap, x: float, y: float) -> None:
    if not (0 <= x <= tactical_map.width_inches and 0 <= y <= tactical_map.height_inches):
        raise ValidationError(f"({x:g}, {y:g}) is off the map ({tactical_map.width_inches:g} x "
                              f"{tactical_map.height_inches:.4g} inches): choose a point on it.")


@transaction.atomic
def terrain_region_create(*, tactical_map: TacticalMap, name: str, kind: str, points, actor: User | None,
                          penalty: float = 0.0) -> TerrainRegion:
    """A terrain polygon: open, difficult, especially challenging (with its penalty in inches) or impassable."""
    name = (name or "").strip() or f"{kind.capitalize()} terrain"
    if kind not in TerrainRegion.Kind.values:
        raise ValidationError({"kind": f"Terrain is one of: {', '.join(TerrainRegion.Kind.values)}."})
    penalty = float(penalty or 0) if kind == TerrainRegion.Kind.CHALLENGING else 0.0
    try:
        clean = [(float(x), float(y)) for x, y in points]
        routing.TerrainRegion(name=name, kind=routing.TerrainKind(kind), points=tuple(clean), penalty=penalty)
    except (TypeError, ValueError) as exc:
        message = str(exc) if isinstance(exc, ValueError) and "terrain" in str(exc).lower() else (
            "Give the corners as a list of [x, y] pairs in inches, at least three.")
        raise ValidationError({"points": message}) from exc
    for x, y in clean:
        _check_on_map(tactical_map, x, y)
    region = TerrainRegion.objects.create(map=tactical_map, name=name[:120], kind=kind, penalty=penalty,
                                          points=[[round(x, 3), round(y, 3)] for x, y in clean])
    audit_record(campaign=tactical_map.campaign, actor=actor, action="map.terrain.create", target=region,
                 data={"kind": kind, "corners": len(clean)})
    return region


@transaction.atomic
def terrain_region_delete(*, region: TerrainRegion, actor: User | None) -> None:
    audit_record(campaign=region.map.campaign, actor=actor, action="map.terrain.delete", target=region)
    region.delete()


@transaction.atomic
def location_create(*, tactical_map: TacticalMap, name: str, size: str, x: float, y: float,
                    actor: User | None, capture_threshold: int | None = None,
                    holder: Commander | None = None) -> Location:
    """A camp, town or city; its capture threshold defaults to 3, 15 or 60."""
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": "Give the location a name."})
    try:
        threshold = capture_threshold or map_rules.capture_threshold(size)
    except map_rules.MapRuleError as exc:
        raise ValidationError({"size": str(exc)}) from exc
    _check_on_map(tactical_map, x, y)
    if map_selectors.tactical_map_rules(tactical_map=tactical_map).impassable_at((x, y)) is not None:
        raise ValidationError("That point is inside impassable terrain: place the location outside it.")
    if Location.objects.filter(map=tactical_map, name=name).exists():
        raise ValidationError({"name": f"The map already has a location called {name}: pick another name."})
    if holder is not None and holder.campaign_id != tactical_map.campaign_id:
        raise ValidationError({"holder": "The holder must be a commander of this campaign."})
    location = Location.objects.create(map=tactical_map, name=name[:120], size=size, x=float(x), y=float(y),
                                       capture_threshold=threshold, holder=holder)
    audit_record(campaign=tactical_map.campaign, actor=actor, action="map.location.create", target=location,
                 data={"size": size, "threshold": threshold, "x": x, "y": y})
    return location


@transaction.atomic
def location_set_holder(*, location: Location, holder: Commander | None, actor: User | None) -> Location:
    """A game master hands a location to a commander (or makes it neutral); a Capture under way starts again."""
    location = Location.objects.select_for_update().get(pk=location.pk)
    location.holder, location.capture_progress, location.capturing_army = holder, 0, None
    location.save(update_fields=["holder", "capture_progress", "capturing_army"])
    audit_record(campaign=location.map.campaign, actor=actor, action="map.location.holder", target=location,
                 data={"holder": holder.pk if holder else None})
    return location


@transaction.atomic
def location_delete(*, location: Location, actor: User | None) -> None:
    audit_record(campaign=location.map.campaign, actor=actor, action="map.location.delete", target=location)
    location.delete()


@transaction.atomic
def base_create(*, tactical_map: TacticalMap, name: str, x: float, y: float, morale_bonus: int,
                actor: User | None, location: Location | None = None) -> Base:
    """A Base: extra Morale for the commander defending it, once per Day."""
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": "Give the Base a name."})
    if morale_bonus < 1:
        raise ValidationError({"morale_bonus": "A Base grants at least 1 Morale."})
    _check_on_map(tactical_map, x, y)
    base = Base.objects.create(map=tactical_map, name=name[:120], x=float(x), y=float(y), morale_bonus=morale_bonus,
                               location=location)
    audit_record(campaign=tactical_map.campaign, actor=actor, action="map.base.create", target=base,
                 data={"morale_bonus": morale_bonus})
    return base


@transaction.atomic
def base_delete(*, base: Base, actor: User | None) -> None:
    audit_record(campaign=base.map.campaign, actor=actor, action="map.base.delete", target=base)
    base.delete()


@transaction.atomic
def base_bonus_spend(*, base: Base, day: Day, actor: User | None) -> Base:
    """The defender's Base Morale is spent: gone for the rest of the Day (the battles app calls this)."""
    base = Base.objects.select_for_update().get(pk=base.pk)
    if base.spent_on_id == day.pk:
        raise ValidationError(f"{base.name}'s Morale bonus is already used up for {day}.")
    base.spent_on = day
    base.save(update_fields=["spent_on"])
    audit_record(campaign=base.map.campaign, actor=actor, action="map.base.spend", target=base, data={"day": day.pk})
    return base


# --- armies on the map ------------------------------------------------------------------------------------


def _army_locked(army: Army) -> Army:
    return Army.objects.select_for_update(of=("self",)).select_related("commander", "campaign").get(pk=army.pk)


def _cancel_orders(army_ids: list[int], status: str = MoveOrder.Status.CANCELLED) -> int:
    return MoveOrder.objects.filter(army_id__in=army_ids, status=MoveOrder.Status.ACTIVE).update(status=status)


@transaction.atomic
def army_place(*, army: Army, tactical_map: TacticalMap, x: float, y: float, actor: User | None) -> Army:
    """A game master puts an army on the map (or moves it by hand); an order under way is cancelled."""
    army = _army_locked(army)
    if tactical_map.campaign_id != army.campaign_id:
        raise ValidationError("That map belongs to another campaign.")
    _check_on_map(tactical_map, x, y)
    if map_selectors.tactical_map_rules(tactical_map=tactical_map).impassable_at((x, y)) is not None:
        raise ValidationError("That point is inside impassable terrain: place the army outside it.")
    _cancel_orders([army.pk])
    army.map, army.x, army.y = tactical_map, float(x), float(y)
    army.save(update_fields=["map", "x", "y"])
    audit_record(campaign=army.campaign, actor=actor, action="army.place", target=army, data={"x": x, "y": y})
    return army


@transaction.atomic
def army_withdraw(*, army: Army, actor: User | None) -> Army:
    """Take an army off the map into reserve; its order is cancelled."""
    army = _army_locked(army)
    _cancel_orders([army.pk])
    army.map = None
    army.save(update_fields=["map"])
    audit_record(campaign=army.campaign, actor=actor, action="army.withdraw", target=army)
    return army


def _units_of(commander: Commander, unit_ids: list[int]) -> list[Unit]:
    units = list(Unit.objects.select_for_update().filter(pk__in=unit_ids, commander=commander).order_by("pk"))
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
    _require_acting_for(actor, commander)
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
    army = _army_locked(army)
    _require_acting_for(actor, army.commander)
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
    audit_record(campaign=army.campaign, actor=actor, action="army.split", target=army,
                 data={"new_army": new.pk, "units": sorted(u.pk for u in units)})
    return new


@transaction.atomic
def army_merge(*, army: Army, into: Army, actor: User | None) -> Army:
    """Two armies of one commander standing together become one; the merged army is gone."""
    first, second = sorted((army, into), key=lambda a: a.pk)
    locked = {a.pk: _army_locked(a) for a in (first, second)}
    army, into = locked[army.pk], locked[into.pk]
    _require_acting_for(actor, army.commander)
    if army.pk == into.pk or army.commander_id != into.commander_id:
        raise ValidationError("Merge two different armies of the same commander.")
    if army.map_id != into.map_id:
        where = {a.pk: "on the map" if a.map_id else "in reserve" for a in (army, into)}
        raise ValidationError(f"{army.name} is {where[army.pk]} and {into.name} is {where[into.pk]}: armies merge "
                              "only where they stand together.")
    into_map = into.map  # the map both stand on (their map_ids are equal), or None for two armies in reserve
    if into_map is not None and (apart := math.dist((army.x, army.y), (into.x, into.y))) > into_map.contact_inches:
        raise ValidationError(f"{army.name} is {_inches(apart)} from {into.name}: armies merge only where they stand "
                              f"together (within {_inches(into_map.contact_inches)}).")
    if DueBattle.objects.filter(first_id__in=[army.pk, into.pk], status=DueBattle.Status.DUE).exists() or \
            DueBattle.objects.filter(second_id__in=[army.pk, into.pk], status=DueBattle.Status.DUE).exists():
        raise ValidationError("An army with a Battle due cannot merge until the Battle is fought.")
    Unit.objects.filter(army=army).update(army=into)
    _inherit_activity(from_army_id=army.pk, to_army_id=into.pk)
    _cancel_orders([army.pk])
    audit_record(campaign=army.campaign, actor=actor, action="army.merge", target=into, data={"merged": army.pk})
    Army.objects.filter(pk=army.pk).delete()
    return into


@transaction.atomic
def army_disband(*, army: Army, actor: User | None) -> None:
    """The army's units return to reserve and the army leaves the map for good."""
    army = _army_locked(army)
    _require_acting_for(actor, army.commander)
    if DueBattle.objects.filter(status=DueBattle.Status.DUE).filter(first=army).exists() or \
            DueBattle.objects.filter(status=DueBattle.Status.DUE, second=army).exists():
        raise ValidationError("An army with a Battle due cannot disband until the Battle is fought.")
    Unit.objects.filter(army=army).update(army=None, state=Unit.State.RESERVE)
    audit_record(campaign=army.campaign, actor=actor, action="army.disband", target=army)
    army.delete()


# --- move orders --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OrderPlan:
    """What an order will do, shown before it is confirmed: the route, where the army stands each hour, and
    the event hour it arrives (or, for a Capture, the hour the Capture completes if nothing interrupts it)."""

    army: Army
    event: Event
    kind: str
    target: tuple[float, float]
    path: tuple[tuple[float, float], ...]
    waypoints: tuple[tuple[float, float], ...]
    arrival_hour: int
    location: Location | None = None
    target_army: Army | None = None

    @property
    def moves(self) -> int:
        return self.arrival_hour - self.event.current_hour


def _map_event_or_refuse(campaign_id: int, lock: bool = False) -> Event:
    event = map_selectors.map_event(campaign=campaign_id)
    if event is None:
        raise ValidationError("There is no Event under way: a game master must plan or start one first.")
    if lock:
        event = Event.objects.select_for_update().get(pk=event.pk)
    return event


def move_order_plan(*, army: Army, kind: str, actor: User | None, x: float | None = None,
                    y: float | None = None, location: Location | None = None, target_army: Army | None = None,
                    event: Event | None = None) -> OrderPlan:
    """Plan an order without giving it (the preview): the quickest route by routing.plan_route."""
    if army.map_id is None:
        raise ValidationError(f"{army.name} is in reserve: a game master must place it on the map first.")
    _require_acting_for(actor, army.commander)
    tactical_map = army.map
    if tactical_map is None:  # army.map_id was checked above
        raise RuntimeError(f"{army.name} has a map id but no map.")
    event = event or _map_event_or_refuse(army.campaign_id)
    units = map_selectors.army_map_units(army_ids=[army.pk]).get(army.pk, [])
    if not [u for u in units if not u.is_ritual]:
        raise ValidationError(f"{army.name} has no units: put units in it before giving it orders.")
    start = (army.x, army.y)
    if kind == MoveOrder.Kind.CAPTURE:
        return _capture_plan(army=army, tactical_map=tactical_map, event=event, units=units, location=location)
    if kind == MoveOrder.Kind.POINT:
        if x is None or y is None:
            raise ValidationError("Pick a point on the map to move to.")
        target = (float(x), float(y))
    elif kind == MoveOrder.Kind.LOCATION:
        if location is None or location.map_id != tactical_map.pk:
            raise ValidationError("Pick a location on this map.")
        target = (location.x, location.y)
    elif kind == MoveOrder.Kind.ARMY:
        seen = None
        if target_army is not None and target_army.pk != army.pk and target_army.map_id == tactical_map.pk:
            membership = membership_for(user=actor, campaign=army.campaign_id) if actor else None
            seen = (target_army.x, target_army.y) if actor is None else (
                map_selectors.army_seen_position(membership=membership, army=target_army) if membership else None)
        if seen is None:
            raise ValidationError("Pick an army you can see on the map.")
        target = seen
    else:
        raise ValidationError(f"An order is one of: {', '.join(MoveOrder.Kind.values)}.")
    try:
        route = routing.plan_route(map_selectors.tactical_map_rules(tactical_map=tactical_map), start, target,
                                   speed=map_rules.army_speed(units),
                                   ignores_difficult=map_rules.ignores_difficult_terrain(units))
    except ValueError as exc:
        raise ValidationError(str(exc)) from exc
    return OrderPlan(army=army, event=event, kind=kind, target=target, path=route.path, waypoints=route.waypoints,
                     arrival_hour=event.current_hour + route.arrival_hour, location=location, target_army=target_army)


def _capture_plan(*, army: Army, tactical_map: TacticalMap, event: Event, units: list[map_rules.MapUnit],
                  location: Location | None) -> OrderPlan:
    """A Capture of the location the army stands at (`tactical_map` is the army's map)."""
    if location is None:
        nearby = Location.objects.filter(map_id=army.map_id).order_by("pk")
        location = next((loc for loc in nearby if math.dist((loc.x, loc.y), (army.x, army.y))
                         <= tactical_map.contact_inches), None)
    if location is None or math.dist((location.x, location.y), (army.x, army.y)) > tactical_map.contact_inches:
        raise ValidationError(f"{army.name} is not at a location: move it onto the location first.")
    if location.holder_id == army.commander_id:
        raise ValidationError(f"{location.name} is already {army.commander}'s.")
    strength = map_rules.army_capture_strength(units)
    if strength < 1:
        raise ValidationError(f"{army.name} has no Strength to Capture with.")
    progress = location.capture_progress if location.capturing_army_id == army.pk else 0
    remaining = map_rules.CaptureProgress(threshold=location.capture_threshold, progress=progress).remaining
    return OrderPlan(army=army, event=event, kind=MoveOrder.Kind.CAPTURE, target=(location.x, location.y),
                     path=((army.x, army.y),), waypoints=(), arrival_hour=event.current_hour + math.ceil(
                         remaining / strength), location=location)


@transaction.atomic
def army_order_move(*, army: Army, kind: str, actor: User | None, x: float | None = None,
                    y: float | None = None, location: Location | None = None,
                    target_army: Army | None = None) -> MoveOrder:
    """Give (or change) an army's order: it replaces the order under way and takes effect from the next hour.
    The route is planned again under the locks, so it is the one the preview showed unless the map changed."""
    event = _map_event_or_refuse(army.campaign_id, lock=True)
    army = _army_locked(army)
    plan = move_order_plan(army=army, kind=kind, actor=actor, x=x, y=y, location=location, target_army=target_army,
                           event=event)
    replaced = _cancel_orders([army.pk])
    order = MoveOrder.objects.create(
        army=army, event=event, kind=plan.kind, target_x=plan.target[0], target_y=plan.target[1],
        target_location=plan.location, target_army=plan.target_army, path=[list(p) for p in plan.path],
        waypoints=[list(p) for p in plan.waypoints], ordered_hour=event.current_hour,
        arrival_hour=plan.arrival_hour, given_by=actor if actor and actor.pk else None)
    audit_record(campaign=army.campaign, actor=actor, action="army.order", target=army,
                 data={"order": order.pk, "kind": kind, "target": list(plan.target), "arrival_hour": plan.arrival_hour,
                       "replaced": replaced})
    return order


@transaction.atomic
def move_order_cancel(*, order: MoveOrder, actor: User | None) -> MoveOrder:
    """Call an order off before its next hour is processed; the army stays where it stands."""
    Event.objects.select_for_update().filter(pk=order.event_id).first()
    order = MoveOrder.objects.select_for_update(of=("self",)).select_related("army__commander", "army__campaign").get(
        pk=order.pk)
    _require_acting_for(actor, order.army.commander)
    if order.status != MoveOrder.Status.ACTIVE:
        raise ValidationError(f"This order is already {order.get_status_display().lower()}: "
                              "there is nothing to cancel.")
    order.status = MoveOrder.Status.CANCELLED
    order.save(update_fields=["status"])
    audit_record(campaign=order.army.campaign, actor=actor, action="army.order.cancel", target=order.army,
                 data={"order": order.pk})
    return order


# --- what game masters reveal ------------------------------------------------------------------------------


@transaction.atomic
def reveal_create(*, army: Army, to_commander: Commander, what: str, actor: User | None) -> Reveal:
    """Show a commander's player where another army stands now (as of the current hour) or how big it is."""
    if army.campaign_id != to_commander.campaign_id:
        raise ValidationError("Reveal an army to a commander of the same campaign.")
    if army.commander_id == to_commander.pk:
        raise ValidationError(f"{to_commander} already sees their own army.")
    if what not in Reveal.What.values:
        raise ValidationError({"what": f"Reveal one of: {', '.join(Reveal.What.values)}."})
    event = map_selectors.map_event(campaign=army.campaign_id)
    reveal = Reveal(army=army, to_commander=to_commander, what=what, hour=event.current_hour if event else 0,
                    revealed_by=actor if actor and actor.pk else None)
    if what == Reveal.What.POSITION:
        if army.map_id is None:
            raise ValidationError(f"{army.name} is in reserve: there is no position to reveal.")
        reveal.x, reveal.y = army.x, army.y
    else:
        units = map_selectors.army_map_units(army_ids=[army.pk]).get(army.pk, [])
        reveal.miniatures = map_rules.miniature_count(units)
    reveal.save()
    audit_record(campaign=army.campaign, actor=actor, action="map.reveal", target=army,
                 data={"to": to_commander.pk, "what": what})
    return reveal


# --- the outcome of a Battle on the map ---------------------------------------------------------------------


def _restart_path(army_id: int, position: tuple[float, float]) -> None:
    """An army displaced mid-order goes on from where it now stands."""
    for order in MoveOrder.objects.filter(army_id=army_id, status=MoveOrder.Status.ACTIVE):
        order.path = [list(position), *order.path[1:]] if len(order.path) > 1 else [list(position)]
        order.save(update_fields=["path"])


@transaction.atomic
def battle_outcome_apply_to_map(*, due_battle: DueBattle, winner_army: Army, loser_army: Army, routed: bool
                                ) -> DueBattle:
    """Put a fought Battle's result on the map (the battles app calls this once a Battle ends).

    The loser retreats one Move (two if Routed) directly away from the winner, halting short of impassable
    terrain, and its order is called off. A Battle at a location resets its capture progress and the winner
    holds the location, standing on it. A Capture whose army fought begins again. Both armies were led today.
    Idempotent: a Battle already applied is returned as it is.
    """
    event = Event.objects.select_for_update().get(pk=due_battle.event_id)
    first_id, second_id = sorted((winner_army.pk, loser_army.pk))
    armies = {a.pk: a for a in Army.objects.select_for_update(of=("self",)).select_related("map", "commander")
              .filter(pk__in=[first_id, second_id]).order_by("pk")}
    battle = DueBattle.objects.select_for_update().get(pk=due_battle.pk)
    if battle.status != DueBattle.Status.DUE:
        return battle
    if {battle.first_id, battle.second_id} != {winner_army.pk, loser_army.pk}:
        raise ValidationError("The winner and the loser must be the two armies of this Battle.")
    winner, loser = armies[winner_army.pk], armies[loser_army.pk]
    tactical_map = loser.map or winner.map
    if tactical_map is not None and loser.map_id:
        pure = map_selectors.tactical_map_rules(tactical_map=tactical_map)
        units = map_selectors.army_map_units(army_ids=[loser.pk]).get(loser.pk, [])
        away = map_rules.retreat_position(loser=(loser.x, loser.y), winner=(winner.x, winner.y),
                                          speed=map_rules.army_speed(units), routed=routed,
                                          width=pure.width, height=pure.height)
        loser.x, loser.y = routing.stop_before_impassable(pure, (loser.x, loser.y), away)
        loser.save(update_fields=["x", "y"])
    _cancel_orders([loser.pk], status=MoveOrder.Status.INTERRUPTED)
    if battle.location_id:
        location = Location.objects.select_for_update().get(pk=battle.location_id)
        location.capture_progress = map_rules.CaptureProgress(
            threshold=location.capture_threshold, progress=location.capture_progress).after_battle().progress
        location.capturing_army = None
        location.holder_id = winner.commander_id
        location.save(update_fields=["capture_progress", "capturing_army", "holder"])
        if winner.map_id:
            winner.x, winner.y = location.x, location.y
            winner.save(update_fields=["x", "y"])
            _restart_path(winner.pk, (winner.x, winner.y))
    Location.objects.filter(capturing_army_id__in=[winner.pk, loser.pk]).update(capture_progress=0,
                                                                             capturing_army=None)
    battle.status, battle.winner, battle.routed = DueBattle.Status.FOUGHT, winner, routed
    battle.fought_hour = event.current_hour + 1
    battle.save(update_fields=["status", "winner", "routed", "fought_hour"])
    day = Day.objects.filter(event=event, status=Day.Status.OPEN).first()
    if day is not None:
        ArmyDayActivity.objects.bulk_create(
            [ArmyDayActivity(army_id=a, day=day, reason=ArmyDayActivity.Reason.FOUGHT) for a in (first_id, second_id)],
            ignore_conflicts=True)
    audit_record(campaign=event.campaign, actor=None, action="battle.outcome.map", target=battle,
                 data={"winner": winner.pk, "loser": loser.pk, "routed": routed, "location": battle.location_id,
                       "retreat_to": [round(loser.x, 3), round(loser.y, 3)]})
    return battle


@transaction.atomic
def due_battle_cancel(*, due_battle: DueBattle, actor: User | None) -> DueBattle:
    """A game master calls off a Battle that came due (the armies stay where they are)."""
    battle = DueBattle.objects.select_for_update(of=("self",)).select_related("event__campaign").get(pk=due_battle.pk)
    if battle.status != DueBattle.Status.DUE:
        raise ValidationError(f"This Battle is already {battle.get_status_display().lower()}.")
    battle.status = DueBattle.Status.CANCELLED
    battle.fought_hour = battle.event.current_hour + 1
    battle.save(update_fields=["status", "fought_hour"])
    audit_record(campaign=battle.event.campaign, actor=actor, action="battle.cancel", target=battle)
    return battle
