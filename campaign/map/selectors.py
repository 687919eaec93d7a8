"""Reads for the tactical map. Fog of war is applied here, on the server: a player's view holds their own
armies, the terrain, the locations and what a game master revealed to their commanders; nothing else, not
even the id of an army they may not see. A game master sees everything.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet, TextField
from django.db.models.functions import Cast

from campaign.map import rules, terrain
from campaign.models import (
    Army,
    Base,
    Campaign,
    Commander,
    DueBattle,
    Event,
    HourLog,
    Location,
    Membership,
    MoveOrder,
    Reveal,
    TacticalMap,
    TerrainRegion,
    UnitRole,
)
from campaign.models import Unit as UnitModel


def tactical_map_for(*, campaign: Campaign | int) -> TacticalMap | None:
    campaign_id = campaign.pk if isinstance(campaign, Campaign) else campaign
    return TacticalMap.objects.filter(campaign_id=campaign_id).first()


def tactical_map_rules(*, tactical_map: TacticalMap, regions: Iterable[TerrainRegion] | None = None
                       ) -> terrain.TacticalMap:
    """The pure map the routing works on. Equal maps are equal values, so routing's caches are shared."""
    if regions is None:
        regions = tactical_map.regions.order_by("id")
    return terrain.TacticalMap(
        width=tactical_map.width_inches, height=tactical_map.height_inches,
        regions=tuple(terrain.TerrainRegion(name=r.name, kind=terrain.TerrainKind(r.kind),
                                            points=tuple(tuple(p) for p in r.points), penalty=r.penalty)
                      for r in regions))


def terrain_at(*, tactical_map: TacticalMap, x: float, y: float) -> list[terrain.TerrainRegion]:
    """The terrain regions (not open ground) at a point of the map, by the same polygons the routing uses."""
    return terrain.map_geometry(tactical_map_rules(tactical_map=tactical_map)).regions_at((x, y))


def army_map_units(*, army_ids: Iterable[int] | None = None, tactical_map: TacticalMap | None = None
                   ) -> dict[int, list[rules.MapUnit]]:
    """Each army's units as the map rules see them (Strength, traits, Ritual), in one query: of the armies
    named, or of every army on a map. Units alike share one MapUnit (it is frozen): the query counts them per
    army (a row per army and kind of unit, not per unit), traits come as text and each distinct text is parsed
    once; it is unordered (the Unit model's ordering would join commanders and campaigns only to sort by their
    names)."""
    by_army: dict[int, list[rules.MapUnit]] = defaultdict(list)
    alike: dict[tuple, rules.MapUnit] = {}
    units = UnitModel.objects.filter(state=UnitModel.State.IN_ARMY).order_by()
    if tactical_map is not None:
        units = units.filter(army__map=tactical_map)
    elif army_ids is not None:
        units = units.filter(army_id__in=list(army_ids))
    else:
        raise TypeError("army_map_units() needs army_ids or tactical_map")
    rows = (units.values_list("army_id", "strength", Cast("unit_type__traits", TextField()), "unit_type__role")
            .annotate(alike=Count("pk")))
    for army_id, strength, traits, role, count in rows:
        key = (strength, traits, role)
        unit = alike.get(key)
        if unit is None:
            unit = alike[key] = rules.MapUnit(strength=strength, traits=frozenset(json.loads(traits or "[]")),
                                              is_ritual=role == UnitRole.RITUAL)
        by_army[army_id].extend([unit] * count)
    return by_army


def map_event(*, campaign: Campaign | int) -> Event | None:
    """The Event whose clock moves the map: the running one, else a paused one, else the next planned one."""
    campaign_id = campaign.pk if isinstance(campaign, Campaign) else campaign
    events = Event.objects.filter(campaign_id=campaign_id).exclude(status=Event.Status.CLOSED)
    for status in (Event.Status.RUNNING, Event.Status.PAUSED, Event.Status.PLANNED):
        event = events.filter(status=status).order_by("starts_at", "id").first()
        if event is not None:
            return event
    return None


def own_commander_ids(*, membership: Membership) -> set[int]:
    return set(Commander.objects.filter(campaign_id=membership.campaign_id, player_id=membership.user_id)
               .values_list("pk", flat=True))


