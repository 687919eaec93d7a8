"""Writes for the tactical map itself: the picture and scale, terrain, locations, Bases, reveals and the outcome
of a Battle on the map (armies are campaign.map.armies, orders campaign.map.orders). Each is one transaction
with an audit row for a person's change.

Locks, when several are taken: the Event, then armies in primary-key order, then locations (the hour
processing in campaign.map.hour takes them in the same order, so the two never deadlock).
"""

from __future__ import annotations

import math
from typing import Literal

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction

from campaign.campaigns.audit import audit_record
from campaign.live.push import announce, commander_topic
from campaign.locking import lock
from campaign.map import picture, routing, rules, selectors, terrain
from campaign.map.common import orders_cancel, point_on_map_check
from campaign.map.orders import orders_reestimate
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
)


@transaction.atomic
def tactical_map_get_or_create(*, campaign: Campaign, actor: User | None) -> TacticalMap:
    tactical_map, created = TacticalMap.objects.get_or_create(campaign=campaign)
    if created:
        audit_record(campaign=campaign, actor=actor, action="map.create", target=tactical_map)
    return tactical_map


@transaction.atomic
def tactical_map_set_picture(*, tactical_map: TacticalMap, upload, actor: User | None) -> TacticalMap:
    """Store a clean web-sized copy and a thumbnail; the height in inches follows the new aspect ratio."""
    processed = picture.map_picture_process(upload)
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
        terrain.TerrainRegion(name=name, kind=terrain.TerrainKind(kind), points=tuple(clean), penalty=penalty)
    except (TypeError, ValueError) as exc:
        message = str(exc) if isinstance(exc, ValueError) and "terrain" in str(exc).lower() else (
            "Give the corners as a list of [x, y] pairs in inches, at least three.")
        raise ValidationError({"points": message}) from exc
    for x, y in clean:
        point_on_map_check(tactical_map, x, y)
    region = TerrainRegion.objects.create(map=tactical_map, name=name[:120], kind=kind, penalty=penalty,
                                          points=[[round(x, 3), round(y, 3)] for x, y in clean])
    _marches_reestimate(tactical_map)
    audit_record(campaign=tactical_map.campaign, actor=actor, action="map.terrain.create", target=region,
                 data={"kind": kind, "corners": len(clean)})
    return region


@transaction.atomic
def terrain_region_delete(*, region: TerrainRegion, actor: User | None) -> None:
    audit_record(campaign=region.map.campaign, actor=actor, action="map.terrain.delete", target=region)
    region.delete()
    _marches_reestimate(region.map)


def _marches_reestimate(tactical_map: TacticalMap) -> None:
    """New or removed terrain changes how long every march on the map takes."""
    orders_reestimate(army_ids=list(Army.objects.filter(map=tactical_map).values_list("pk", flat=True)))


@transaction.atomic
def location_create(*, tactical_map: TacticalMap, name: str, size: str, x: float, y: float,
                    actor: User | None, capture_threshold: int | None = None,
                    holder: Commander | None = None) -> Location:
    """A camp, town or city; its capture threshold defaults to 3, 15 or 60."""
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": "Give the location a name."})
    try:
        threshold = capture_threshold or rules.capture_threshold(size)
    except rules.MapRuleError as exc:
        raise ValidationError({"size": str(exc)}) from exc
    point_on_map_check(tactical_map, x, y)
    if selectors.tactical_map_rules(tactical_map=tactical_map).impassable_at((x, y)) is not None:
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
    location = lock(Location.objects).get(pk=location.pk)
    location.holder, location.capture_progress, location.capturing_army = holder, 0, None
    location.save(update_fields=["holder", "capture_progress", "capturing_army"])
    audit_record(campaign=location.map.campaign, actor=actor, action="map.location.holder", target=location,
                 data={"holder": holder.pk if holder else None})
    return location


