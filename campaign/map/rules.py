"""The tactical map's rules as pure functions (no ORM, no Django).

Services load armies, units and locations, hand plain records here and write the results back.
The numbers are the rules' own (army-combat.txt "The Tactical Map", "Moving an Army", "Defending a
Location", "Capturing a Location", "Battles", "Morale"; RULINGS.md "Army combat: the tactical map").
Distances are inches on the map; time is whole in-game hours, one Move per hour.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

Point = tuple[float, float]
ArmyKey = int | str

BASE_SPEED = 3.0
SLOW_PENALTY = 1.0
FAST_BONUS = 1.0
MIN_SPEED = 0.5
DIFFICULT_PENALTY = 1.0
UNITS_PER_MINIATURE = 4
ROUTED_RETREAT_MOVES = 2
BATTLE_COOLDOWN_HOURS = 1
# How close (inches) an army must come to an enemy army or a defended enemy location for a Battle to be due.
DEFAULT_CONTACT_INCHES = 1.0
CAPTURE_THRESHOLDS: dict[str, int] = {"camp": 3, "town": 15, "city": 60}

SLOW = "Slow"
FAST = "Fast"
FLY = "Fly"
BURROW = "Burrow"


class MapRuleError(ValueError):
    """A map rule says no. The message is a sentence a person can act on."""


@dataclass(frozen=True)
class MapUnit:
    """What the map needs of a unit card: its Strength (None for "-"), its traits, and whether it is a Ritual."""

    strength: int | None = None
    traits: frozenset[str] = frozenset()
    is_ritual: bool = False


def _counted(units: Iterable[MapUnit]) -> list[MapUnit]:
    """Rituals are not units: they never count towards size, speed or terrain (army-combat.txt)."""
    return [unit for unit in units if not unit.is_ritual]


def _at_least_half(units: Sequence[MapUnit], traits: frozenset[str]) -> bool:
    """"Principally composed (50% or more)": an empty army is composed of nothing."""
    having = sum(1 for unit in units if unit.traits & traits)
    return bool(units) and 2 * having >= len(units)


def army_speed(units: Iterable[MapUnit]) -> float:
    """Inches per Move: 3; -1 if any unit is Slow; +1 if at least half the units are Fast; never below 0.5."""
    counted = _counted(units)
    speed = BASE_SPEED
    if any(SLOW in unit.traits for unit in counted):
        speed -= SLOW_PENALTY
    if _at_least_half(counted, frozenset({FAST})):
        speed += FAST_BONUS
    return max(MIN_SPEED, speed)


def ignores_difficult_terrain(units: Iterable[MapUnit]) -> bool:
    """An army at least half of whose units Fly or Burrow ignores difficult terrain (not especially challenging)."""
    return _at_least_half(_counted(units), frozenset({FLY, BURROW}))


def terrain_speed(speed: float, slowdown: float) -> float:
    """The army's speed inside terrain that takes `slowdown` inches off it, never below 0.5 inches per Move."""
    return max(MIN_SPEED, speed - slowdown)


def miniature_count(units: Iterable[MapUnit]) -> int:
    """One miniature per 4 units, rounding up (9 to 12 units are 3 miniatures); Rituals are not counted."""
    return math.ceil(len(_counted(units)) / UNITS_PER_MINIATURE)


def capture_threshold(size: str) -> int:
    """The default total to Capture a location: a camp 3, a town 15, a city 60 (a game master may set more)."""
    try:
        return CAPTURE_THRESHOLDS[size]
    except KeyError:
        sizes = ", ".join(CAPTURE_THRESHOLDS)
        raise MapRuleError(f"A location size is one of {sizes}: {size!r} is not; set a threshold instead.") from None


def army_capture_strength(units: Iterable[MapUnit]) -> int:
    """What one Move spent capturing adds: the summed Strength of the army's units ("-" adds nothing)."""
    return sum(unit.strength or 0 for unit in _counted(units))


