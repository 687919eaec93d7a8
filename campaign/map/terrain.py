"""The map as the pure rules see it: terrain kinds, regions, the map's extent, and the polygon lookups
(by 4-inch buckets) that routing and the clock use. No Django.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from itertools import pairwise

from campaign.map.rules import DIFFICULT_PENALTY, Point

CLEARANCE = 0.05


BUCKET_SIZE = 4.0
EPS = 1e-9
IMPASSABLE = math.inf


class TerrainKind(StrEnum):
    OPEN = "open"
    DIFFICULT = "difficult"
    CHALLENGING = "challenging"
    IMPASSABLE = "impassable"


@dataclass(frozen=True)
class TerrainRegion:
    """A terrain polygon in inches. Especially challenging terrain sets its own `penalty` (inches of speed lost)."""

    name: str
    kind: TerrainKind
    points: tuple[Point, ...]
    penalty: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", TerrainKind(self.kind))
        object.__setattr__(self, "points", tuple((float(x), float(y)) for x, y in self.points))
        if len(self.points) < 3:
            raise ValueError(f"Terrain {self.name} needs at least three corners.")
        if self.kind is TerrainKind.CHALLENGING and self.penalty <= 0:
            raise ValueError(f"Especially challenging terrain ({self.name}) needs a penalty above 0 inches.")
        if self.kind is not TerrainKind.CHALLENGING and self.penalty:
            raise ValueError(f"Only especially challenging terrain sets its own penalty; {self.name} is {self.kind}.")

    def slowdown(self, ignores_difficult: bool) -> float:
        """Inches of speed an army loses inside this region (infinite: it cannot enter)."""
        if self.kind is TerrainKind.IMPASSABLE:
            return IMPASSABLE
        if self.kind is TerrainKind.DIFFICULT:
            return 0.0 if ignores_difficult else DIFFICULT_PENALTY
        return self.penalty


@dataclass(frozen=True)
class TacticalMap:
    """A map of width x height inches, origin at a corner, with its terrain regions."""

    width: float
    height: float
    regions: tuple[TerrainRegion, ...] = ()

    def __post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0:
            raise ValueError("A map needs a width and a height above 0 inches.")
        object.__setattr__(self, "regions", tuple(self.regions))

    def impassable_at(self, point: Point) -> TerrainRegion | None:
        """The impassable region that contains `point`, if any."""
        return map_geometry(self).impassable_at(point)


@dataclass
class _Polygon:
    region: TerrainRegion
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    edges: tuple[tuple[float, float, float, float], ...]
    bbox: tuple[float, float, float, float]


def _polygon(region: TerrainRegion) -> _Polygon:
    pts = region.points
    xs = tuple(p[0] for p in pts)
    ys = tuple(p[1] for p in pts)
    edges = tuple(
        (x, y, pts[(i + 1) % len(pts)][0] - x, pts[(i + 1) % len(pts)][1] - y) for i, (x, y) in enumerate(pts)
    )
    return _Polygon(region, xs, ys, edges, (min(xs), min(ys), max(xs), max(ys)))


def _inside(poly: _Polygon, x: float, y: float) -> bool:
    """Even-odd ray casting."""
    xs, ys = poly.xs, poly.ys
    inside = False
    j = len(xs) - 1
    for i in range(len(xs)):
        yi, yj = ys[i], ys[j]
        if (yi > y) != (yj > y) and x < xs[i] + (y - yi) * (xs[j] - xs[i]) / (yj - yi):
            inside = not inside
        j = i
    return inside


def _inside_spans(poly: _Polygon, ax: float, ay: float, dx: float, dy: float) -> list[tuple[float, float]]:
    """The parameter intervals (t0, t1) of the segment a + t*d, 0 <= t <= 1, that lie inside the polygon."""
    cuts = [0.0, 1.0]
    for ex, ey, fx, fy in poly.edges:
        denom = dx * fy - dy * fx
        if denom == 0.0:
            continue
        qx, qy = ex - ax, ey - ay
        t = (qx * fy - qy * fx) / denom
        u = (qx * dy - qy * dx) / denom
        if -EPS <= t <= 1 + EPS and -EPS <= u <= 1 + EPS:
            cuts.append(min(1.0, max(0.0, t)))
    cuts.sort()
    spans: list[tuple[float, float]] = []
    for t0, t1 in pairwise(cuts):
        if t1 - t0 <= EPS:
            continue
        mid = (t0 + t1) / 2
        if _inside(poly, ax + mid * dx, ay + mid * dy):
            if spans and spans[-1][1] >= t0 - EPS:
                spans[-1] = (spans[-1][0], t1)
            else:
                spans.append((t0, t1))
    return spans


class Geometry:
    """The map's polygons with a bucket grid for segment and point queries."""

    def __init__(self, tactical_map: TacticalMap) -> None:
        self.map = tactical_map
        self.polygons = [_polygon(r) for r in tactical_map.regions if r.kind is not TerrainKind.OPEN]
        self.buckets: dict[tuple[int, int], list[int]] = {}
        for index, poly in enumerate(self.polygons):
            x0, y0, x1, y1 = poly.bbox
            for i in range(int((x0 - CLEARANCE) // BUCKET_SIZE), int((x1 + CLEARANCE) // BUCKET_SIZE) + 1):
                for j in range(int((y0 - CLEARANCE) // BUCKET_SIZE), int((y1 + CLEARANCE) // BUCKET_SIZE) + 1):
                    self.buckets.setdefault((i, j), []).append(index)

    def _cells(self, ax: float, ay: float, bx: float, by: float) -> Iterator[tuple[int, int]]:
        """The bucket cells a segment passes through (a grid walk, Amanatides and Woo)."""
        i, j = int(ax // BUCKET_SIZE), int(ay // BUCKET_SIZE)
        i_end, j_end = int(bx // BUCKET_SIZE), int(by // BUCKET_SIZE)
        yield i, j
        steps = abs(i_end - i) + abs(j_end - j)
        if not steps:
            return
        dx, dy = bx - ax, by - ay
        step_i, step_j = (1 if dx > 0 else -1), (1 if dy > 0 else -1)
        t_dx = BUCKET_SIZE / abs(dx) if dx else math.inf
        t_dy = BUCKET_SIZE / abs(dy) if dy else math.inf
        t_x = ((i + (dx > 0)) * BUCKET_SIZE - ax) / dx if dx else math.inf
        t_y = ((j + (dy > 0)) * BUCKET_SIZE - ay) / dy if dy else math.inf
        for _ in range(steps):
            if (t_x < t_y and i != i_end) or j == j_end:
                i += step_i
                t_x += t_dx
            else:
                j += step_j
                t_y += t_dy
            yield i, j

    def _candidates(self, a: Point, b: Point) -> set[int]:
        found: set[int] = set()
        buckets = self.buckets
        for cell in self._cells(a[0], a[1], b[0], b[1]):
            hits = buckets.get(cell)
            if hits:
                found.update(hits)
        return found

    def regions_at(self, point: Point) -> list[TerrainRegion]:
        """The terrain regions (not open ground) that contain `point`."""
        x, y = point
        return [poly.region for index in self.buckets.get((int(x // BUCKET_SIZE), int(y // BUCKET_SIZE)), ())
                if _inside(poly := self.polygons[index], x, y)]

    def impassable_at(self, point: Point) -> TerrainRegion | None:
        return next((r for r in self.regions_at(point) if r.kind is TerrainKind.IMPASSABLE), None)

    def regions_on(self, a: Point, b: Point) -> list[tuple[float, float, TerrainRegion]]:
        """Each piece (t0, t1) of the segment a-b that lies inside a terrain region, with that region."""
        ax, ay = a
        dx, dy = b[0] - ax, b[1] - ay
        lo_x, hi_x = min(ax, b[0]), max(ax, b[0])
        lo_y, hi_y = min(ay, b[1]), max(ay, b[1])
        pieces: list[tuple[float, float, TerrainRegion]] = []
        for index in self._candidates(a, b):
            poly = self.polygons[index]
            x0, y0, x1, y1 = poly.bbox
            if x0 > hi_x or x1 < lo_x or y0 > hi_y or y1 < lo_y:
                continue
            pieces.extend((t0, t1, poly.region) for t0, t1 in _inside_spans(poly, ax, ay, dx, dy))
        return pieces


@lru_cache(maxsize=32)
def map_geometry(tactical_map: TacticalMap) -> Geometry:
    return Geometry(tactical_map)
