"""The tactical map at a given hour of its Event, as one member may see it: what the printed map
(campaign.map.map_print) draws. Fog of war is applied once, by selectors.map_view: this module only moves the
armies that view holds to where they stand at the hour, and never adds one.

- The current hour: the map as it stands, with each army's route still ahead.
- A later hour (at most MAX_HOURS_AHEAD ahead): where the orders under way take the viewer's armies by the end
  of that hour if nothing stops them (routing.march: the hour's own walk, at each army's pace now), the way
  there and the route still ahead. Nothing is guessed that the viewer cannot see: an army seen through a reveal
  stays where it was seen, an army with a Battle due holds still (as the hour holds it), a Capture stands, and
  Battles that may come due on the way are not foreseen.
- An earlier hour: as the map stood when that hour's Moves were done and its Battles came due (hour 0: as it
  stood when the first hour came), read back from the records that every processed hour and every Battle
  outcome keep so that they may be reversed (campaign.campaigns.reversals: each army's place before and after):
  each army is taken back through the standing records made since, most recent first, and shows the Move it
  made in that hour; locations go back to their holders then; a player sees what had been revealed to them by
  then. A change a game master makes by hand (placing, withdrawing, splitting, merging or disbanding an army the
  viewer sees, handing a location over) keeps no record of how the map stood before, so an hour before such a
  change is refused, naming the first hour that can be drawn. Sizes are not kept per hour: an earlier hour shows
  the viewer's armies without them. Terrain, locations and Bases are drawn as the map is now.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db.models import Q

from campaign.campaigns.selectors import event_current_day
from campaign.map import map_data, routing, rules, selectors
from campaign.models import (
    AuditEntry,
    Commander,
    Day,
    DueBattle,
    Event,
    HourLog,
    Membership,
    MoveOrder,
    Reversible,
    TacticalMap,
)

Point = tuple[float, float]

MAX_HOURS_AHEAD = 48
"""How far ahead the map is drawn: two days of an Event's clock (orders rarely reach further)."""

HAND_CHANGES = ("army.place", "army.withdraw", "army.split", "army.merge", "army.disband", "map.location.holder")
"""Audit actions of the changes by hand that no record can take back (see the module's docstring)."""


@dataclass(frozen=True)
class ArmyAtHour:
    """An army of the viewer's map where it stands at the hour. `ahead`: the route still ahead, from where it
    stands; `walked`: the way it walked, since now (a later hour) or in that hour's Move (an earlier hour)."""

    marker: selectors.ArmyMarker
    x: float
    y: float
    miniatures: int | None
    ahead: tuple[Point, ...] = ()
    walked: tuple[Point, ...] = ()


@dataclass(frozen=True)
class MapAtHour:
    view: selectors.MapView
    hour: int
    current_hour: int
    day: Day | None
    armies: list[ArmyAtHour]
    battles: list[dict]
    holders: dict[int, str]

    @property
    def tense(self) -> str:
        """'now', 'ahead' or 'past': how the hour was worked out."""
        if self.hour == self.current_hour:
            return "now"
        return "ahead" if self.hour > self.current_hour else "past"


