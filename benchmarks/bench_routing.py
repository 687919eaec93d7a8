"""Routes per second on a seeded 120 x 80 inch map of 200 terrain polygons, once the map's roadmap is built.

Run from the repository root: python benchmarks/bench_routing.py
"""

import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from campaign.map.routing import plan_route
from campaign.map.terrain import TacticalMap, TerrainKind, TerrainRegion

SEED = 20240601
WIDTH, HEIGHT = 120.0, 80.0
POLYGONS = 200
ROUTES = 400
KINDS = [TerrainKind.OPEN, TerrainKind.DIFFICULT, TerrainKind.DIFFICULT, TerrainKind.CHALLENGING,
         TerrainKind.IMPASSABLE, TerrainKind.IMPASSABLE]


def seeded_map(rng: random.Random) -> TacticalMap:
    """200 star-shaped polygons (some concave) of 5 to 8 corners, their bounding circles apart."""
    circles: list[tuple[float, float, float]] = []
    regions = []
    while len(regions) < POLYGONS:
        r = rng.uniform(1.0, 3.5)
        x, y = rng.uniform(r, WIDTH - r), rng.uniform(r, HEIGHT - r)
        if any(math.dist((x, y), (cx, cy)) < r + cr + 0.3 for cx, cy, cr in circles):
            continue
        circles.append((x, y, r))
        corners = rng.randint(5, 8)
        angles = sorted(rng.uniform(0, 2 * math.pi) for _ in range(corners))
        points = tuple((x + r * rng.uniform(0.55, 1.0) * math.cos(a), y + r * rng.uniform(0.55, 1.0) * math.sin(a))
                       for a in angles)
        kind = rng.choice(KINDS)
        penalty = 2.0 if kind is TerrainKind.CHALLENGING else 0.0
        regions.append(TerrainRegion(f"{kind} {len(regions)}", kind, points, penalty))
    return TacticalMap(WIDTH, HEIGHT, tuple(regions))


def free_point(rng: random.Random, tactical_map: TacticalMap) -> tuple[float, float]:
    while True:
        point = (rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT))
        if tactical_map.impassable_at(point) is None:
            return point


def main() -> None:
    rng = random.Random(SEED)
    tactical_map = seeded_map(rng)
    jobs = [(free_point(rng, tactical_map), free_point(rng, tactical_map), rng.choice((2.0, 3.0, 4.0)),
             rng.random() < 0.25) for _ in range(ROUTES)]
    began = time.perf_counter()
    plan_route(tactical_map, jobs[0][0], jobs[0][1], speed=jobs[0][2], ignores_difficult=jobs[0][3])
    build_seconds = time.perf_counter() - began
    began = time.perf_counter()
    arrival_hours = 0
    for start, destination, speed, ignores in jobs:
        arrival_hours += plan_route(tactical_map, start, destination, speed=speed,
                                    ignores_difficult=ignores).arrival_hour
    elapsed = time.perf_counter() - began
    print(json.dumps({
        "benchmark": "routing",
        "polygons": POLYGONS,
        "routes": ROUTES,
        "routes_per_second": round(ROUTES / elapsed, 1),
        "first_route_seconds": round(build_seconds, 3),
        "mean_arrival_hour": round(arrival_hours / ROUTES, 2),
    }))


if __name__ == "__main__":
    main()