def armies_visible_to(*, membership: Membership) -> QuerySet[Army]:
    """The armies a member may know of, by name and commander (fog of war, as the map shows them): a game master
    every army of the campaign; a player their own commanders' armies and those a game master revealed to one
    of them (a position or a size). Every page and endpoint that names armies asks here."""
    armies = Army.objects.filter(campaign_id=membership.campaign_id)
    if membership.is_gm:
        return armies
    own = Commander.objects.filter(campaign_id=membership.campaign_id, player_id=membership.user_id)
    return armies.filter(Q(commander__in=own) | Q(reveals__to_commander__in=own)).distinct()


@dataclass
class ArmyMarker:
    """One army as a viewer may see it. `own` armies carry their order; revealed ones only what was shown."""

    id: int
    name: str
    commander: str
    commander_id: int
    x: float
    y: float
    miniatures: int | None
    own: bool
    as_of_hour: int | None = None
    order_id: int | None = None
    order_kind: str = ""
    path: list = field(default_factory=list)
    arrival_hour: int | None = None
    destination: str = ""

    @property
    def route_points(self) -> str:
        """The route still ahead as SVG points, from where the army stands."""
        return svg_points([(self.x, self.y), *self.path[1:]]) if len(self.path) > 1 else ""

    @property
    def route_end(self) -> tuple[float, float] | None:
        return tuple(self.path[-1]) if len(self.path) > 1 else None


def svg_points(points) -> str:
    return " ".join(f"{x:.3f},{y:.3f}" for x, y in points)


@dataclass
class MapView:
    tactical_map: TacticalMap
    event: Event | None
    is_gm: bool
    regions: list[TerrainRegion]
    locations: list[Location]
    bases: list[Base]
    armies: list[ArmyMarker]
    due_battles: list[dict]

    @property
    def hour(self) -> int:
        return self.event.current_hour if self.event else 0


_ORDER_FIELDS = ("army_id", "pk", "kind", "path", "arrival_hour", "target_x", "target_y", "target_location__name",
                 "target_army_id", "target_army__name")


def _destination(order: dict, seen: set[int]) -> str:
    """Where an order (a row of _ORDER_FIELDS) goes, in words: a location's name, a point, or an army the viewer
    can see (an army hidden from them, as when a game master gave the order, stays unnamed)."""
    if order["target_location__name"] is not None:
        return order["target_location__name"]
    if order["kind"] == MoveOrder.Kind.ARMY:
        return order["target_army__name"] if order["target_army_id"] in seen else "an enemy army"
    return f"the point ({order['target_x']:.1f}, {order['target_y']:.1f})"


def map_view(*, tactical_map: TacticalMap, membership: Membership, reveals_until_hour: int | None = None) -> MapView:
    """Everything the member may see on the map, in a constant number of queries. Armies and orders are read
    as rows, not models: a game master's map may hold thousands. `reveals_until_hour`: only what was revealed as
    of that hour or before (the map of a past hour shows what the player had been shown by then)."""
    is_gm = membership.is_gm
    event = map_event(campaign=tactical_map.campaign_id)
    regions = list(tactical_map.regions.order_by("id"))
    for region in regions:
        region.svg_points = svg_points(region.points)
    locations = list(tactical_map.locations.select_related("holder").order_by("name"))
    bases = list(tactical_map.bases.select_related("location").order_by("name"))
    own_ids = set() if is_gm else own_commander_ids(membership=membership)
    armies_qs = Army.objects.filter(map=tactical_map).order_by("pk")
    orders_qs = MoveOrder.objects.filter(army__map=tactical_map, status=MoveOrder.Status.ACTIVE).order_by()
    if not is_gm:
        armies_qs = armies_qs.filter(commander_id__in=own_ids)
        orders_qs = orders_qs.filter(army__commander_id__in=own_ids)
    shown = list(armies_qs.values_list("pk", "name", "commander__name", "commander_id", "x", "y"))
    units = (army_map_units(tactical_map=tactical_map) if is_gm
             else army_map_units(army_ids=[army_id for army_id, *_ in shown]))
    orders = {o["army_id"]: o for o in orders_qs.values(*_ORDER_FIELDS)}
    markers = []
    for army_id, name, commander, commander_id, x, y in shown:
        order = orders.get(army_id)
        markers.append(ArmyMarker(
            id=army_id, name=name, commander=commander, commander_id=commander_id, x=x, y=y,
            miniatures=rules.miniature_count(units.get(army_id, ())), own=is_gm or commander_id in own_ids,
            order_id=order["pk"] if order else None, order_kind=order["kind"] if order else "",
            path=order["path"] if order else [], arrival_hour=order["arrival_hour"] if order else None))
    if not is_gm:
        markers.extend(_revealed_markers(tactical_map=tactical_map, own_ids=own_ids, until_hour=reveals_until_hour))
    seen = {marker.id for marker in markers}
    for marker in markers:
        if (order := orders.get(marker.id)) is not None and marker.own:
            marker.destination = _destination(order, seen)
    return MapView(tactical_map=tactical_map, event=event, is_gm=is_gm, regions=regions, locations=locations,
                   bases=bases, armies=markers,
                   due_battles=due_battles_for(event=event, is_gm=is_gm, own_ids=own_ids) if event else [])


