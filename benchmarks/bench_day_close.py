"""Closing a Day on PostgreSQL: 1,000 commanders with 20 units each, every army led that Day.

Needs DATABASE_URL pointing at PostgreSQL. Creates a throwaway database next to it (muster_bench_<pid>),
migrates it, builds the data (grants go through the ledger), closes the Day, and drops the database.
Also closes a Day of 100 commanders, to show that the number of queries does not grow with commanders.
Prints one JSON line:
{"benchmark": "day_close", "commanders": 1000, "units_per_commander": 20, "seconds": .., "queries": ..,
 "queries_100_commanders": .., "bills": .., "arrears": ..}.
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


def close(day) -> tuple[float, int, object]:
    from campaign.economy import upkeep

    connection.queries_log.clear()  # the log keeps 9,000 queries; start empty so the count is right
    with CaptureQueriesContext(connection) as ctx:
        start = time.perf_counter()
        result = upkeep.day_close(day=day, actor=None)
        seconds = time.perf_counter() - start
    if os.environ.get("BENCH_VERBOSE"):
        for query in sorted(ctx.captured_queries, key=lambda q: -float(q["time"]))[:8]:
            print(query["time"], query["sql"][:150], file=sys.stderr)
    return seconds, len(ctx.captured_queries), result


def main() -> None:
    db = settings.DATABASES["default"]
    if not db["ENGINE"].endswith("postgresql"):
        print(json.dumps({"benchmark": "day_close", "skipped": "DATABASE_URL does not point at PostgreSQL"}))
        return
    db["TEST"] = {**db.get("TEST", {}), "NAME": f"muster_bench_{os.getpid()}", "CHARSET": None, "TEMPLATE": None}
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False, serialize=False)
    try:
        warm = build("Warm up", 3)
        close(warm)  # content types and caches, as in a running server
        small_seconds, small_queries, _ = close(build("Hundred", 100))
        day = build("Thousand", 1_000)
        seconds, queries, result = close(day)
        print(json.dumps({
            "benchmark": "day_close", "database": "postgresql", "commanders": 1_000,
            "units_per_commander": UNITS_PER_COMMANDER, "seconds": round(seconds, 3), "queries": queries,
            "queries_100_commanders": small_queries, "seconds_100_commanders": round(small_seconds, 3),
            "bills": len(result.bills), "arrears": len(result.arrears),
        }))
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=False)


if __name__ == "__main__":
    main()
