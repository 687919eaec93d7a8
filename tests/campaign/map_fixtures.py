"""Builders for map tests: a map, commanders with armies of units standing on it."""

from __future__ import annotations

from campaign.map import armies
from campaign.map import services as map_services
from campaign.models import Army, TacticalMap
from tests.campaign.factories import ArmyFactory, CommanderFactory, UnitFactory, UnitTypeFactory, open_day


def make_map(campaign, *, width: float = 48.0, height: float = 36.0) -> TacticalMap:
    tactical_map = map_services.tactical_map_get_or_create(campaign=campaign, actor=None)
    return map_services.tactical_map_set_scale(tactical_map=tactical_map, width_inches=width, height_inches=height,
                                               actor=None)


def make_army(tactical_map: TacticalMap, *, commander=None, at=(1.0, 1.0), units: int = 4, strength: int = 2,
              traits=(), name: str | None = None, player=None) -> Army:
    commander = commander or CommanderFactory(campaign=tactical_map.campaign, player=player)
    army = ArmyFactory(commander=commander, **({"name": name} if name else {}))
    unit_type = UnitTypeFactory(strength=strength, traits=list(traits))
    for _ in range(units):
        UnitFactory(commander=commander, unit_type=unit_type, army=army)
    return armies.army_place(army=army, tactical_map=tactical_map, x=at[0], y=at[1], actor=None)


def ready(event):
    """The event with its first Day open (factories make none)."""
    open_day(event)
    return event