def map_at_hour(*, tactical_map: TacticalMap, membership: Membership, hour: int | None = None) -> MapAtHour:
    """The map at `hour` of its Event (None: the current hour) for this member, or a sentence saying why that hour
    cannot be drawn (a ValidationError)."""
    event = selectors.map_event(campaign=tactical_map.campaign_id)
    current = event.current_hour if event is not None else 0
    hour = current if hour is None else hour
    _hour_check(event, hour, current)
    view = selectors.map_view(tactical_map=tactical_map, membership=membership,
                              reveals_until_hour=hour if hour < current else None)
    holders = {loc.pk: loc.holder.name if loc.holder else "" for loc in view.locations}
    day = event_current_day(event=event) if event is not None else None
    if event is None or hour == current:
        armies = [_standing(marker, marker.miniatures, ahead=_route_ahead(marker)) for marker in view.armies]
    elif hour > current:
        armies = _ahead(view, hour - current)
    else:
        record = _record_of(event, hour)
        _refuse_after_hand_changes(event, membership, hour, current, record)
        armies, holder_ids = _past(view, record, hour)
        names = dict(Commander.objects.filter(pk__in=[pk for pk in holder_ids.values() if pk])
                     .values_list("pk", "name"))
        holders = {pk: names.get(holder_id, "") if holder_id else "" for pk, holder_id in holder_ids.items()}
        day = (Day.objects.filter(event=event, opened_at__lte=record.recorded_at)
               .filter(Q(closed_at__isnull=True) | Q(closed_at__gt=record.recorded_at)).order_by("-number").first())
    return MapAtHour(view=view, hour=hour, current_hour=current, day=day, armies=armies,
                     battles=_battles(view, membership, hour, current, armies), holders=holders)


def hour_parse(raw: str | None) -> int | None:
    """The hour asked for (None: none given, the current hour), or a sentence saying how to give it."""
    if raw is None or raw.strip() == "":
        return None
    if re.fullmatch(r"[0-9]{1,6}", raw.strip()) is None:
        raise ValidationError("Give the hour as a whole number of the Event's clock, such as 3, or leave it empty "
                              "for the current hour.")
    return int(raw)


def _hour_check(event: Event | None, hour: int, current: int) -> None:
    if event is None and hour != 0:
        raise ValidationError("There is no Event under way, so the map has no hours yet: leave the hour empty to "
                              "draw the map as it stands.")
    if hour > current + MAX_HOURS_AHEAD:
        raise ValidationError(f"Hour {hour} is too far ahead: the map is drawn at most {MAX_HOURS_AHEAD} hours after "
                              f"the current hour {current}, so pick an hour from 0 to {current + MAX_HOURS_AHEAD}.")


def _standing(marker: selectors.ArmyMarker, miniatures: int | None, *, x: float | None = None,
              y: float | None = None, ahead=(), walked=()) -> ArmyAtHour:
    return ArmyAtHour(marker=marker, x=marker.x if x is None else x, y=marker.y if y is None else y,
                      miniatures=miniatures, ahead=tuple(ahead), walked=tuple(walked))


def _route_ahead(marker: selectors.ArmyMarker) -> tuple[Point, ...]:
    """The route still ahead from where the army stands (its order's path), for the viewer's own armies."""
    if not marker.own or len(marker.path) < 2:
        return ()
    return ((marker.x, marker.y), *((p[0], p[1]) for p in marker.path[1:]))


# --- a later hour --------------------------------------------------------------------------------------------


def _ahead(view: selectors.MapView, hours: int) -> list[ArmyAtHour]:
    """Each army of the view after `hours` Moves of its order, if nothing stops it (see the module's docstring)."""
    holding = {pk for battle in view.due_battles for pk, _ in battle["sides"]}
    marching = [m for m in view.armies if m.own and m.order_kind != MoveOrder.Kind.CAPTURE and len(m.path) > 1
                and m.id not in holding]
    units = (selectors.army_map_units(tactical_map=view.tactical_map) if view.is_gm and marching
             else selectors.army_map_units(army_ids=[m.id for m in marching]) if marching else {})
    pure = selectors.tactical_map_rules(tactical_map=view.tactical_map, regions=view.regions)
    paces: dict[tuple, tuple[float, bool]] = {}
    moved: dict[int, ArmyAtHour] = {}
    for marker in marching:
        army_units = units.get(marker.id, [])
        if not [u for u in army_units if not u.is_ritual]:
            continue  # an army of Rituals alone does not move
        key = tuple(army_units)
        if key not in paces:
            paces[key] = (rules.army_speed(army_units), rules.ignores_difficult_terrain(army_units))
        speed, ignores_difficult = paces[key]
        step, walked = routing.march(_route_ahead(marker), speed=speed, tactical_map=pure,
                                     ignores_difficult=ignores_difficult, hours=hours)
        moved[marker.id] = _standing(marker, marker.miniatures, x=step.position[0], y=step.position[1],
                                     ahead=step.remaining if len(step.remaining) > 1 else (), walked=walked)
    return [moved.get(m.id) or _standing(m, m.miniatures, ahead=_route_ahead(m)) for m in view.armies]