@transaction.atomic
def location_update(*, location: Location, actor: User | None, name: str | None = None, size: str | None = None,
                    capture_threshold: int | None = None, x: float | None = None, y: float | None = None) -> Location:
    """A game master renames, resizes or moves a location, or changes its capture threshold (a new size without
    a threshold takes that size's default); only what is given changes. The holder changes by
    location_set_holder."""
    location = lock(Location.objects).select_related("map__campaign").get(pk=location.pk)
    tactical_map = location.map
    if name is not None:
        name = name.strip()
        if not name:
            raise ValidationError({"name": "Give the location a name."})
        if Location.objects.filter(map=tactical_map, name=name).exclude(pk=location.pk).exists():
            raise ValidationError({"name": f"The map already has a location called {name}: pick another name."})
        location.name = name[:120]
    if size is not None and size != location.size:
        try:
            location.capture_threshold = rules.capture_threshold(size)
        except rules.MapRuleError as exc:
            raise ValidationError({"size": str(exc)}) from exc
        location.size = size
    if capture_threshold is not None:
        if capture_threshold < 1:
            raise ValidationError({"capture_threshold": "A capture threshold is at least 1."})
        location.capture_threshold = capture_threshold
    if (x is None) != (y is None):
        raise ValidationError("Give both x and y to move a location.")
    if x is not None and y is not None:
        point_on_map_check(tactical_map, x, y)
        if selectors.tactical_map_rules(tactical_map=tactical_map).impassable_at((x, y)) is not None:
            raise ValidationError("That point is inside impassable terrain: move the location outside it.")
        location.x, location.y = float(x), float(y)
    location.save(update_fields=["name", "size", "capture_threshold", "x", "y"])
    audit_record(campaign=tactical_map.campaign, actor=actor, action="map.location.update", target=location,
                 data={"size": location.size, "threshold": location.capture_threshold, "x": location.x,
                       "y": location.y})
    return location


@transaction.atomic
def location_delete(*, location: Location, actor: User | None) -> None:
    audit_record(campaign=location.map.campaign, actor=actor, action="map.location.delete", target=location)
    location.delete()


def base_location_near(*, tactical_map: TacticalMap, x: float, y: float) -> Location | None:
    """The location a Base placed at (x, y) belongs to: the nearest within the map's contact distance."""
    near = [(math.dist((x, y), (loc.x, loc.y)), loc.pk, loc) for loc in tactical_map.locations.all()]
    near = [item for item in near if item[0] <= tactical_map.contact_inches]
    return min(near)[2] if near else None


def _base_checked(tactical_map: TacticalMap, name: str, morale_bonus: int, location: Location | None) -> str:
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": "Give the Base a name."})
    if morale_bonus < 1:
        raise ValidationError({"morale_bonus": "A Base grants at least 1 Morale."})
    if location is not None and location.map_id != tactical_map.pk:
        raise ValidationError({"location": "That location is on another map: link the Base to a location here."})
    return name[:120]


@transaction.atomic
def base_create(*, tactical_map: TacticalMap, name: str, x: float, y: float, morale_bonus: int,
                actor: User | None, location: Location | None = None) -> Base:
    """A Base: extra Morale for the commander defending its location, once per Day. Only a Base linked to a
    location grants it (the defender of a Battle at that location)."""
    name = _base_checked(tactical_map, name, morale_bonus, location)
    point_on_map_check(tactical_map, x, y)
    base = Base.objects.create(map=tactical_map, name=name, x=float(x), y=float(y), morale_bonus=morale_bonus,
                               location=location)
    audit_record(campaign=tactical_map.campaign, actor=actor, action="map.base.create", target=base,
                 data={"morale_bonus": morale_bonus, "location": location.pk if location else None})
    return base


@transaction.atomic
def base_update(*, base: Base, actor: User | None, name: str | None = None, morale_bonus: int | None = None,
                x: float | None = None, y: float | None = None, location: Location | Literal["keep"] | None = "keep"
                ) -> Base:
    """Rename, move, relink (`location` None: unlinked) or change a Base's bonus; only what is given changes."""
    base = lock(Base.objects).select_related("map__campaign", "location").get(pk=base.pk)
    new_location = base.location if location == "keep" else location
    name = _base_checked(base.map, base.name if name is None else name,
                         base.morale_bonus if morale_bonus is None else morale_bonus, new_location)
    if (x is None) != (y is None):
        raise ValidationError("Give both x and y to move a Base.")
    if x is not None and y is not None:
        point_on_map_check(base.map, x, y)
        base.x, base.y = float(x), float(y)
    base.name, base.location = name, new_location
    if morale_bonus is not None:
        base.morale_bonus = morale_bonus
    base.save(update_fields=["name", "location", "x", "y", "morale_bonus"])
    audit_record(campaign=base.map.campaign, actor=actor, action="map.base.update", target=base,
                 data={"x": base.x, "y": base.y, "location": base.location_id, "morale_bonus": base.morale_bonus})
    return base


@transaction.atomic
def base_delete(*, base: Base, actor: User | None) -> None:
    audit_record(campaign=base.map.campaign, actor=actor, action="map.base.delete", target=base)
    base.delete()


def bases_refresh(*, day: Day, **_signal) -> None:
    """A Day has closed (campaign.economy.upkeep.day_closed): every Base's spent bonus is back for the next."""
    Base.objects.filter(map__campaign_id=day.event.campaign_id, spent_on__isnull=False).update(spent_on=None)


