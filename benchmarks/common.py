"""What every benchmark shares: CPU-time repetitions with min/median, a baseline measured in the
same run (so a ratio survives a noisy shared machine), and one JSON line of output.

Single-threaded figures are CPU seconds of this process (``time.process_time``); wall time is
for parallel work only. A benchmark that cannot run says what it needs, on stderr and in its
JSON line, and exits non-zero: nothing is skipped silently.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

REPEATS = int(os.environ.get("BENCH_REPEATS", "5"))
"""Repetitions of each measured piece; BENCH_REPEATS overrides (the tests use 1)."""


def cpu_seconds(fn: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds this process spent in one call of `fn`, and what it returned."""
    started = time.process_time()
    result = fn()
    return time.process_time() - started, result


def spread(values: list[float], digits: int = 6) -> dict[str, float]:
    """The min and the median of repeated measurements (the min is the least disturbed run)."""
    return {"min": round(min(values), digits), "median": round(statistics.median(values), digits)}


def rates(count: Callable[[], int], repeats: int = REPEATS) -> dict[str, float]:
    """Items per CPU second over `repeats` calls of `count` (which does the work and returns how
    many items it did): min and median of the per-call rates."""
    per_call = []
    for _ in range(repeats):
        seconds, items = cpu_seconds(count)
        per_call.append(items / max(seconds, 1e-9))
    return spread(per_call, 0)


def python_baseline(repeats: int = REPEATS) -> dict[str, float]:
    """Operations per CPU second of a fixed pure-Python workload shaped like a game engine's inner
    loop (a random choice, a list built, a dict updated): the yardstick an engine's rate is divided
    by, so that the ratio, not the machine's speed of the moment, is what compares runs."""

    def work() -> int:
        rng = random.Random(7)
        tally: dict[int, int] = {}
        options = list(range(12))
        for _ in range(100_000):
            pick = rng.choice(options)
            row = [pick, pick + 1, pick * 2]
            tally[pick] = tally.get(pick, 0) + len(row)
        return 100_000

    return rates(work, repeats)


def emit(record: dict[str, Any]) -> dict[str, Any]:
    """Print `record` as one JSON line and return it."""
    print(json.dumps(record), flush=True)
    return record


def refuse(benchmark: str, needs: str) -> None:
    """Stop a benchmark that cannot run here, saying what it needs (never a silent skip)."""
    emit({"benchmark": benchmark, "error": f"needs {needs}"})
    print(f"{benchmark}: cannot run: needs {needs}", file=sys.stderr)
    raise SystemExit(2)


def json_poll_url(client: Any, url: str) -> str:
    """The poll a page's script makes of a JSON with a version and a poll token (``v`` and ``t`` in it), as the
    script does: `url` with the version it got and its token."""
    from urllib.parse import urlencode

    first = json.loads(client.get(url).content)
    return f"{url}?{urlencode({'v': first['v'], 't': first['t']})}"


@contextmanager
def throwaway_postgres(benchmark: str) -> Iterator[str]:
    """A migrated database next to DATABASE_URL's (muster_bench_<pid>), dropped afterwards; yields its name.
    Refuses (exit 2, saying so) when Django's database is not PostgreSQL. Call after django.setup()."""
    from django.conf import settings
    from django.db import connection

    db = settings.DATABASES["default"]
    if not db["ENGINE"].endswith("postgresql"):
        refuse(benchmark, "DATABASE_URL pointing at PostgreSQL (e.g. postgres://postgres@127.0.0.1:5432/postgres)")
    name = f"muster_bench_{os.getpid()}"
    db["TEST"] = {**db.get("TEST", {}), "NAME": name, "CHARSET": None, "TEMPLATE": None}
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False, serialize=False)
    try:
        yield name
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=False)
