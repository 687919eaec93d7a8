"""Routes on the tactical map: the quickest way for an army from one point to another (pure; no Django).

Time model. An army covers its speed in inches per Move (one Move per hour). Inside difficult terrain its
speed is 1 inch lower ("reduces movement across it by 1 inch"), inside especially challenging terrain it is
lower by that region's own penalty, never below 0.5 inches per Move; an army that ignores difficult terrain
(Fly or Burrow) still pays for especially challenging terrain. The reduction applies pro rata to the
inches actually inside the terrain, so the time of a path is the sum over its pieces of length / speed
there. That makes time additive along a path (so "quickest" is well defined), and the position after
each hour is exact. Overlapping regions slow an army by the worst of them. Impassable regions are never
entered, and open regions only name ground.

Search. Each map gets a roadmap, built once and cached by value: a 4-inch lattice of points plus every
corner of every terrain polygon pushed 0.05 inches outwards, linked when within 6 inches (and along each
polygon's outline) and the straight link does not enter impassable terrain. Each link stores its inches
by terrain slowdown, so the same roadmap serves every speed. A route links start and destination into
the roadmap, runs A* on travel time (straight distance / open speed is the admissible guess), pulls the
string tight (a shortcut is taken when it is clear and no slower), and finally keeps the straight line
instead whenever it is clear and quicker. Polygon lookups go through 4-inch buckets walked cell by cell
along each segment. The roadmap is an approximation: a gap between impassable regions narrower than
0.1 inches counts as closed, and bends inside weighted terrain are only as fine as the lattice.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from campaign.map.rules import MIN_SPEED, Point, terrain_speed
from campaign.map.terrain import (
    CLEARANCE,
    EPS,
    IMPASSABLE,
    Geometry,
    TacticalMap,
    TerrainKind,
    TerrainRegion,
    _Polygon,
    map_geometry,
)

LATTICE_SPACING = 4.0
LINK_RADIUS = 6.0


@dataclass(frozen=True)
class Route:
    """A planned route: the path (start, turns, destination), its travel time and where the army stands each hour.

    `waypoints[h - 1]` is the position after Move h; the last waypoint is the destination.
    """

    path: tuple[Point, ...]
    hours: float
    waypoints: tuple[Point, ...]

    @property
    def arrival_hour(self) -> int:
        """How many Moves the army needs to arrive."""
        return len(self.waypoints)


@dataclass(frozen=True)
class Step:
    """Where an army stands after moving along a path, and the path still ahead (starting where it stands)."""

    position: Point
    remaining: tuple[Point, ...]
    blocked: bool = False

    @property
    def arrived(self) -> bool:
        return len(self.remaining) == 1 and not self.blocked


def _profile(
    pieces: list[tuple[float, float, TerrainRegion]], ignores_difficult: bool
) -> list[tuple[float, float, float]]:
    """The whole segment 0..1 as consecutive (t0, t1, slowdown) pieces; overlaps take the worst slowdown."""
    if not pieces:
        return [(0.0, 1.0, 0.0)]
    cuts = sorted({0.0, 1.0, *(p[0] for p in pieces), *(p[1] for p in pieces)})
    profile: list[tuple[float, float, float]] = []
    for t0, t1 in pairwise(cuts):
        if t1 - t0 <= EPS:
            continue
        mid = (t0 + t1) / 2
        slow = max((r.slowdown(ignores_difficult) for p0, p1, r in pieces if p0 <= mid <= p1), default=0.0)
        if profile and profile[-1][2] == slow:
            profile[-1] = (profile[-1][0], t1, slow)
        else:
            profile.append((t0, t1, slow))
    return profile


def _inches_by_slowdown(length: float, profile: list[tuple[float, float, float]]) -> tuple[tuple[float, float], ...]:
    totals: dict[float, float] = {}
    for t0, t1, slow in profile:
        totals[slow] = totals.get(slow, 0.0) + (t1 - t0) * length
    return tuple(totals.items())


def _hours(inches: tuple[tuple[float, float], ...], speed: float) -> float:
    return sum(length / terrain_speed(speed, slow) for slow, length in inches)


class _Link:
    """A segment's inches by slowdown, for an army that ignores difficult terrain and for one that does not."""

    __slots__ = ("blocked", "by_flag")

    def __init__(self, geometry: Geometry, a: Point, b: Point) -> None:
        pieces = geometry.regions_on(a, b)
        length = math.dist(a, b)
        self.by_flag = tuple(_inches_by_slowdown(length, _profile(pieces, flag)) for flag in (False, True))
        self.blocked = any(slow == IMPASSABLE for slow, _ in self.by_flag[0])

    def hours(self, speed: float, ignores_difficult: bool) -> float:
        return _hours(self.by_flag[ignores_difficult], speed)


