"""One in-game hour on PostgreSQL: 5,000 armies with orders under way, then 500 to show the query count stays put.

Needs DATABASE_URL pointing at PostgreSQL (says so and exits 2 otherwise). Creates a throwaway database next to it
(common.throwaway_postgres), builds for each size a 200 x 200 inch map with forest, hills and a lake, commanders
with 10 armies of 4 units each, every army ordered 12 inches east (a few pairs of enemies meet, so Battles come
due too), and processes its first hour BENCH_HOUR_REPEATS times (default 3): between two, a game master reverses
the hour (campaign.map.hour_reversal, the clock paused meanwhile), which puts armies, orders and clock back, so
each run processes the same hour afresh. Wall seconds (Python and PostgreSQL in turn) and this process's CPU
seconds, min and median, and the queries. BENCH_PROFILE=1 prints a profile of the last run. Prints one JSON line.
"""

from __future__ import annotations

import os
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import emit, spread, throwaway_postgres

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from campaign.models import Membership  # noqa: E402
from campaign.models.campaigns import Role  # noqa: E402

REPEATS = int(os.environ.get("BENCH_HOUR_REPEATS", "3"))
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
    Membership.objects.create(campaign=campaign, user=get_user_model().objects.create_user(username=f"gm-{slug}"),
                              role=Role.GM)
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


def hour(event, *, profile: bool = False) -> tuple[float, float, int, object]:
    """Wall seconds, CPU seconds and queries of processing the Event's first hour."""
    from campaign.map.hour import event_hour_process

    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as ctx:
        started, cpu_started = time.perf_counter(), time.process_time()
        if profile:
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            result = profiler.runcall(event_hour_process, event=event, hour=1)
            pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(25)
        else:
            result = event_hour_process(event=event, hour=1)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return seconds, cpu, len(ctx.captured_queries), result


def reverse(event) -> None:
    """A game master reverses the Event's hour, its clock paused meanwhile: armies, orders and clock as before it."""
    from campaign.campaigns.reversals import reversible_latest
    from campaign.map.hour_reversal import hour_reverse
    from campaign.models import Event, HourLog, Reversible

    log = HourLog.objects.get(event=event, hour=1, reversed=False)
    gm = Membership.objects.get(campaign_id=event.campaign_id, role=Role.GM).user
    Event.objects.filter(pk=event.pk).update(status=Event.Status.PAUSED)
    hour_reverse(record=reversible_latest(kind=Reversible.Kind.HOUR, target_id=log.pk), actor=gm,
                 reason="Processed for the benchmark")
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    event.refresh_from_db()


def measure(armies: int) -> dict[str, object]:
    walls, cpus, queries = [], [], set()
    event = build(f"h{armies}", armies)
    for repeat in range(REPEATS):
        last = repeat == REPEATS - 1
        if repeat:
            reverse(event)
        seconds, cpu, count, result = hour(event, profile=last and bool(os.environ.get("BENCH_PROFILE")))
        walls.append(seconds)
        cpus.append(cpu)
        queries.add(count)
    return {"seconds": spread(walls, 3), "cpu_seconds": spread(cpus, 3), "queries": sorted(queries),
            "moved": result.moved, "battles_due": len(result.battles)}


def main() -> None:
    with throwaway_postgres("hour"):
        hour(build("warm-up", 20))  # routing's caches and content types, as in a running worker
        emit({"benchmark": "hour", "database": "postgresql", "repeats": REPEATS, "armies_500": measure(500),
              "armies_5000": measure(5_000), "goal_seconds_5000": 2.0})


if __name__ == "__main__":
    main()
