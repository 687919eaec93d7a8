"""One hour of an Event's clock on the map (see campaign.map.clock): every army with an order takes its
Move, captures progress, and Battles come due where armies meet.

An hour is processed once: `event_hour_process` writes everything of an hour in one transaction that locks
the Event row and records a unique HourLog row, so a tick delivered twice, or two workers at once, change
nothing the second time, and a worker killed mid-hour leaves the hour all done or not done at all. The
number of queries does not grow with the number of armies (bulk loads, bulk writes). What the hour changed is
kept so that a game master may reverse it (campaign.map.hour_reversal).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from campaign.bulk import update_rows
from campaign.campaigns.reversals import changes_between
from campaign.live.push import announce, gm_topic, hour_topic
from campaign.locking import lock
from campaign.map import hour_reversal, meetings, routing, rules, selectors
from campaign.models import (
    Army,
    ArmyDayActivity,
    Day,
    DueBattle,
    Event,
    HourLog,
    Location,
    MoveOrder,
    Reveal,
    TacticalMap,
)
from config.celery import enqueue_on_commit


def event_locked(event: Event) -> Event:
    return lock(Event.objects).select_related("campaign").get(pk=event.pk)



@dataclass
class HourResult:
    event_id: int
    hour: int
    already_done: bool = False
    moved: int = 0
    arrived: list[int] = field(default_factory=list)
    blocked: list[int] = field(default_factory=list)
    captured: list[int] = field(default_factory=list)
    battles: list[int] = field(default_factory=list)


def event_hour_process(*, event: Event, hour: int) -> HourResult:
    """Process one in-game hour of an Event, all or nothing, at most once (see the module's docstring).

    Every army with an order under way takes its Move: along its route (routing.advance), or capturing the
    location it stands on (its summed Strength adds to the progress; the location changes hands at the
    threshold). An order against an army pursues it as far as its commander knows: when a game master has
    revealed a newer position of the target to that commander, the route is planned again to it and the
    arrival hour becomes the new estimate; fog of war holds, so a pursuit never follows a position its player
    was not shown. It arrives on reaching that point, or when a Battle with the target comes due.

    Two enemy armies that come within contact at any moment of the hour, crossing or one reaching the other,
    stop where they meet (campaign.map.meetings). Armies in contact with an enemy army, or with a location an
    enemy defends (its holder's army there, or at a neutral location an army that stood on it before the
    hour), then have a Battle due (rules.battles_due; not two armies that fought within the last hour); an
    army with a Battle due holds still until the Battle is fought, and a Capture interrupted by a Battle
    begins again. After every Move the arrival hour is worked out again from what is left of the route at
    the army's pace now, so the hour an order shows is the hour it arrives. Each army that moved, captured,
    defended or fought is marked as led today, so upkeep charges it when the Day closes.
    """
    with transaction.atomic():
        event = event_locked(event)
        if HourLog.objects.filter(event=event, hour=hour, reversed=False).exists():
            return HourResult(event_id=event.pk, hour=hour, already_done=True)
        if event.status == Event.Status.CLOSED:
            raise ValidationError(f"{event.name} is closed: its hours are over.")
        if hour != event.current_hour + 1:
            raise ValidationError(f"Hours are processed in order: the next hour of {event.name} is "
                                  f"{event.current_hour + 1}, not {hour}.")
        result = HourResult(event_id=event.pk, hour=hour)
        entries: list[dict] = []
        tactical_map = TacticalMap.objects.filter(campaign_id=event.campaign_id).first()
        changed: list[dict] = []
        marks: list[int] = []
        if tactical_map is not None:
            on_map = _HourOnMap(event=event, hour=hour, tactical_map=tactical_map, result=result, entries=entries)
            before = hour_reversal.map_rows(on_map)
            on_map.run()
            changed, marks = changes_between(before, hour_reversal.map_rows(on_map)), on_map.marks
        log = HourLog.objects.create(event=event, hour=hour, moved=result.moved, entries=entries)
        enqueue_on_commit("campaign.notify_hour", event.pk, hour)  # arrivals, blocks and Battles due, told
        announce(hour_topic(event.campaign_id), log.pk)
        announce(gm_topic(event.campaign_id), f"hour-{log.pk}")
        event.current_hour = hour
        event.save(update_fields=["current_hour"])
        hour_reversal.hour_record(event=event, log=log, changed=changed, due_battles=result.battles, marks=marks)
        return result


@dataclass(frozen=True, slots=True)
class _Walk:
    """An army's Move this hour: the route it follows and its pace."""

    path: tuple[tuple[float, float], ...]
    speed: float
    ignores_difficult: bool


@dataclass(slots=True)
class _ArmyRow:
    """An army on the map as the hour needs it (plain rows: thousands of model instances cost more than the hour)."""

    pk: int
    name: str
    commander_id: int
    x: float
    y: float


@dataclass(slots=True)
class _OrderRow:
    """An active move order as the hour needs it; `path`, `status` and `done_hour` are written back."""

    pk: int
    army_id: int
    kind: str
    status: str
    path: list
    arrival_hour: int
    target_location_id: int | None
    target_army_id: int | None
    done_hour: int | None = None


class _HourOnMap:
    """The map's part of one hour: loads everything once, applies the rules, writes back in bulk."""

    def __init__(self, *, event: Event, hour: int, tactical_map: TacticalMap, result: HourResult,
                 entries: list[dict]) -> None:
        self.event, self.hour, self.result, self.entries = event, hour, result, entries
        self.map = tactical_map
        self.contact = tactical_map.contact_inches
        self.day = Day.objects.filter(event=event, status=Day.Status.OPEN).first()
        self.pure = selectors.tactical_map_rules(tactical_map=tactical_map)
        self.armies = {row[0]: _ArmyRow(*row) for row in lock(Army.objects)
                       .filter(map=tactical_map).order_by("pk").values_list("id", "name", "commander_id", "x", "y")}
        self.units = selectors.army_map_units(tactical_map=tactical_map)
        self.orders = {row[1]: _OrderRow(*row) for row in MoveOrder.objects.filter(
            event=event, status=MoveOrder.Status.ACTIVE, army__map=tactical_map).order_by().values_list(
            "id", "army_id", "kind", "status", "path", "arrival_hour", "target_location_id",
            "target_army_id")}
        self.locations = {loc.pk: loc for loc in lock(Location.objects).filter(map=tactical_map)
                          }
        self.activity: set[tuple[int, str]] = set()
        self.marks: list[int] = []
        self.paces: dict[tuple, tuple[float, bool]] = {}
        self.moved_armies: set[int] = set()
        self.changed_orders: set[int] = set()
        self.changed_locations: set[int] = set()
        self.new_pairs: set[frozenset] = set()
        self.sightings = self._sightings()

    def run(self) -> None:
        last_fought, holding = self._battle_history()
        walks = {}
        for army_id in sorted(self.orders):
            order = self.orders[army_id]
            if (army_id in self.armies and army_id not in holding and order.kind != MoveOrder.Kind.CAPTURE
                    and (walk := self._walk(self.armies[army_id], order)) is not None):
                walks[army_id] = walk
        stops = self._meetings(walks, last_fought)
        for army_id, walk in walks.items():
            self._step(self.armies[army_id], self.orders[army_id], walk, stops.get(army_id, 1.0))
        fighting = self._battles(last_fought) | holding
        self._pursuits_caught()
        for army_id in sorted(self.orders):
            order = self.orders[army_id]
            if army_id in self.armies and army_id not in fighting and order.kind == MoveOrder.Kind.CAPTURE:
                self._capture(self.armies[army_id], order)
        self._write()

    def _battle_history(self) -> tuple[dict[frozenset, int], set[int]]:
        """When each pair last fought, and the armies holding still for a Battle due (a pending pair counts as
        fighting now, so it is never reported twice)."""
        last: dict[frozenset, int] = {}
        holding: set[int] = set()
        rows = DueBattle.objects.filter(event=self.event).filter(
            Q(status=DueBattle.Status.DUE) | Q(fought_hour__gte=self.hour - rules.BATTLE_COOLDOWN_HOURS))
        for first, second, status, fought_hour in rows.values_list("first_id", "second_id", "status", "fought_hour"):
            pair = rules.pair_key(first, second)
            if status == DueBattle.Status.DUE:
                holding |= {first, second}
                last[pair] = self.hour
            else:
                if fought_hour is None:  # a pair not due matched the fought_hour__gte filter, so it has one
                    raise RuntimeError(f"The Battle of armies {first} and {second} is {status} with no fought hour.")
                last[pair] = max(last.get(pair, fought_hour), fought_hour)
        return last, holding

    def _led(self, army_id: int, reason: str) -> None:
        self.activity.add((army_id, reason))

    def _finish(self, order: _OrderRow, status: str) -> None:
        order.status, order.done_hour = status, self.hour
        self.changed_orders.add(order.army_id)

    def _pace(self, units: list[rules.MapUnit]) -> tuple[float, bool]:
        """Speed and whether difficult terrain is ignored, worked out once per make-up of army (armies alike are
        many: units alike share one MapUnit)."""
        key = tuple(units)
        pace = self.paces.get(key)
        if pace is None:
            pace = self.paces[key] = (rules.army_speed(units), rules.ignores_difficult_terrain(units))
        return pace

    def _walk(self, army: _ArmyRow, order: _OrderRow) -> _Walk | None:
        """The route this hour's Move follows and the army's pace (None: it does not move)."""
        units = self.units.get(army.pk, [])
        if not [u for u in units if not u.is_ritual]:
            return None
        speed, ignores_difficult = self._pace(units)
        if order.kind == MoveOrder.Kind.ARMY and not self._pursue(army, order, speed, ignores_difficult):
            return None
        return _Walk(path=tuple(tuple(p) for p in order.path), speed=speed, ignores_difficult=ignores_difficult)

    def _meetings(self, walks: dict[int, _Walk], last_fought: dict[frozenset, int]) -> dict[int, float]:
        """When in the hour each moving army meets an enemy army and stops (campaign.map.meetings)."""
        if not walks:
            return {}
        timelines: dict[int, meetings.Timeline] = {pk: ((0.0, (army.x, army.y)),) for pk, army in self.armies.items()}
        for pk, walk in walks.items():
            timelines[pk] = routing.timed_walk(walk.path, speed=walk.speed, tactical_map=self.pure,
                                               ignores_difficult=walk.ignores_difficult)

        def may_meet(a: int, b: int) -> bool:
            return (self.armies[a].commander_id != self.armies[b].commander_id
                    and rules.cooled_down(last_fought.get(rules.pair_key(a, b)), self.hour))

        return meetings.meetings(timelines, moving=set(walks), contact=self.contact, may_meet=may_meet)

    def _step(self, army: _ArmyRow, order: _OrderRow, walk: _Walk, hours: float) -> None:
        """Take the Move: the whole hour, or until the army meets an enemy (`hours` < 1)."""
        step = routing.advance(walk.path, speed=walk.speed, tactical_map=self.pure,
                               ignores_difficult=walk.ignores_difficult, hours=hours)
        army.x, army.y = step.position
        order.path = [list(p) for p in step.remaining]
        self.moved_armies.add(army.pk)
        self.changed_orders.add(army.pk)
        self.result.moved += 1
        self._led(army.pk, ArmyDayActivity.Reason.MOVED)
        if step.blocked:
            self._finish(order, MoveOrder.Status.BLOCKED)
            self.result.blocked.append(army.pk)
            self.entries.append({"kind": "blocked", "army": army.pk, "name": army.name,
                                 "at": [round(army.x, 2), round(army.y, 2)]})
        elif step.arrived:
            self._arrive(army, order)
        else:
            self._reestimate(army, order, walk.speed, walk.ignores_difficult)

    def _reestimate(self, army: _ArmyRow, order: _OrderRow, speed: float, ignores_difficult: bool) -> None:
        """The arrival hour from what is left of the route at the army's pace now (its make-up or the terrain
        may have changed since the order was given): the hour an order shows is the hour it arrives."""
        moves = routing.path_moves(self.pure, [tuple(p) for p in order.path], speed=speed,
                                   ignores_difficult=ignores_difficult)
        if moves is not None and self.hour + moves != order.arrival_hour:
            self.entries.append({"kind": "estimate", "army": army.pk, "name": army.name, "was": order.arrival_hour,
                                 "now": self.hour + moves})
            order.arrival_hour = self.hour + moves

    def _arrive(self, army: _ArmyRow, order: _OrderRow) -> None:
        self._finish(order, MoveOrder.Status.ARRIVED)
        self.result.arrived.append(army.pk)
        self.entries.append({"kind": "arrived", "army": army.pk, "name": army.name,
                             "promised": order.arrival_hour, "at": [round(army.x, 2), round(army.y, 2)]})

    def _sightings(self) -> dict[tuple[int, int], tuple[float, float]]:
        """The latest position of each pursued army revealed to each commander: (army, commander) -> (x, y)."""
        targets = {o.target_army_id for o in self.orders.values() if o.kind == MoveOrder.Kind.ARMY and o.target_army_id}
        if not targets:
            return {}
        rows = Reveal.objects.filter(army_id__in=targets, what=Reveal.What.POSITION, x__isnull=False).order_by(
            "hour", "created_at", "id").values_list("army_id", "to_commander_id", "x", "y")
        sightings: dict[tuple[int, int], tuple[float, float]] = {}
        for army_id, commander_id, x, y in rows:
            if x is None or y is None:  # x__isnull=False above; reveal_create writes a position's x and y together
                raise RuntimeError(f"A position reveal of army {army_id} has no x or no y.")
            sightings[(army_id, commander_id)] = (x, y)
        return sightings

    def _pursue(self, army: _ArmyRow, order: _OrderRow, speed: float, ignores_difficult: bool) -> bool:
        """Re-plan a pursuit to the target's latest revealed position when it differs from the route's end (in
        Python, from data already loaded); one no route reaches blocks the order."""
        target_id = order.target_army_id
        seen = self.sightings.get((target_id, army.commander_id)) if target_id is not None else None
        if seen is None or not order.path or math.dist(seen, order.path[-1]) < 1e-6:
            return True
        try:
            route = routing.plan_route(self.pure, (army.x, army.y), seen, speed=speed,
                                       ignores_difficult=ignores_difficult)
        except ValueError:
            self._finish(order, MoveOrder.Status.BLOCKED)
            self.result.blocked.append(army.pk)
            self.entries.append({"kind": "blocked", "army": army.pk, "name": army.name,
                                 "at": [round(army.x, 2), round(army.y, 2)]})
            return False
        order.path = [list(p) for p in route.path]
        order.arrival_hour = self.hour - 1 + max(1, route.arrival_hour)
        self.changed_orders.add(army.pk)
        return True

    def _pursuits_caught(self) -> None:
        """A pursuit ends, arrived, when a Battle with its target comes due."""
        for army_id in sorted(self.orders):
            order = self.orders[army_id]
            if (order.kind == MoveOrder.Kind.ARMY and order.status == MoveOrder.Status.ACTIVE
                    and order.target_army_id and rules.pair_key(army_id, order.target_army_id) in self.new_pairs):
                self._arrive(self.armies[army_id], order)

    def _near(self) -> dict[tuple[int, int], list[_ArmyRow]]:
        cells: dict[tuple[int, int], list[_ArmyRow]] = defaultdict(list)
        for army in self.armies.values():
            cells[(int(army.x // self.contact), int(army.y // self.contact))].append(army)
        return cells

    def _within(self, cells, point: tuple[float, float]) -> list[_ArmyRow]:
        cx, cy = int(point[0] // self.contact), int(point[1] // self.contact)
        return [army for i in (cx - 1, cx, cx + 1) for j in (cy - 1, cy, cy + 1) for army in cells.get((i, j), ())
                if math.dist((army.x, army.y), point) <= self.contact]

    def _defender(self, location: Location, near: list[_ArmyRow]) -> _ArmyRow | None:
        """Who defends a location: an army of its holder there; at a neutral one, an army that stood on it
        before this hour (RULINGS.md: a clash there is a Battle at that location, not a field battle)."""
        if location.holder_id is not None:
            candidates = [a for a in near if a.commander_id == location.holder_id]
        else:
            candidates = [a for a in near if a.pk not in self.moved_armies]
        return min(candidates, key=lambda a: a.pk, default=None)

    def _battles(self, last_fought: dict[frozenset, int]) -> set[int]:
        """Battles that come due this hour. A grid of contact-sized cells finds the armies near an enemy, and
        only those go to rules.battles_due (which compares every pair it is given)."""
        cells = self._near()
        involved: set[int] = set()
        for army in self.armies.values():
            if any(other.commander_id != army.commander_id for other in self._within(cells, (army.x, army.y))):
                involved.add(army.pk)
        defended = []
        for location in self.locations.values():
            near = self._within(cells, (location.x, location.y))
            defender = self._defender(location, near)
            if defender is not None and any(a.commander_id != defender.commander_id for a in near):
                defended.append(rules.LocationOnMap(key=location.pk, position=(location.x, location.y),
                                                    defender=defender.pk))
                involved |= {a.pk for a in near}
        if not involved:
            return set()
        on_map = [rules.ArmyOnMap(key=pk, side=self.armies[pk].commander_id,
                                  position=(self.armies[pk].x, self.armies[pk].y)) for pk in sorted(involved)]
        due = rules.battles_due(armies=on_map, hour=self.hour, last_fought=last_fought, locations=defended,
                                contact_distance=self.contact)
        if not due:
            return set()
        rows = DueBattle.objects.bulk_create([
            DueBattle(event=self.event, hour=self.hour, first_id=d.first, second_id=d.second, location_id=d.location)
            for d in due])
        fighting: set[int] = set()
        for row in rows:
            fighting |= {row.first_id, row.second_id}
            self.new_pairs.add(rules.pair_key(row.first_id, row.second_id))
            self._led(row.first_id, ArmyDayActivity.Reason.FOUGHT)
            self._led(row.second_id, ArmyDayActivity.Reason.FOUGHT)
            if row.location_id:
                self._led(row.second_id, ArmyDayActivity.Reason.DEFENDED)
            self.result.battles.append(row.pk)
            self.entries.append({"kind": "battle", "due_battle": row.pk, "armies": [row.first_id, row.second_id],
                                 "names": [self.armies[row.first_id].name, self.armies[row.second_id].name],
                                 "location": row.location_id})
        for location in self.locations.values():
            interrupted = location.capturing_army_id in fighting or any(
                row.location_id == location.pk for row in rows)
            if interrupted and (location.capture_progress or location.capturing_army_id):
                location.capture_progress = rules.CaptureProgress(
                    threshold=location.capture_threshold, progress=location.capture_progress).after_battle().progress
                location.capturing_army_id = None
                self.changed_locations.add(location.pk)
        return fighting

    def _capture(self, army: _ArmyRow, order: _OrderRow) -> None:
        target_id = order.target_location_id
        location = self.locations.get(target_id) if target_id is not None else None
        if location is None or math.dist((army.x, army.y), (location.x, location.y)) > self.contact:
            self._finish(order, MoveOrder.Status.CANCELLED)
            return
        if location.holder_id == army.commander_id:
            self._finish(order, MoveOrder.Status.CAPTURED)
            return
        strength = rules.army_capture_strength(self.units.get(army.pk, []))
        progress = location.capture_progress if location.capturing_army_id == army.pk else 0
        after = rules.CaptureProgress(threshold=location.capture_threshold, progress=progress).after_move(strength)
        self._led(army.pk, ArmyDayActivity.Reason.CAPTURED)
        self.changed_locations.add(location.pk)
        if after.captured:
            location.holder_id, location.capture_progress, location.capturing_army_id = army.commander_id, 0, None
            self._finish(order, MoveOrder.Status.CAPTURED)
            self.result.captured.append(location.pk)
            self.entries.append({"kind": "captured", "location": location.pk, "name": location.name,
                                 "army": army.pk, "army_name": army.name, "commander": army.commander_id})
        else:
            location.capture_progress, location.capturing_army_id = after.progress, army.pk
            self.entries.append({"kind": "capture", "location": location.pk, "name": location.name,
                                 "army": army.pk, "progress": after.progress, "threshold": after.threshold})

    def _write(self) -> None:
        if self.moved_armies:
            moved = [self.armies[pk] for pk in sorted(self.moved_armies)]
            update_rows(Army, ("x", "y"), [(a.pk, a.x, a.y) for a in moved])
        if self.changed_orders:
            orders = [self.orders[army_id] for army_id in sorted(self.changed_orders)]
            update_rows(MoveOrder, ("path", "status", "done_hour", "arrival_hour"),
                      [(o.pk, o.path, o.status, o.done_hour, o.arrival_hour) for o in orders])
        if self.changed_locations:
            Location.objects.bulk_update([self.locations[pk] for pk in sorted(self.changed_locations)],
                                         ["holder", "capture_progress", "capturing_army"])
        if self.activity and self.day is not None:
            self.marks = _activity_add(day_id=self.day.pk, rows=sorted(self.activity))


def _activity_add(*, day_id: int, rows: list[tuple[int, str]]) -> list[int]:
    """Mark (army id, reason) pairs as led on the Day; a pair already marked stays as it was. Returns the ids of the
    new marks (a reversal takes them back). On PostgreSQL one INSERT ... SELECT from unnest() of two arrays:
    bulk_create builds a model and a parameter list per row."""
    if connection.vendor != "postgresql":
        had = set(ArmyDayActivity.objects.filter(day_id=day_id).values_list("pk", flat=True))
        ArmyDayActivity.objects.bulk_create([ArmyDayActivity(army_id=army_id, day_id=day_id, reason=reason)
                                             for army_id, reason in rows], ignore_conflicts=True)
        return sorted(set(ArmyDayActivity.objects.filter(day_id=day_id).values_list("pk", flat=True)) - had)
    table = ArmyDayActivity._meta.db_table
    sql = (f'INSERT INTO "{table}" ("army_id", "day_id", "reason", "marked_by_id", "at") '  # noqa: S608
           'SELECT v.army_id, %s, v.reason, NULL, %s FROM unnest(%s::bigint[], %s::text[]) AS v(army_id, reason) '
           "ON CONFLICT DO NOTHING RETURNING id")
    with connection.cursor() as cursor:
        cursor.execute(sql, [day_id, timezone.now(), [r[0] for r in rows], [r[1] for r in rows]])
        return [pk for (pk,) in cursor.fetchall()]
