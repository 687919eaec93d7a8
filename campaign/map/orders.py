"""Move orders: planned (route, cost and arrival hour shown before confirming), given and cancelled.
A Capture is an order too: the army's Strength adds to the location's progress each hour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction

from campaign.campaigns.audit import audit_record
from campaign.campaigns.permissions import membership_for, require_acting_for
from campaign.locking import lock
from campaign.map import routing, rules, selectors, terrain
from campaign.map.common import army_locked, orders_cancel
from campaign.models import (
    Army,
    Event,
    Location,
    MoveOrder,
    TacticalMap,
)


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


def _map_event_or_refuse(campaign_id: int, locked: bool = False) -> Event:
    event = selectors.map_event(campaign=campaign_id)
    if event is None:
        raise ValidationError("There is no Event under way: a game master must plan or start one first.")
    if locked:
        event = lock(Event.objects).get(pk=event.pk)
    return event


def move_order_plan(*, army: Army, kind: str, actor: User | None, x: float | None = None,
                    y: float | None = None, location: Location | None = None, target_army: Army | None = None,
                    event: Event | None = None) -> OrderPlan:
    """Plan an order without giving it (the preview): the quickest route by routing.plan_route."""
    if army.map_id is None:
        raise ValidationError(f"{army.name} is in reserve: a game master must place it on the map first.")
    require_acting_for(actor=actor, commander=army.commander, what=f"give {army.commander}'s armies orders")
    tactical_map = army.map
    if tactical_map is None:  # army.map_id was checked above
        raise RuntimeError(f"{army.name} has a map id but no map.")
    event = event or _map_event_or_refuse(army.campaign_id)
    units = selectors.army_map_units(army_ids=[army.pk]).get(army.pk, [])
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
                selectors.army_seen_position(membership=membership, army=target_army) if membership else None)
        if seen is None:
            raise ValidationError("Pick an army you can see on the map.")
        target = seen
    else:
        raise ValidationError(f"An order is one of: {', '.join(MoveOrder.Kind.values)}.")
    try:
        route = routing.plan_route(selectors.tactical_map_rules(tactical_map=tactical_map), start, target,
                                   speed=rules.army_speed(units),
                                   ignores_difficult=rules.ignores_difficult_terrain(units))
    except ValueError as exc:
        raise ValidationError(str(exc)) from exc
    return OrderPlan(army=army, event=event, kind=kind, target=target, path=route.path, waypoints=route.waypoints,
                     arrival_hour=event.current_hour + route.arrival_hour, location=location, target_army=target_army)


def _capture_plan(*, army: Army, tactical_map: TacticalMap, event: Event, units: list[rules.MapUnit],
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
    strength = rules.army_capture_strength(units)
    if strength < 1:
        raise ValidationError(f"{army.name} has no Strength to Capture with.")
    progress = location.capture_progress if location.capturing_army_id == army.pk else 0
    remaining = rules.CaptureProgress(threshold=location.capture_threshold, progress=progress).remaining
    return OrderPlan(army=army, event=event, kind=MoveOrder.Kind.CAPTURE, target=(location.x, location.y),
                     path=((army.x, army.y),), waypoints=(), arrival_hour=event.current_hour + math.ceil(
                         remaining / strength), location=location)


@transaction.atomic
def army_order_move(*, army: Army, kind: str, actor: User | None, x: float | None = None,
                    y: float | None = None, location: Location | None = None,
                    target_army: Army | None = None) -> MoveOrder:
    """Give (or change) an army's order: it replaces the order under way and takes effect from the next hour.
    The route is planned again under the locks, so it is the one the preview showed unless the map changed."""
    event = _map_event_or_refuse(army.campaign_id, locked=True)
    army = army_locked(army)
    plan = move_order_plan(army=army, kind=kind, actor=actor, x=x, y=y, location=location, target_army=target_army,
                           event=event)
    replaced = orders_cancel([army.pk])
    order = MoveOrder.objects.create(
        army=army, event=event, kind=plan.kind, target_x=plan.target[0], target_y=plan.target[1],
        target_location=plan.location, target_army=plan.target_army, path=[list(p) for p in plan.path],
        waypoints=[list(p) for p in plan.waypoints], ordered_hour=event.current_hour,
        arrival_hour=plan.arrival_hour, given_by=actor if actor and actor.pk else None)
    audit_record(campaign=army.campaign, actor=actor, action="army.order", target=army,
                 data={"order": order.pk, "kind": kind, "target": list(plan.target), "arrival_hour": plan.arrival_hour,
                       "replaced": replaced})
    return order


def order_sent_sentence(order: MoveOrder) -> str:
    """What the player is told when an order is given: the map shows it, and so does the offline queue's banner
    when an order kept offline is sent."""
    about = "about " if order.kind == MoveOrder.Kind.ARMY else ""
    return f"Orders sent: {order.army.name} arrives at {about}hour {order.arrival_hour}."


def orders_reestimate(*, army_ids: list[int]) -> list[int]:
    """Work out again the hour each active move of these armies arrives, from where it stands, what its route
    still covers and the army's make-up now, so the hour an order shows holds unless something interferes:
    call it when a unit joins or leaves, one is Killed, or the terrain changes. The hour tick does the same
    after every Move. Returns the ids of the orders whose hour changed."""
    orders = list(MoveOrder.objects.filter(army_id__in=army_ids, status=MoveOrder.Status.ACTIVE)
                  .exclude(kind=MoveOrder.Kind.CAPTURE).select_related("army__map", "event"))
    units = selectors.army_map_units(army_ids=[order.army_id for order in orders]) if orders else {}
    maps: dict[int, terrain.TacticalMap] = {}
    changed = []
    for order in orders:
        tactical_map = order.army.map
        army_units = units.get(order.army_id, [])
        if tactical_map is None or len(order.path) < 2 or not army_units:
            continue
        pure = maps.setdefault(tactical_map.pk, selectors.tactical_map_rules(tactical_map=tactical_map))
        moves = routing.path_moves(pure, [tuple(p) for p in order.path], speed=rules.army_speed(army_units),
                                   ignores_difficult=rules.ignores_difficult_terrain(army_units))
        if moves is not None and order.event.current_hour + moves != order.arrival_hour:
            order.arrival_hour = order.event.current_hour + moves
            changed.append(order)
    MoveOrder.objects.bulk_update(changed, ["arrival_hour"])
    return [order.pk for order in changed]


@transaction.atomic
def move_order_cancel(*, order: MoveOrder, actor: User | None) -> MoveOrder:
    """Call an order off before its next hour is processed; the army stays where it stands."""
    lock(Event.objects).filter(pk=order.event_id).first()
    order = lock(MoveOrder.objects).select_related("army__commander", "army__campaign").get(
        pk=order.pk)
    require_acting_for(actor=actor, commander=order.army.commander, what=f"give {order.army.commander}'s armies orders")
    if order.status != MoveOrder.Status.ACTIVE:
        raise ValidationError(f"This order is already {order.get_status_display().lower()}: "
                              "there is nothing to cancel.")
    order.status = MoveOrder.Status.CANCELLED
    order.save(update_fields=["status"])
    audit_record(campaign=order.army.campaign, actor=actor, action="army.order.cancel", target=order.army,
                 data={"order": order.pk})
    return order