@transaction.atomic
def base_bonus_restore(*, base: Base, actor: User | None) -> Base:
    """A Base's spent Morale bonus is restored: it can be spent again this Day (RULINGS.md: an effect a unit
    text or power may carry; a game master applies it from the map). An unspent bonus stays as it is."""
    base = lock(Base.objects).select_related("map__campaign").get(pk=base.pk)
    if base.spent_on_id is not None:
        day_id = base.spent_on_id
        base.spent_on = None
        base.save(update_fields=["spent_on"])
        audit_record(campaign=base.map.campaign, actor=actor, action="map.base.restore", target=base,
                     data={"day": day_id})
    return base


@transaction.atomic
def base_bonus_spend(*, base: Base, day: Day, actor: User | None) -> Base:
    """The defender's Base Morale is spent: gone for the rest of the Day (the battles app calls this)."""
    base = lock(Base.objects).get(pk=base.pk)
    if base.spent_on_id == day.pk:
        raise ValidationError(f"{base.name}'s Morale bonus is already used up for {day}.")
    base.spent_on = day
    base.save(update_fields=["spent_on"])
    audit_record(campaign=base.map.campaign, actor=actor, action="map.base.spend", target=base, data={"day": day.pk})
    return base


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
    event = selectors.map_event(campaign=army.campaign_id)
    reveal = Reveal(army=army, to_commander=to_commander, what=what, hour=event.current_hour if event else 0,
                    revealed_by=actor if actor and actor.pk else None)
    if what == Reveal.What.POSITION:
        if army.map_id is None:
            raise ValidationError(f"{army.name} is in reserve: there is no position to reveal.")
        reveal.x, reveal.y = army.x, army.y
    else:
        units = selectors.army_map_units(army_ids=[army.pk]).get(army.pk, [])
        reveal.miniatures = rules.miniature_count(units)
    reveal.save()
    audit_record(campaign=army.campaign, actor=actor, action="map.reveal", target=army,
                 data={"to": to_commander.pk, "what": what})
    announce(commander_topic(to_commander.pk), f"reveal-{reveal.pk}")  # that player's map shows it
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
    stands on it, but does not take it: it must still Capture it (RULINGS.md), unopposed now that the
    defender retreated. A Capture whose army fought begins again. Both armies were led today.
    Idempotent: a Battle already applied is returned as it is.
    """
    event = lock(Event.objects).get(pk=due_battle.event_id)
    first_id, second_id = sorted((winner_army.pk, loser_army.pk))
    armies = {a.pk: a for a in lock(Army.objects).select_related("map", "commander")
              .filter(pk__in=[first_id, second_id]).order_by("pk")}
    battle = lock(DueBattle.objects).get(pk=due_battle.pk)
    if battle.status != DueBattle.Status.DUE:
        return battle
    if {battle.first_id, battle.second_id} != {winner_army.pk, loser_army.pk}:
        raise ValidationError("The winner and the loser must be the two armies of this Battle.")
    winner, loser = armies[winner_army.pk], armies[loser_army.pk]
    tactical_map = loser.map or winner.map
    if tactical_map is not None and loser.map_id:
        pure = selectors.tactical_map_rules(tactical_map=tactical_map)
        units = selectors.army_map_units(army_ids=[loser.pk]).get(loser.pk, [])
        away = rules.retreat_position(loser=(loser.x, loser.y), winner=(winner.x, winner.y),
                                      speed=rules.army_speed(units), routed=routed,
                                      width=pure.width, height=pure.height)
        loser.x, loser.y = routing.stop_before_impassable(pure, (loser.x, loser.y), away)
        loser.save(update_fields=["x", "y"])
    orders_cancel([loser.pk], status=MoveOrder.Status.INTERRUPTED)
    if battle.location_id:
        location = lock(Location.objects).get(pk=battle.location_id)
        location.capture_progress = rules.CaptureProgress(
            threshold=location.capture_threshold, progress=location.capture_progress).after_battle().progress
        location.capturing_army = None
        location.save(update_fields=["capture_progress", "capturing_army"])
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
    battle = lock(DueBattle.objects).select_related("event__campaign").get(pk=due_battle.pk)
    if battle.status != DueBattle.Status.DUE:
        raise ValidationError(f"This Battle is already {battle.get_status_display().lower()}.")
    battle.status = DueBattle.Status.CANCELLED
    battle.fought_hour = battle.event.current_hour + 1
    battle.save(update_fields=["status", "fought_hour"])
    audit_record(campaign=battle.event.campaign, actor=actor, action="battle.cancel", target=battle)
    return battle