def _outward_corners(poly: _Polygon) -> list[Point]:
    """Each corner pushed CLEARANCE outwards along the bisector of its two edges' outward normals."""
    pts = poly.region.points
    area2 = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True))
    sign = 1.0 if area2 > 0 else -1.0
    normals = []
    for _, _, fx, fy in poly.edges:
        length = math.hypot(fx, fy) or 1.0
        normals.append((sign * fy / length, -sign * fx / length))
    corners = []
    for i, (x, y) in enumerate(pts):
        nx, ny = normals[i - 1][0] + normals[i][0], normals[i - 1][1] + normals[i][1]
        norm = math.hypot(nx, ny)
        if norm < EPS:
            nx, ny, norm = normals[i][0], normals[i][1], 1.0
        corners.append((x + CLEARANCE * nx / norm, y + CLEARANCE * ny / norm))
    return corners


class _Roadmap:
    """The lattice and polygon corners of one map, with the clear links between them."""

    def __init__(self, tactical_map: TacticalMap) -> None:
        self.geometry = geometry = map_geometry(tactical_map)
        width, height = tactical_map.width, tactical_map.height
        nodes: list[Point] = []
        pairs: set[tuple[int, int]] = set()
        for poly in geometry.polygons:
            kept: list[int | None] = []
            for x, y in _outward_corners(poly):
                if 0 <= x <= width and 0 <= y <= height and geometry.impassable_at((x, y)) is None:
                    kept.append(len(nodes))
                    nodes.append((x, y))
                else:
                    kept.append(None)
            for u, v in zip(kept, kept[1:] + kept[:1], strict=True):
                if u is not None and v is not None and u != v:
                    pairs.add((min(u, v), max(u, v)))
        for x in _lattice(width):
            for y in _lattice(height):
                if geometry.impassable_at((x, y)) is None:
                    nodes.append((x, y))
        self.nodes = nodes
        self.grid = _PointGrid(nodes)
        for u, (x, y) in enumerate(nodes):
            for v in self.grid.near((x, y), LINK_RADIUS):
                if v > u:
                    pairs.add((u, v))
        self.links: list[tuple[int, int, _Link]] = []
        for u, v in sorted(pairs):
            link = _Link(geometry, nodes[u], nodes[v])
            if not link.blocked:
                self.links.append((u, v, link))
        self._adjacency: dict[tuple[float, bool], list[list[tuple[int, float]]]] = {}

    def adjacency(self, speed: float, ignores_difficult: bool) -> list[list[tuple[int, float]]]:
        """Neighbours with travel hours, for one speed and terrain flag (cached: speeds come in few values)."""
        key = (speed, ignores_difficult)
        if key not in self._adjacency:
            adjacency: list[list[tuple[int, float]]] = [[] for _ in self.nodes]
            for u, v, link in self.links:
                hours = link.hours(speed, ignores_difficult)
                adjacency[u].append((v, hours))
                adjacency[v].append((u, hours))
            self._adjacency[key] = adjacency
        return self._adjacency[key]

    def links_from(self, point: Point, speed: float, ignores_difficult: bool) -> dict[int, float]:
        """Clear links from a free point to the roadmap: nodes within LINK_RADIUS, widening until one is clear."""
        radius = LINK_RADIUS
        limit = math.hypot(self.geometry.map.width, self.geometry.map.height)
        while True:
            links = {}
            for v in self.grid.near(point, radius):
                link = _Link(self.geometry, point, self.nodes[v])
                if not link.blocked:
                    links[v] = link.hours(speed, ignores_difficult)
            if links or radius > limit:
                return links
            radius *= 2


def _lattice(extent: float) -> list[float]:
    count = max(1, round(extent / LATTICE_SPACING))
    step = extent / count
    return [step * (k + 0.5) for k in range(count)]