# --- an earlier hour -----------------------------------------------------------------------------------------


def _record_of(event: Event, hour: int) -> Reversible:
    """The standing record of the hour whose Moves the map of `hour` shows done (hour 0: the first hour's, which
    is taken back too)."""
    log = HourLog.objects.filter(event=event, hour=max(hour, 1), reversed=False).values_list("pk", flat=True)
    record = Reversible.objects.filter(kind=Reversible.Kind.HOUR, target_id__in=log, reversed_at__isnull=True).first()
    if record is None:
        raise ValidationError(f"Muster keeps no record of where the armies stood at hour {hour} of {event.name}: "
                              "pick a later hour.")
    return record


def _refuse_after_hand_changes(event: Event, membership: Membership, hour: int, current: int,
                               record: Reversible) -> None:
    """Refuse the hour when a game master changed what this viewer sees by hand since (see the module's
    docstring); an audit row that names no commander (written before they did) counts as such a change."""
    own = None if membership.is_gm else selectors.own_commander_ids(membership=membership)
    latest = None
    for at, action, data in (AuditEntry.objects.filter(campaign_id=event.campaign_id, action__in=HAND_CHANGES,
                                                       at__gt=record.recorded_at)
                             .order_by("-at").values_list("at", "action", "data")):
        data = data or {}
        if own is None or action == "map.location.holder" or "commander" not in data or data["commander"] in own:
            latest = at
            break
    if latest is None:
        return
    during = (HourLog.objects.filter(event=event, reversed=False, processed_at__lte=latest)
              .order_by("-hour").values_list("hour", flat=True).first()) or 0
    raise ValidationError(
        f"The map at hour {hour} cannot be drawn: a game master changed it by hand during hour {during} (placed, "
        "withdrew, split or merged an army, or handed a location over), which keeps no record of how it stood "
        f"before; pick hour {min(during + 1, current)} or later.")


def _past(view: selectors.MapView, record: Reversible, hour: int) -> tuple[list[ArmyAtHour], dict[int, int | None]]:
    """The viewer's armies and the locations' holders taken back through every standing record made after the map
    stood as at `hour` (most recent first: each record's values before it), with each army's Move in that hour."""
    places = {m.id: {"x": m.x, "y": m.y} for m in view.armies if m.own}
    holders: dict[int, int | None] = {loc.pk: loc.holder_id for loc in view.locations}
    later = Reversible.objects.filter(campaign_id=view.tactical_map.campaign_id, reversed_at__isnull=True)
    later = later.filter(pk__gte=record.pk) if hour == 0 else later.filter(pk__gt=record.pk)
    for changed in later.order_by("-pk").values_list("changed", flat=True):
        for change in changed:
            if change["model"] == "campaign.army" and change["pk"] in places:
                places[change["pk"]].update({k: v for k, v in change["before"].items() if k in ("x", "y")})
            elif change["model"] == "campaign.location" and change["pk"] in holders and "holder_id" in change["before"]:
                holders[change["pk"]] = change["before"]["holder_id"]
    where = {pk: (place["x"], place["y"]) for pk, place in places.items()}
    moves = _hour_moves(record, where) if hour >= 1 else {}
    armies = [_standing(m, None, x=where[m.id][0], y=where[m.id][1], walked=moves.get(m.id, ())) if m.id in where
              else _standing(m, m.miniatures) for m in view.armies]
    return armies, holders


