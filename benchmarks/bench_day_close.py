"""Closing a Day on PostgreSQL: 100 and 1,000 commanders with 20 units each, every army led that Day.

Needs DATABASE_URL pointing at PostgreSQL (it says so and exits 2 otherwise). Creates a throwaway database
next to it (muster_bench_<pid>), migrates it, builds the data (grants go through the ledger), closes the
Day BENCH_REPEATS times at each size (a fresh campaign each time), and drops the database.

The figures: wall seconds (the close is Python and PostgreSQL working in turn, so wall time is what a GM
waits) and this process's CPU seconds, min and median; the queries per close at both sizes (they must
not grow; the two COPY statements are not among them); and, measured in the same run as the baseline,
the floor: COPYing the same number of five-integer rows into a scratch table and committing.
Prints one JSON line.
"""

from __future__ import annotations

import os
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from common import REPEATS, emit, spread, throwaway_postgres  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

UNITS_PER_COMMANDER = 20
STRENGTHS = [(1, []), (2, []), (3, []), (0, []), (2, ["Undead"]), (None, []), (4, []), (5, [])]


def build(campaign_name: str, commanders: int):
    """A campaign whose open Day has `commanders` commanders, each with one army of 20 units led that Day."""
    from campaign.economy import ledger as economy_ledger
    from campaign.models import Army, ArmyDayActivity, Campaign, Commander, Day, Event, Unit, UnitType

    campaign = Campaign.objects.create(name=campaign_name, slug=campaign_name.lower().replace(" ", "-"))
    now = timezone.now()
    event = Event.objects.create(campaign=campaign, name="Bench", starts_at=now, ends_at=now + timedelta(days=2))
    day = Day.objects.create(event=event, number=1)
    types = [UnitType.objects.create(campaign=campaign, name=f"T{i}", strength=s, traits=t)
             for i, (s, t) in enumerate(STRENGTHS)]
    people = Commander.objects.bulk_create(
        [Commander(campaign=campaign, name=f"Commander {i}", level=i % 10, power="Cleric", morale=2)
         for i in range(commanders)])
    for i, commander in enumerate(people):
        economy_ledger.ledger_purse(commander=commander)
        if i % 10:  # one in ten has an empty purse and ends in arrears
            economy_ledger.ledger_grant(commander=commander, amount=1_000, reason="Bench purse", actor=None)
    armies = Army.objects.bulk_create([Army(campaign=campaign, commander=c, name="Host") for c in people])
    Unit.objects.bulk_create(
        [Unit(campaign=campaign, commander_id=army.commander_id, unit_type=types[j % len(types)],
              strength=types[j % len(types)].strength, army=army, state=Unit.State.IN_ARMY)
         for army in armies for j in range(UNITS_PER_COMMANDER)], batch_size=5_000)
    ArmyDayActivity.objects.bulk_create([ArmyDayActivity(army=army, day=day, reason="fought") for army in armies])
    return day


def close(day) -> tuple[float, float, int, object]:
    """Wall seconds, CPU seconds and queries of one Day close."""
    from campaign.economy import upkeep

    connection.queries_log.clear()  # the log keeps 9,000 queries; start empty so the count is right
    with CaptureQueriesContext(connection) as ctx:
        started, cpu_started = time.perf_counter(), time.process_time()
        result = upkeep.day_close(day=day, actor=None)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    if os.environ.get("BENCH_VERBOSE"):
        for query in sorted(ctx.captured_queries, key=lambda q: -float(q["time"]))[:8]:
            print(query["time"], query["sql"][:150], file=sys.stderr)
    return seconds, cpu, len(ctx.captured_queries), result


def copy_floor(rows: int) -> float:
    """Wall seconds to COPY `rows` rows of five integers into a scratch table and commit."""
    from django.db import transaction

    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE IF NOT EXISTS bench_floor (a int, b int, c int, d int, e int)")
        cursor.execute("TRUNCATE bench_floor")
    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor, cursor.cursor.copy(
            "COPY bench_floor FROM STDIN") as copy:
        for i in range(rows):
            copy.write_row((i, i, i, i, i))
    return time.perf_counter() - started


def measure(commanders: int) -> dict[str, object]:
    walls, cpus, queries = [], [], set()
    for repeat in range(REPEATS):
        seconds, cpu, count, result = close(build(f"Size {commanders} run {repeat}", commanders))
        walls.append(seconds)
        cpus.append(cpu)
        queries.add(count)
    return {"seconds": spread(walls, 3), "cpu_seconds": spread(cpus, 3), "queries": sorted(queries),
            "bills": len(result.bills), "arrears": len(result.arrears)}


def main() -> None:
    with throwaway_postgres("day_close"):
        close(build("Warm up", 3))  # content types and caches, as in a running server
        small, large = measure(100), measure(1_000)
        floor = spread([copy_floor(1_000 * UNITS_PER_COMMANDER) for _ in range(REPEATS)], 3)
        emit({"benchmark": "day_close", "database": "postgresql", "units_per_commander": UNITS_PER_COMMANDER,
              "repeats": REPEATS, "commanders_100": small, "commanders_1000": large,
              "baseline_copy_20000_rows_seconds": floor,
              "ratio_to_baseline": round(large["seconds"]["median"] / floor["median"], 1),
              "goal_seconds_1000": 1.0})


if __name__ == "__main__":
    main()