class _PointGrid:
    """Points bucketed by LINK_RADIUS cells, for "which points lie within r of here"."""

    def __init__(self, points: list[Point]) -> None:
        self.points = points
        self.cells: dict[tuple[int, int], list[int]] = {}
        for index, (x, y) in enumerate(points):
            self.cells.setdefault((int(x // LINK_RADIUS), int(y // LINK_RADIUS)), []).append(index)

    def near(self, point: Point, radius: float) -> list[int]:
        x, y = point
        reach = math.ceil(radius / LINK_RADIUS)
        ci, cj = int(x // LINK_RADIUS), int(y // LINK_RADIUS)
        found = []
        for i in range(ci - reach, ci + reach + 1):
            for j in range(cj - reach, cj + reach + 1):
                for index in self.cells.get((i, j), ()):
                    px, py = self.points[index]
                    if (px - x) ** 2 + (py - y) ** 2 <= radius * radius:
                        found.append(index)
        return found


@lru_cache(maxsize=16)
def _roadmap(tactical_map: TacticalMap) -> _Roadmap:
    return _Roadmap(tactical_map)


def _check_point(tactical_map: TacticalMap, point: Point, role: str) -> None:
    x, y = point
    if not (0 <= x <= tactical_map.width and 0 <= y <= tactical_map.height):
        raise ValueError(
            f"That point is off the map ({tactical_map.width:g} x {tactical_map.height:g} inches): choose one on it."
        )
    region = tactical_map.impassable_at(point)
    if region is not None:
        if role == "start":
            raise ValueError(f"The army stands inside impassable terrain ({region.name}): move it out before routing.")
        raise ValueError(f"That point is inside impassable terrain ({region.name}): choose a point outside it.")


def _search(roadmap: _Roadmap, start: Point, destination: Point, speed: float, ignores: bool) -> list[Point] | None:
    """A* on travel hours over the roadmap plus the start (node n) and the destination (node n + 1)."""
    nodes = roadmap.nodes
    n = len(nodes)
    source, target = n, n + 1
    adjacency = roadmap.adjacency(speed, ignores)
    from_start = roadmap.links_from(start, speed, ignores)
    to_end = roadmap.links_from(destination, speed, ignores)
    points = [*nodes, start, destination]
    dest_x, dest_y = destination
    best = {source: 0.0}
    came_from: dict[int, int] = {}
    queue = [(math.dist(start, destination) / speed, 0.0, source)]
    while queue:
        _, cost, u = heapq.heappop(queue)
        if u == target:
            path = [destination]
            while u != source:
                u = came_from[u]
                path.append(points[u])
            return path[::-1]
        if cost > best.get(u, math.inf):
            continue
        neighbours = from_start.items() if u == source else adjacency[u]
        extra = [(target, to_end[u])] if u in to_end else []
        for v, hours in [*neighbours, *extra]:
            new_cost = cost + hours
            if new_cost < best.get(v, math.inf):
                best[v] = new_cost
                came_from[v] = u
                vx, vy = points[v]
                heapq.heappush(queue, (new_cost + math.hypot(vx - dest_x, vy - dest_y) / speed, new_cost, v))
    return None


def _segment_hours(geometry: Geometry, a: Point, b: Point, speed: float, ignores: bool) -> float:
    link = _Link(geometry, a, b)
    return math.inf if link.blocked else link.hours(speed, ignores)


def _pull_tight(geometry: Geometry, path: list[Point], speed: float, ignores: bool) -> list[Point]:
    """Shortcut from each kept point to the farthest later point whose straight link is clear and no slower."""
    hours = [_segment_hours(geometry, a, b, speed, ignores) for a, b in pairwise(path)]
    tight = [path[0]]
    i = 0
    while i < len(path) - 1:
        j, along = i + 1, hours[i]
        while j + 1 < len(path):
            along += hours[j]
            if _segment_hours(geometry, path[i], path[j + 1], speed, ignores) > along + EPS:
                break
            j += 1
        tight.append(path[j])
        i = j
    return tight


def path_hours(tactical_map: TacticalMap, path: Sequence[Point], *, speed: float, ignores_difficult: bool) -> float:
    """The travel time of a path in hours (infinite if it enters impassable terrain)."""
    geometry = map_geometry(tactical_map)
    return sum(_segment_hours(geometry, a, b, speed, ignores_difficult) for a, b in pairwise(path))


def path_moves(tactical_map: TacticalMap, path: Sequence[Point], *, speed: float, ignores_difficult: bool
               ) -> int | None:
    """How many Moves an army needs to walk a path to its end (None if it enters impassable terrain): the same
    count plan_route gives as a route's arrival hour, for a route already under way."""
    hours = path_hours(tactical_map, path, speed=speed, ignores_difficult=ignores_difficult)
    return None if hours == math.inf else math.ceil(hours - EPS)


def plan_route(
    tactical_map: TacticalMap, start: Point, destination: Point, *, speed: float, ignores_difficult: bool = False
) -> Route:
    """The quickest route the roadmap finds from start to destination; never through impassable terrain."""
    if speed < MIN_SPEED:
        raise ValueError(f"An army's speed is at least {MIN_SPEED:g} inches per Move.")
    start = (float(start[0]), float(start[1]))
    destination = (float(destination[0]), float(destination[1]))
    _check_point(tactical_map, start, "start")
    _check_point(tactical_map, destination, "destination")
    if math.dist(start, destination) <= EPS:
        return Route(path=(start,), hours=0.0, waypoints=())
    geometry = map_geometry(tactical_map)
    found = _search(_roadmap(tactical_map), start, destination, speed, ignores_difficult)
    candidates = [[start, destination]]
    if found is not None:
        candidates.append(_pull_tight(geometry, found, speed, ignores_difficult))
    timed = [(path_hours(tactical_map, p, speed=speed, ignores_difficult=ignores_difficult), p) for p in candidates]
    hours, path = min(timed, key=lambda pair: (pair[0], len(pair[1])))
    if hours == math.inf:
        raise ValueError("No route reaches that point: impassable terrain blocks every way there.")
    waypoints = []
    step = Step(start, tuple(path))
    while not step.arrived:
        step = advance(step.remaining, speed=speed, ignores_difficult=ignores_difficult, tactical_map=tactical_map)
        if step.blocked:
            raise ValueError("No route reaches that point: impassable terrain blocks every way there.")
        waypoints.append(step.position)
    return Route(path=tuple(path), hours=hours, waypoints=tuple(waypoints))


def _pieces(path: Sequence[Point], speed: float, tactical_map: TacticalMap, ignores_difficult: bool):
    """The walk along `path` in pieces of one terrain each: (leg index, leg start, leg end, where the piece
    starts and ends along the leg as fractions, inches per hour there (0 when impassable), hours to cross it)."""
    geometry = map_geometry(tactical_map)
    for k, (a, b) in enumerate(pairwise(path)):
        length = math.dist(a, b)
        if length <= EPS:
            continue
        for t0, t1, slow in _profile(geometry.regions_on(a, b), ignores_difficult):
            rate = 0.0 if slow == IMPASSABLE else terrain_speed(speed, slow)
            yield k, a, b, t0, t1, rate, (math.inf if rate == 0.0 else (t1 - t0) * length / rate)


def advance(
    path: Sequence[Point],
    *,
    speed: float,
    tactical_map: TacticalMap,
    ignores_difficult: bool = False,
    hours: float = 1.0,
) -> Step:
    """Move an army along a stored path for `hours` (one Move by default), terrain slowing it as it goes.

    This is the same walk that produced the route's waypoints. If the map changed and the path now enters
    impassable terrain, the army halts at its edge and the step says `blocked`: plan a new route.
    """
    budget = hours
    for k, a, b, t0, _, rate, need in _pieces(path, speed, tactical_map, ignores_difficult):
        if need <= budget + EPS:
            budget -= need
            continue
        t = t0 + budget * rate / math.dist(a, b)
        position = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
        return Step(position, (position, *path[k + 1:]), blocked=rate == 0.0)
    end = path[-1]
    return Step(end, (end,))


def march(
    path: Sequence[Point],
    *,
    speed: float,
    tactical_map: TacticalMap,
    ignores_difficult: bool = False,
    hours: float,
) -> tuple[Step, tuple[Point, ...]]:
    """Where an army marching along a stored path stands after `hours` Moves if nothing stops it (advance() over
    several hours at once: the walk is additive, so k Moves at once end where k single Moves do), and the way it
    walked there: the path's turns passed and where it stands."""
    step = advance(path, speed=speed, tactical_map=tactical_map, ignores_difficult=ignores_difficult, hours=hours)
    passed = [(p[0], p[1]) for p in path[:len(path) - len(step.remaining) + 1]]  # the turns before where it stands
    return step, (*passed, step.position) if math.dist(passed[-1], step.position) > EPS else tuple(passed)


def timed_walk(
    path: Sequence[Point],
    *,
    speed: float,
    tactical_map: TacticalMap,
    ignores_difficult: bool = False,
    hours: float = 1.0,
) -> tuple[tuple[float, Point], ...]:
    """Where an army walking `path` for `hours` is over time: (time in hours, point) at the start, at every turn
    or change of terrain, and where it stops (it stands there for the rest of the hour). The same walk as
    advance(), so its last point is advance()'s position; between two points the army moves in a straight
    line at a steady pace."""
    clock, timeline = 0.0, [(0.0, (path[0][0], path[0][1]))]
    for _, a, b, t0, t1, rate, need in _pieces(path, speed, tactical_map, ignores_difficult):
        if need > hours - clock + EPS:
            t = t0 + (hours - clock) * rate / math.dist(a, b)
            timeline.append((hours, (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))))
            break
        clock += need
        timeline.append((clock, (b[0], b[1]) if t1 >= 1.0 else (a[0] + t1 * (b[0] - a[0]),
                                                                      a[1] + t1 * (b[1] - a[1]))))
    return tuple(timeline)


def stop_before_impassable(tactical_map: TacticalMap, start: Point, end: Point) -> Point:
    """The farthest point on the straight line start-end short of impassable terrain (a retreat halts at a shore)."""
    geometry = map_geometry(tactical_map)
    length = math.dist(start, end)
    if length <= EPS:
        return end
    entries = [t0 for t0, _, r in geometry.regions_on(start, end) if r.kind is TerrainKind.IMPASSABLE]
    if not entries:
        return end
    t = max(0.0, min(entries) - CLEARANCE / length)
    return (start[0] + t * (end[0] - start[0]), start[1] + t * (end[1] - start[1]))