@dataclass(frozen=True)
class CaptureProgress:
    """One army's Capture of one location: the total so far against the location's threshold."""

    threshold: int
    progress: int = 0

    def __post_init__(self) -> None:
        if self.threshold < 1:
            raise MapRuleError("A capture threshold must be at least 1.")
        if self.progress < 0:
            raise MapRuleError("Capture progress cannot be negative.")

    @property
    def captured(self) -> bool:
        """When the total is met, the location is Captured."""
        return self.progress >= self.threshold

    @property
    def remaining(self) -> int:
        return max(0, self.threshold - self.progress)

    def after_move(self, strength: int) -> CaptureProgress:
        """Each Move spent capturing adds the army's summed Strength."""
        if self.captured:
            raise MapRuleError("This location is already captured: no more Moves are needed.")
        if strength < 0:
            raise MapRuleError("An army's capturing Strength cannot be negative.")
        return replace(self, progress=self.progress + strength)

    def after_battle(self) -> CaptureProgress:
        """A Battle interrupts a Capture under way: it begins again from 0. A finished Capture stands."""
        return self if self.captured else replace(self, progress=0)


def retreat_position(
    *, loser: Point, winner: Point, speed: float, routed: bool, width: float, height: float
) -> Point:
    """Where a Battle's loser ends: one Move (its speed in inches) directly away from the winner, two if Routed.

    The result is clamped to the map. When both armies stand on the same point there is no "away", so
    the loser falls back towards the centre of the map (the direction with the most room), or east
    (+x) if it stands on the centre itself.
    """
    distance = speed * (ROUTED_RETREAT_MOVES if routed else 1)
    dx, dy = loser[0] - winner[0], loser[1] - winner[1]
    norm = math.hypot(dx, dy)
    if norm == 0:
        dx, dy = width / 2 - loser[0], height / 2 - loser[1]
        norm = math.hypot(dx, dy)
        if norm == 0:
            dx, dy, norm = 1.0, 0.0, 1.0
    x = loser[0] + dx / norm * distance
    y = loser[1] + dy / norm * distance
    return (min(max(x, 0.0), width), min(max(y, 0.0), height))


@dataclass(frozen=True)
class ArmyOnMap:
    """An army's marker: its key, its side (armies of different sides are enemies) and its position."""

    key: ArmyKey
    side: int | str
    position: Point


@dataclass(frozen=True)
class LocationOnMap:
    """A location and the army stationed there to defend it, if any (an undefended one is captured, not fought)."""

    key: int | str
    position: Point
    defender: ArmyKey | None = None


@dataclass(frozen=True)
class DueBattle:
    """Two armies that must fight now. At a location, `second` is the army defending it."""

    first: ArmyKey
    second: ArmyKey
    location: int | str | None = None


def pair_key(first: ArmyKey, second: ArmyKey) -> frozenset[ArmyKey]:
    """The key of `last_fought`: the two armies, in no order."""
    return frozenset((first, second))


def cooled_down(last_fought_hour: int | None, hour: int) -> bool:
    """Once a Battle has ended, a new one may not begin between the same armies for 1 hour."""
    return last_fought_hour is None or hour - last_fought_hour >= BATTLE_COOLDOWN_HOURS


def battles_due(
    *,
    armies: Sequence[ArmyOnMap],
    hour: int,
    last_fought: Mapping[frozenset[ArmyKey], int],
    locations: Sequence[LocationOnMap] = (),
    contact_distance: float = DEFAULT_CONTACT_INCHES,
) -> list[DueBattle]:
    """Every Battle due at `hour`: an army within `contact_distance` of an enemy army or of a defended enemy location.

    `last_fought` maps `pair_key(a, b)` to the hour their last Battle ended; pairs that fought less than an
    hour ago are skipped. A pair is reported once; at a location, the defender stationed there is `second`.
    An enemy-held location with no army stationed there is Captured by Moves, not fought for.
    """
    by_key = {army.key: army for army in armies}
    due: list[DueBattle] = []
    reported: set[frozenset[ArmyKey]] = set()

    def add(first: ArmyOnMap, second: ArmyOnMap, location: int | str | None) -> None:
        pair = pair_key(first.key, second.key)
        if first.side != second.side and pair not in reported and cooled_down(last_fought.get(pair), hour):
            reported.add(pair)
            due.append(DueBattle(first.key, second.key, location))

    for location in locations:
        if location.defender is None:
            continue
        if location.defender not in by_key:
            raise MapRuleError(f"The army defending location {location.key} is not on the map: place it first.")
        defender = by_key[location.defender]
        for army in armies:
            if math.dist(army.position, location.position) <= contact_distance:
                add(army, defender, location.key)
    for index, army in enumerate(armies):
        for other in armies[index + 1:]:
            if math.dist(army.position, other.position) <= contact_distance:
                add(army, other, None)
    return due