def _revealed_markers(*, tactical_map: TacticalMap, own_ids: set[int], until_hour: int | None = None
                      ) -> list[ArmyMarker]:
    """The latest position and size a game master revealed of each other army to one of my commanders (as of
    `until_hour` or before, when given)."""
    latest: dict[int, dict[str, Reveal]] = defaultdict(dict)
    reveals = Reveal.objects.filter(to_commander_id__in=own_ids, army__map=tactical_map)
    if until_hour is not None:
        reveals = reveals.filter(hour__lte=until_hour)
    for reveal in (reveals.exclude(army__commander_id__in=own_ids).select_related("army__commander")
                   .order_by("created_at", "id")):
        latest[reveal.army_id][reveal.what] = reveal
    markers = []
    for army_id, shown in sorted(latest.items()):
        position = shown.get(Reveal.What.POSITION)
        if position is None:
            continue  # a size without a place is listed, not drawn
        size = shown.get(Reveal.What.SIZE)
        army = position.army
        x, y = _revealed_position(position)
        markers.append(ArmyMarker(id=army_id, name=army.name, commander=army.commander.name,
                                  commander_id=army.commander_id, x=x, y=y,
                                  miniatures=size.miniatures if size else None, own=False,
                                  as_of_hour=position.hour))
    return markers


def army_seen_position(*, membership: Membership, army: Army) -> tuple[float, float] | None:
    """Where the member can see the army: anywhere for a GM or its own player, else its latest revealed position."""
    if army.map_id is None:
        return None
    if membership.is_gm or army.commander_id in own_commander_ids(membership=membership):
        return (army.x, army.y)
    reveal = (Reveal.objects.filter(army=army, what=Reveal.What.POSITION,
                                    to_commander__player_id=membership.user_id).order_by("-created_at", "-id").first())
    return _revealed_position(reveal) if reveal else None


def _revealed_position(reveal: Reveal) -> tuple[float, float]:
    """Where a position reveal shows the army: reveal_create writes x and y on every position reveal."""
    if reveal.x is None or reveal.y is None:
        raise RuntimeError(f"Position reveal {reveal.pk} has no x or no y.")
    return (reveal.x, reveal.y)


def due_battles_for(*, event: Event, is_gm: bool, own_ids: set[int], status: str = DueBattle.Status.DUE
                    ) -> list[dict]:
    """Battles due. A player sees only those of their armies, and not which enemy army it is."""
    rows = DueBattle.objects.filter(event=event, status=status).select_related(
        "first__commander", "second__commander", "location", "claimed_by").order_by("hour", "id")
    result = []
    for battle in rows:
        armies = (battle.first, battle.second)
        if is_gm:
            result.append({"id": battle.pk, "hour": battle.hour, "location": battle.location,
                           "armies": [f"{a.name} ({a.commander.name})" for a in armies],
                           "sides": [(a.pk, a.name) for a in armies], "fought_hour": battle.fought_hour,
                           "claimed_by": battle.claimed_by, "claimed_at": battle.claimed_at})
            continue
        mine = [a for a in armies if a.commander_id in own_ids]
        if mine:
            result.append({"id": battle.pk, "hour": battle.hour, "location": battle.location,
                           "armies": [mine[0].name], "sides": [(mine[0].pk, mine[0].name)],
                           "fought_hour": battle.fought_hour})
    return result


