"""Routes per CPU second on a seeded 120 x 80 inch map of 100 and of 200 terrain polygons (so growth with the
map shows), once the map's roadmap is built: min/median of repetitions with the baseline ratio, and the CPU
seconds of the first route (which builds the roadmap).

Run from the repository root: python benchmarks/bench_routing.py
"""

import math
import random
from functools import partial

from common import REPEATS, cpu_seconds, emit, python_baseline, spread

from campaign.map.routing import plan_route
from campaign.map.terrain import TacticalMap, TerrainKind, TerrainRegion

SEED = 20240601
WIDTH, HEIGHT = 120.0, 80.0
POLYGONS = (100, 200)
ROUTES = 200
KINDS = [TerrainKind.OPEN, TerrainKind.DIFFICULT, TerrainKind.DIFFICULT, TerrainKind.CHALLENGING,
         TerrainKind.IMPASSABLE, TerrainKind.IMPASSABLE]


def seeded_map(rng: random.Random, polygons: int) -> TacticalMap:
    """`polygons` star-shaped polygons (some concave) of 5 to 8 corners, their bounding circles apart."""
    circles: list[tuple[float, float, float]] = []
    regions = []
    while len(regions) < polygons:
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


def measure(polygons: int) -> tuple[dict[str, float], dict[str, float], float]:
    """Routes per CPU second once the roadmap is built, the first route's CPU seconds (it builds the roadmap),
    min/median over `REPEATS` maps built afresh; and the mean arrival hour."""
    rng = random.Random(SEED)
    tactical_map = seeded_map(rng, polygons)
    jobs = [(free_point(rng, tactical_map), free_point(rng, tactical_map), rng.choice((2.0, 3.0, 4.0)),
             rng.random() < 0.25) for _ in range(ROUTES)]
    def route(fresh: TacticalMap, job: tuple) -> int:
        start, destination, speed, ignores = job
        return plan_route(fresh, start, destination, speed=speed, ignores_difficult=ignores).arrival_hour

    per_second, first, hours = [], [], 0.0
    for _ in range(REPEATS):
        fresh = seeded_map(random.Random(SEED), polygons)
        first.append(cpu_seconds(partial(route, fresh, jobs[0]))[0])
        seconds, each = cpu_seconds(partial(list, map(partial(route, fresh), jobs)))
        per_second.append(ROUTES / max(seconds, 1e-9))
        hours = sum(each) / ROUTES
    return spread(per_second, 1), spread(first, 4), hours


def main() -> None:
    baseline = python_baseline()
    figures = {}
    for polygons in POLYGONS:
        per_second, first, mean_hour = measure(polygons)
        ratio = per_second["median"] / baseline["median"]
        figures[f"{polygons}_polygons"] = {**per_second, "ratio_to_baseline": float(f"{ratio:.3g}"),
                                           "first_route_cpu_seconds": first,
                                           "mean_arrival_hour": round(mean_hour, 2)}
    emit({"benchmark": "routing", "clock": "cpu", "unit": "routes per CPU second", "routes": ROUTES,
          "baseline_ops_per_cpu_second": baseline, "figures": figures})


if __name__ == "__main__":
    main()
