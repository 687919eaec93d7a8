"""One in-game hour on PostgreSQL: 5,000 armies with orders under way, then 500 to show the query count stays put.

Needs DATABASE_URL pointing at PostgreSQL. Creates a throwaway database next to it (muster_bench_<pid>), migrates
it, builds a 200 x 200 inch map with forest, hills and a lake, 500 commanders with 10 armies of 4 units each, every
army ordered 12 inches east (a few pairs of enemies meet, so Battles come due too), processes one hour, and drops
the database. Prints one JSON line:
{"benchmark": "hour", "armies": 5000, "seconds": .., "queries": .., "queries_500_armies": .., ...}.
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

SIDE = 200.0
ARMIES_PER_COMMANDER = 10
REGIONS = [("Forest", "difficult", [[20, 20], [80, 20], [80, 70], [20, 70]], 0.0),
           ("Hills", "challenging", [[120, 100], [170, 100], [170, 160], [120, 160]], 2.0),
           ("Lake", "impassable", [[90, 150], [110, 150], [110, 190], [90, 190]], 0.0)]


def build(slug: str, armies: int):
    """An Event whose map holds `armies` armies of 4 units, each with a straight order 12 inches east."""
    from campaign.models import (
        Army,
        Campaign,
        Commander,
        Day,
        Event,
        MoveOrder,
        TacticalMap,
        TerrainRegion,
        Unit,
        UnitType,
    )

    campaign = Campaign.objects.create(name=slug, slug=slug)
    now = timezone.now()
    event = Event.objects.create(campaign=campaign, name="Bench", starts_at=now, ends_at=now + timedelta(days=2),
                                 status=Event.Status.RUNNING)
    Day.objects.create(event=event, number=1)
    board = TacticalMap.objects.create(campaign=campaign, width_inches=SIDE, height_inches=SIDE)
    TerrainRegion.objects.bulk_create([TerrainRegion(map=board, name=n, kind=k, points=p, penalty=pen)
                                       for n, k, p, pen in REGIONS])
    types = [UnitType.objects.create(campaign=campaign, name=f"T{i}", strength=i + 1, traits=t)
             for i, t in enumerate([[], ["Fast"], ["Slow"], ["Fly"]])]
    commanders = Commander.objects.bulk_create(
        [Commander(campaign=campaign, name=f"C{i}", level=2, power="Cleric", morale=5)
         for i in range(max(2, armies // ARMIES_PER_COMMANDER))])
    per_row = 70
    spacing = (SIDE - 20) / per_row
    placed = []
    for i in range(armies):
        x, y = 2 + (i % per_row) * spacing, 2 + (i // per_row) * spacing
        if i % 100 == 1:  # an enemy standing 2.5 inches ahead of the previous army: a Battle comes due
            x, y = placed[-1][1] + 2.5, placed[-1][2]
        placed.append((commanders[i % len(commanders)], x, y))
    army_rows = Army.objects.bulk_create([Army(campaign=campaign, commander=c, name=f"A{i}", map=board, x=x, y=y)
                                          for i, (c, x, y) in enumerate(placed)])
    Unit.objects.bulk_create([Unit(campaign=campaign, commander_id=a.commander_id, unit_type=types[(a.pk + j) % 4],
                                   strength=types[(a.pk + j) % 4].strength, army=a, state=Unit.State.IN_ARMY)
                              for a in army_rows for j in range(4)], batch_size=5_000)
    MoveOrder.objects.bulk_create([
        MoveOrder(army=a, event=event, kind="point", target_x=min(SIDE, a.x + 12), target_y=a.y,
                  path=[[a.x, a.y], [min(SIDE, a.x + 12), a.y]], waypoints=[], ordered_hour=0, arrival_hour=4)
        for i, a in enumerate(army_rows) if i % 100 != 1], batch_size=5_000)
    return event


def hour(event) -> tuple[float, int, object]:
    from campaign.map.hour import event_hour_process

    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as ctx:
        start = time.perf_counter()
        if os.environ.get("BENCH_PROFILE"):
            import cProfile
            import pstats

            profile = cProfile.Profile()
            result = profile.runcall(event_hour_process, event=event, hour=1)
            pstats.Stats(profile, stream=sys.stderr).sort_stats("cumulative").print_stats(25)
        else:
            result = event_hour_process(event=event, hour=1)
        seconds = time.perf_counter() - start
    return seconds, len(ctx.captured_queries), result


def main() -> None:
    db = settings.DATABASES["default"]
    if not db["ENGINE"].endswith("postgresql"):
        print(json.dumps({"benchmark": "hour", "skipped": "DATABASE_URL does not point at PostgreSQL"}))
        return
    db["TEST"] = {**db.get("TEST", {}), "NAME": f"muster_bench_{os.getpid()}", "CHARSET": None, "TEMPLATE": None}
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False, serialize=False)
    try:
        hour(build("warm-up", 20))  # routing's caches and content types, as in a running worker
        small_seconds, small_queries, _ = hour(build("five-hundred", 500))
        seconds, queries, result = hour(build("five-thousand", 5_000))
        print(json.dumps({
            "benchmark": "hour", "database": "postgresql", "armies": 5_000, "seconds": round(seconds, 3),
            "queries": queries, "queries_500_armies": small_queries, "seconds_500_armies": round(small_seconds, 3),
            "moved": result.moved, "battles_due": len(result.battles), "goal_seconds": 2.0,
        }))
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=False)


if __name__ == "__main__":
    main()