def orderable_armies(*, membership: Membership, tactical_map: TacticalMap) -> list[Army]:
    """The armies on the map the member may give orders to (a GM: all of them)."""
    qs = Army.objects.filter(map=tactical_map).select_related("commander").order_by("name", "pk")
    return list(qs if membership.is_gm else qs.filter(commander__player_id=membership.user_id))


def hour_logs(*, event: Event, limit: int = 48) -> list[HourLog]:
    return list(HourLog.objects.filter(event=event).order_by("-hour", "-id")[:limit])


def contact(a: tuple[float, float], b: tuple[float, float], inches: float) -> bool:
    return math.dist(a, b) <= inches


def due_battles_open_count(*, campaign) -> int:
    """Battles come due on the map and not yet fought or cancelled."""
    return DueBattle.objects.filter(event__campaign=campaign, status=DueBattle.Status.DUE).count()


@dataclass
class ArmyRoster:
    """An army with its units as its commander sees it: where it stands, its miniatures and its speed."""

    army: Army
    units: list[UnitModel]
    miniatures: int
    speed: float

    @property
    def on_map(self) -> bool:
        return self.army.map_id is not None


@dataclass
class CommanderRoster:
    """A commander's armies and the units in reserve that could form a new one."""

    commander: Commander
    armies: list[ArmyRoster]
    reserve: list[UnitModel]


def _map_unit(unit: UnitModel) -> rules.MapUnit:
    return rules.MapUnit(strength=unit.strength, traits=frozenset(unit.unit_type.traits or ()),
                         is_ritual=unit.unit_type.role == UnitRole.RITUAL)


def army_rosters(*, armies: Iterable[Army]) -> list[ArmyRoster]:
    """The armies given, each with its units, miniatures and speed, in one query for all their units."""
    armies = list(armies)
    units: dict[int, list[UnitModel]] = defaultdict(list)
    for unit in (UnitModel.objects.filter(army_id__in=[a.pk for a in armies], state=UnitModel.State.IN_ARMY)
                 .select_related("unit_type").order_by("pk")):
        army_id = unit.army_id
        if army_id is None:  # army_id__in above matches no unit outside an army
            raise RuntimeError(f"Unit {unit.pk} is in no army.")
        units[army_id].append(unit)
    rosters = []
    for army in armies:
        pure = [_map_unit(u) for u in units[army.pk]]
        rosters.append(ArmyRoster(army=army, units=units[army.pk], miniatures=rules.miniature_count(pure),
                                  speed=rules.army_speed(pure)))
    return rosters


def units_led_by(commander: Commander | int) -> QuerySet[UnitModel]:
    """The units whose army places this commander decides: their own not lent out, and those lent to them."""
    return UnitModel.objects.filter(Q(commander=commander, lent_to__isnull=True) | Q(lent_to=commander))


def commander_rosters(*, commanders: Iterable[Commander]) -> list[CommanderRoster]:
    """Each commander's armies (by name) and units in reserve, in a constant number of queries."""
    commanders = list(commanders)
    armies = army_rosters(armies=Army.objects.filter(commander__in=commanders).select_related("map")
                          .order_by("commander_id", "name", "pk"))
    reserve: dict[int, list[UnitModel]] = defaultdict(list)
    for unit in (UnitModel.objects.filter(Q(commander__in=commanders, lent_to__isnull=True)
                                          | Q(lent_to__in=commanders), state=UnitModel.State.RESERVE)
                 .select_related("unit_type", "commander").order_by("pk")):
        reserve[unit.leader_id].append(unit)
    return [CommanderRoster(commander=c, armies=[r for r in armies if r.army.commander_id == c.pk],
                            reserve=reserve[c.pk]) for c in commanders]