def _hour_moves(record: Reversible, where: dict[int, Point]) -> dict[int, tuple[Point, ...]]:
    """The way each of these armies walked in the hour `record` keeps: from where it stood before, along its
    order's route as it was, to where the hour left it (`where`)."""
    starts = {c["pk"]: c["before"] for c in record.changed if c["model"] == "campaign.army" and c["pk"] in where}
    paths = {c["pk"]: (c["before"]["path"], c["after"]["path"]) for c in record.changed
             if c["model"] == "campaign.moveorder" and "path" in c["before"]}
    army_of = dict(MoveOrder.objects.filter(pk__in=list(paths), army_id__in=list(starts)).values_list("pk", "army_id"))
    routes = {army_of[pk]: pair for pk, pair in paths.items() if pk in army_of}
    moves = {}
    for army_id, before in starts.items():
        end = where[army_id]
        start = (before.get("x", end[0]), before.get("y", end[1]))
        moves[army_id] = _walked(start, end, routes.get(army_id))
    return moves


def _walked(start: Point, end: Point, route: tuple[list, list] | None) -> tuple[Point, ...]:
    """The turns of the route before the hour that the army passed (the route after the hour is what was left of
    it: its tail), else the straight way (the route was planned again in the hour, as a pursuit is)."""
    if route is not None:
        before, after = route
        passed = len(before) - len(after)
        if before and after and 0 <= passed < len(before) and before[passed + 1:] == after[1:] \
                and math.dist(before[0], start) < 1e-6:
            return (*((p[0], p[1]) for p in before[:passed + 1]), end)
    return (start, end)


# --- Battles -------------------------------------------------------------------------------------------------


def _battles(view: selectors.MapView, membership: Membership, hour: int, current: int,
             armies: list[ArmyAtHour]) -> list[dict]:
    """The Battles due and fought this Event as the map of that hour shows them (map_data's entries, placed among
    the armies where they stand then). An earlier hour shows those come due by then, due until the hour they were
    fought in: a Battle fought in hour h was still due when hour h's Moves were done."""
    if view.event is None:
        return []
    own = set() if view.is_gm else selectors.own_commander_ids(membership=membership)
    fought = selectors.due_battles_for(event=view.event, is_gm=view.is_gm, own_ids=own,
                                       status=DueBattle.Status.FOUGHT)
    rows = [(b, DueBattle.Status.DUE) for b in view.due_battles] + [(b, DueBattle.Status.FOUGHT) for b in fought]
    if hour < current:
        rows = [(b, DueBattle.Status.DUE if b["fought_hour"] is not None and b["fought_hour"] >= hour else status)
                for b, status in rows if b["hour"] <= hour]
    where = {a.marker.id: (a.x, a.y) for a in armies}
    return [map_data.battle_entry(b, status, where) for b, status in rows]


@dataclass(frozen=True)
class HoursOffered:
    """What the map page's print form offers: the current hour, the last hour it draws, and the hours at which the
    viewer's orders under way arrive (the first few)."""

    current: int
    last: int
    arrivals: list[int]


def hours_offered(*, tactical_map: TacticalMap, membership: Membership, arrivals: int = 4) -> HoursOffered:
    event = selectors.map_event(campaign=tactical_map.campaign_id)
    if event is None:
        return HoursOffered(current=0, last=0, arrivals=[])
    orders = MoveOrder.objects.filter(army__map=tactical_map, status=MoveOrder.Status.ACTIVE,
                                      arrival_hour__gt=event.current_hour,
                                      arrival_hour__lte=event.current_hour + MAX_HOURS_AHEAD)
    if not membership.is_gm:
        orders = orders.filter(army__commander_id__in=selectors.own_commander_ids(membership=membership))
    hours = orders.order_by("arrival_hour").values_list("arrival_hour", flat=True).distinct()[:arrivals]
    return HoursOffered(current=event.current_hour, last=event.current_hour + MAX_HOURS_AHEAD, arrivals=list(hours))
