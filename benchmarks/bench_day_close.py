"""Closing a Day on PostgreSQL: 100 and 1,000 commanders with 20 units each, every army led that Day.

Needs DATABASE_URL pointing at PostgreSQL (it says so and exits 2 otherwise). Creates a throwaway database
next to it (common.throwaway_postgres) and builds each size's campaign once, in bulk (the grants go through the
ledger's batch posting). Then, BENCH_REPEATS times, it closes the Day and has a game master reopen it
(campaign.economy.day_reversal), which leaves the campaign as it was before the close, so every close does the
same work and commits for real (a savepoint rolled back would skip the commit, where PostgreSQL checks the
foreign keys of every row written).

The figures, at each size: the close's wall seconds (the close is Python and PostgreSQL working in turn, so wall
time is what a GM waits), this process's CPU seconds and the PostgreSQL backend's (from /proc, when the server
runs here), min and median, and its statements (they must not grow; COPY and COMMIT are not among them); the
same for the reopening. In the same run, as the baseline, the floor: COPYing as many five-integer rows as the
larger close writes upkeep lines into a scratch table and committing; and the load average, as wall time on a
shared machine depends on it. BENCH_VERBOSE=1 prints each run's slowest statements on stderr. Prints one JSON
line.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from common import REPEATS, emit, grant_each, spread, throwaway_postgres  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from campaign.bulk import copy_rows  # noqa: E402
from campaign.campaigns.reversals import reversible_latest  # noqa: E402
from campaign.economy import day_reversal, ledger, upkeep  # noqa: E402
from campaign.models import (  # noqa: E402
    Army,
    ArmyDayActivity,
    Campaign,
    Commander,
    Day,
    Event,
    Membership,
    Reversible,
    Unit,
    UnitType,
)
from campaign.models.campaigns import Role  # noqa: E402

UNITS_PER_COMMANDER = 20
SIZES = tuple(int(n) for n in os.environ.get("BENCH_DAY_CLOSE_SIZES", "100,1000").split(","))
"""Commanders of the two campaigns (BENCH_DAY_CLOSE_SIZES, the tests use small ones); the goal is for 1,000."""
STRENGTHS = [(1, []), (2, []), (3, []), (0, []), (2, ["Undead"]), (None, []), (4, []), (5, [])]
VERBOSE = bool(os.environ.get("BENCH_VERBOSE"))


@transaction.atomic
def build(commanders: int) -> tuple[Day, Any]:
    """A campaign whose open Day has `commanders` commanders, each with one army of 20 units led that Day (one
    in ten with an empty purse, who ends in arrears), and its game master: (the Day, the GM)."""
    campaign = Campaign.objects.create(name=f"Size {commanders}", slug=f"size-{commanders}")
    gm = get_user_model().objects.create_user(username=f"gm-{commanders}")
    Membership.objects.create(campaign=campaign, user=gm, role=Role.GM)
    now = timezone.now()
    event = Event.objects.create(campaign=campaign, name="Bench", starts_at=now, ends_at=now + timedelta(days=2))
    day = Day.objects.create(event=event, number=1)
    types = [UnitType.objects.create(campaign=campaign, name=f"T{i}", strength=s, traits=t)
             for i, (s, t) in enumerate(STRENGTHS)]
    people = Commander.objects.bulk_create(
        [Commander(campaign=campaign, name=f"Commander {i}", level=i % 10, power="Cleric", morale=2)
         for i in range(commanders)])
    ledger.ledger_purses_ensure(commander_ids=[c.pk for c in people])
    grant_each([c for i, c in enumerate(people) if i % 10], 1_000, reason="Bench purse")
    armies = Army.objects.bulk_create([Army(campaign=campaign, commander=c, name="Host") for c in people])
    copy_rows(Unit, ("campaign_id", "commander_id", "unit_type_id", "name", "strength", "trainings",
                     "third_training_ability", "gained_traits", "gained_effects", "state", "army_id", "recruited_at"),
              ((campaign.pk, army.commander_id, types[j % len(types)].pk, "", types[j % len(types)].strength, 0, "",
                "[]", "[]", Unit.State.IN_ARMY, army.pk, now)
               for army in armies for j in range(UNITS_PER_COMMANDER)))
    ArmyDayActivity.objects.bulk_create([ArmyDayActivity(army=army, day=day, reason="fought") for army in armies])
    return day, gm


def postgres_cpu_seconds() -> float | None:
    """CPU seconds the connection's PostgreSQL backend process has used so far, read from /proc (None when the
    server runs on another machine): the database's share of a close, which the loaded machine's wall time hides."""
    connection.ensure_connection()
    try:
        stat = Path(f"/proc/{connection.connection.info.backend_pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()  # after the command's name: state, ppid, ...; utime and stime at 11, 12
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Runs:
    """Repeated runs of one step: wall seconds, this process's and PostgreSQL's CPU seconds, and the statements
    each run sent."""

    def __init__(self) -> None:
        self.walls: list[float] = []
        self.cpus: list[float] = []
        self.postgres_cpus: list[float] = []
        self.statements: set[int] = set()

    def run(self, fn: Callable[[], Any]) -> Any:
        """Call `fn` once, timed, and return what it returned. Statements are counted (and, with BENCH_VERBOSE,
        timed for stderr) through connection.execute_wrapper, which costs next to nothing."""
        statements: list[tuple[float, str]] = []

        def clock(execute, sql, params, many, context):
            started = time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                statements.append((time.perf_counter() - started, sql))

        postgres_started = postgres_cpu_seconds()
        with connection.execute_wrapper(clock):
            started, cpu_started = time.perf_counter(), time.process_time()
            result = fn()
            self.walls.append(time.perf_counter() - started)
            self.cpus.append(time.process_time() - cpu_started)
        postgres_ended = postgres_cpu_seconds()
        if postgres_started is not None and postgres_ended is not None:
            self.postgres_cpus.append(postgres_ended - postgres_started)
        self.statements.add(len(statements))
        if VERBOSE:
            print(f"{fn.__name__}: {self.walls[-1] * 1000:.0f} ms wall, {self.cpus[-1] * 1000:.0f} ms CPU here, "
                  f"{(self.postgres_cpus or [0])[-1] * 1000:.0f} ms CPU in PostgreSQL, "
                  f"{sum(s for s, _ in statements) * 1000:.0f} ms in {len(statements)} statements", file=sys.stderr)
            for spent, sql in sorted(statements, reverse=True)[:6]:
                print(f"  {spent * 1000:7.1f} {sql[:140]}", file=sys.stderr)
        return result

    def figures(self) -> dict[str, object]:
        return {"seconds": spread(self.walls, 3), "cpu_seconds": spread(self.cpus, 3),
                "postgres_cpu_seconds": spread(self.postgres_cpus, 3) if self.postgres_cpus else None,
                "queries": sorted(self.statements)}


def copy_floor(rows: int) -> float:
    """Wall seconds to COPY `rows` rows of five integers into a scratch table and commit."""
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
    """Close and reopen the Day of a campaign of `commanders` commanders BENCH_REPEATS times."""
    started = time.perf_counter()
    day, gm = build(commanders)
    built = time.perf_counter() - started
    closing, reopening = Runs(), Runs()

    def day_close():
        return upkeep.day_close(day=day, actor=None)

    def day_reopen():
        record = reversible_latest(kind=Reversible.Kind.DAY, target_id=day.pk)
        return day_reversal.day_reopen(record=record, actor=gm, reason="Closed for the benchmark")

    for _ in range(REPEATS):
        closed = closing.run(day_close)
        reopening.run(day_reopen)
    return {**closing.figures(), "bills": len(closed.bills), "arrears": len(closed.arrears),
            "reopen": reopening.figures(), "build_seconds": round(built, 1)}


def main() -> None:
    with throwaway_postgres("day_close"):
        warm_up, _ = build(3)  # content types and caches, as in a running server
        upkeep.day_close(day=warm_up, actor=None)
        figures = {f"commanders_{size}": measure(size) for size in SIZES}
        rows = SIZES[-1] * UNITS_PER_COMMANDER
        floor = spread([copy_floor(rows) for _ in range(REPEATS)], 3)
        largest = figures[f"commanders_{SIZES[-1]}"]["seconds"]["median"]  # type: ignore[index]
        emit({"benchmark": "day_close", "database": "postgresql", "units_per_commander": UNITS_PER_COMMANDER,
              "repeats": REPEATS, "load_average": round(os.getloadavg()[0], 1), **figures,
              f"baseline_copy_{rows}_rows_seconds": floor, "ratio_to_baseline": round(largest / floor["median"], 1),
              "goal_seconds_1000": 1.0})


if __name__ == "__main__":
    main()
