"""What every benchmark shares: CPU-time repetitions with min/median, a baseline measured in the
same run (so a ratio survives a noisy shared machine), and one JSON line of output.

Single-threaded figures are CPU seconds of this process (``time.process_time``); wall time is
for parallel work only. A benchmark that cannot run says what it needs, on stderr and in its
JSON line, and exits non-zero: nothing is skipped silently.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
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
    many items it did): min and median of the per-call rates. One more call first, not counted, fills
    the caches a long-running process would have (the engines' tables of action shapes, Command Dice's
    allocations): without it the first call, slower, was the min."""
    count()
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


def serving(server: Any, port: int, name: str, *, seconds: float) -> Any:
    """The server process once it answers /healthz on the port; stopped, and the benchmark ended, if it does not."""
    import http.client

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit(f"{name} did not answer /healthz on port {port} within {seconds:.0f} s")


def measure_page(client: Any, url: str, *, repeats: int, expect: int = 200, cold: bool = False,
                 change: Callable[[], Any] | None = None) -> dict[str, object]:
    """One page through Django's test `client`: this process's CPU ms per request to `url`, min and median of
    `repeats` after two warm-up requests (which must answer `expect`), the queries of one more request and the
    bytes of the answer. Before each request, outside the timing (and before the one whose queries are counted):
    `change`, a real change that makes what is remembered of the page stale, as for the first viewer after it
    (sessions stay remembered, as they do); else with `cold` every cache emptied."""
    from django.core.cache import caches
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def forget() -> None:
        if change is not None:
            change()
        elif cold:
            caches["default"].clear()
            caches["shared"].clear()

    for _ in range(2):
        response = client.get(url)
        if response.status_code != expect:
            raise SystemExit(f"{url} answered {response.status_code}, expected {expect}")
    times = []
    for _ in range(repeats):
        forget()
        started = time.process_time()
        client.get(url)
        times.append(time.process_time() - started)
    forget()
    with CaptureQueriesContext(connection) as ctx:
        client.get(url)
    return {"cpu_ms": {"min": round(min(times) * 1000, 2), "median": round(statistics.median(times) * 1000, 2)},
            "queries": len(ctx.captured_queries), "bytes": len(response.content)}


def json_poll_url(client: Any, url: str) -> str:
    """The poll a page's script makes of a JSON with a version and a poll token (``v`` and ``t`` in it), as the
    script does: `url` with the version it got and its token."""
    from urllib.parse import urlencode

    first = json.loads(client.get(url).content)
    return f"{url}?{urlencode({'v': first['v'], 't': first['t']})}"


TEMPLATE_PREFIX = "muster_bench_template_"
"""Migrated databases the throwaway ones are copied from, one per set of migrations (the digest ends the name)."""


def migrations_digest() -> str:
    """12 hex digits that change whenever a migration of any installed app is added, removed or edited."""
    import django
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(None, ignore_no_migrations=True)
    digest = hashlib.sha256(django.__version__.encode())
    for key in sorted(loader.disk_migrations):
        digest.update(repr(key).encode())
        digest.update(Path(sys.modules[type(loader.disk_migrations[key]).__module__].__file__ or "").read_bytes())
    return digest.hexdigest()[:12]


@contextmanager
def _server(db: dict[str, Any]) -> Iterator[Any]:
    """A psycopg cursor, in autocommit, on DATABASE_URL's own database, holding the benchmarks' advisory lock (so
    two benchmarks never build the same template at once, nor copy one while it is built)."""
    import psycopg

    params = {k: db[v] for k, v in (("user", "USER"), ("password", "PASSWORD"), ("host", "HOST"), ("port", "PORT"))
              if db.get(v)}
    with psycopg.connect(dbname=db["NAME"], autocommit=True, **params) as conn, conn.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(hashtext(%s))", [TEMPLATE_PREFIX])
        yield cursor


def _switch_to(connection: Any, name: str) -> None:
    connection.close()
    connection.settings_dict["NAME"] = name


def _migrated_template(cursor: Any, connection: Any) -> str:
    """The template for the current migrations, migrated once and reused by every later run; templates of other
    migrations are dropped (those in use are left)."""
    from django.core.management import call_command
    from psycopg import errors, sql

    name = f"{TEMPLATE_PREFIX}{migrations_digest()}"
    cursor.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", [f"{TEMPLATE_PREFIX}%"])
    found = {row[0] for row in cursor.fetchall()}
    if name in found:
        return name
    building, own = f"{name}_new", connection.settings_dict["NAME"]
    cursor.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(building)))  # a crashed build's
    cursor.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(building)))
    try:
        _switch_to(connection, building)
        call_command("migrate", verbosity=0, interactive=False, run_syncdb=True)
    finally:
        _switch_to(connection, own)
    cursor.execute(sql.SQL("ALTER DATABASE {} RENAME TO {}").format(sql.Identifier(building), sql.Identifier(name)))
    for stale in sorted(found - {building}):
        with suppress(errors.ObjectInUse):
            cursor.execute(sql.SQL("DROP DATABASE {}").format(sql.Identifier(stale)))
    return name


@contextmanager
def throwaway_postgres(benchmark: str) -> Iterator[str]:
    """A migrated database next to DATABASE_URL's (muster_bench_<pid>), dropped afterwards; yields its name.
    Refuses (exit 2, saying so) when Django's database is not PostgreSQL. Call after django.setup().

    The database is a copy of a template (``CREATE DATABASE ... TEMPLATE``, a file copy taking a second or two)
    migrated once for the current migrations and kept for later runs (muster_bench_template_<digest>): migrating
    took a minute of wall time per benchmark on a loaded machine."""
    from django.conf import settings
    from django.db import connection
    from psycopg import sql

    db = settings.DATABASES["default"]
    if not db["ENGINE"].endswith("postgresql"):
        refuse(benchmark, "DATABASE_URL pointing at PostgreSQL (e.g. postgres://postgres@127.0.0.1:5432/postgres)")
    name, own = f"muster_bench_{os.getpid()}", db["NAME"]
    with _server(db) as cursor:
        template = _migrated_template(cursor, connection)
        cursor.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        cursor.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(name),
                                                                          sql.Identifier(template)))
    db["NAME"] = name
    _switch_to(connection, name)
    try:
        yield name
    finally:
        db["NAME"] = own
        _switch_to(connection, own)
        with _server(db) as cursor:
            cursor.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


def grant_each(commanders: Sequence[Any], amount: int, *, reason: str, actor: Any = None) -> None:
    """What ledger_grant writes for each commander (a transaction from the bank into their purse and a ledger.grant
    audit row), for building a benchmark's campaign: in a handful of statements, through the ledger's own batch
    posting (the one a Day's close pays its bills with). A commander may come more than once. One ledger_grant
    each took minutes of wall for a thousand grants on a loaded machine."""
    from django.db import transaction

    from campaign.economy import ledger
    from campaign.models import Account, AuditEntry, LedgerTransaction

    campaign_id = commanders[0].campaign_id
    with transaction.atomic():
        purses = ledger.ledger_purses_ensure(commander_ids={c.pk for c in commanders})
        bank = ledger.ledger_system_account(campaign=campaign_id, kind=Account.Kind.BANK).pk
        postings = [ledger._Posting(campaign_id=campaign_id, kind=LedgerTransaction.Kind.GRANT, reason=reason,
                                    legs=((bank, -amount), (purses[c.pk], amount))) for c in commanders]
        transactions = ledger._post_many(postings, actor=actor)
        AuditEntry.objects.bulk_create([
            AuditEntry(campaign_id=campaign_id, actor=actor, action="ledger.grant", target=str(commander)[:200],
                       data={"amount": amount, "reason": reason, "transaction": txn.pk})
            for commander, txn in zip(commanders, transactions, strict=True)])


# The engines: random play and search, measured the same way for every game.

RANDOM_PLAY_GOAL = 100_000
"""Random-play actions per CPU second every engine must reach (issue #18)."""
SEARCH_GOAL = 5_000
"""Search iterations per CPU second every game must reach with its own search settings (issue #18)."""
SEARCH_ITERATIONS = (400, 1600)
"""Iterations per decision the search is timed at: the app's (cardgames.services.SEARCH_ITERATIONS) and four
times as many, so a tree that grows slower per iteration shows."""

CATALOGUE = {u["name"]: u for u in json.loads((ROOT / "campaign/catalogue/data/unit_catalogue.json").read_text())}
ARMIES = (["Spearmen", "Soldier", "Soldier", "Pikemen", "Knights", "Longbowmen", "Field Surgeon",
           "Siege Ram", "Light Cavalry", "Temple Guard", "Rite of Steel", "Battle Mages"],
          ["Archers", "Rangers", "Griffon Riders", "Earth Elemental", "Druid Circle", "Giant Eagles",
           "Fire Elemental", "Skeleton Warriors", "Wraith", "Zombie Horde", "Call of the Wild", "Caltrops"])
"""The two armies every battle benchmark fields (the first `units` cards of each), event text off."""


def battle_config(units: int = 12) -> dict[str, Any]:
    """An Army Combat config: two commanders with the first `units` cards of `ARMIES`, event text off."""

    def army(names: list[str]) -> list[dict[str, Any]]:
        return [{"id": i, "retinue": i == 1,
                 **{k: CATALOGUE[name][k] for k in ("name", "strength", "role", "path", "traits", "effects")}}
                for i, name in enumerate(names[:units], start=1)]

    return {"verbose": False, "commanders": [
        {"name": "Ayla", "level": 6, "influence": 1, "is_player_character": True, "power": "Evoker",
         "units": army(ARMIES[0])},
        {"name": "Borin", "level": 4, "is_player_character": False, "power": "Master of Arms",
         "units": army(ARMIES[1])}]}


def random_play(game: Any, config: dict[str, Any], seats: int, games: int, seed: int = 1) -> Callable[[], int]:
    """Work for `rates`: `games` seeded games of uniformly random legal actions (every mover of a
    simultaneous move in turn), history on; returns the actions applied."""
    names = [f"p{i}" for i in range(seats)]

    def work() -> int:
        choice = random.Random(seed).choice
        legal, apply, to_move, over = game.legal_actions, game.apply, game.to_move, game.is_over
        actions = 0
        for number in range(games):
            state = game.new_game(config, names, seed=seed + number)
            while not over(state):
                for seat in to_move(state):
                    apply(state, choice(legal(state, seat)), seat)
                    actions += 1
        return actions

    return work


def search_decisions(game: Any, config: dict[str, Any], seats: int, count: int,
                     seed: int) -> list[tuple[Any, int]]:
    """`count` states with a real choice (two or more legal actions), sampled from seeded random games."""
    rng, found = random.Random(seed), []
    names = [f"p{i}" for i in range(seats)]
    while len(found) < count:
        state = game.new_game(config, names, seed=rng.getrandbits(32))
        while not game.is_over(state) and len(found) < count:
            movers = game.to_move(state)
            if rng.random() < 0.1 and len(game.legal_actions(state, movers[0])) > 1:
                found.append((game.clone(state), movers[0]))
            for seat in movers:
                game.apply(state, rng.choice(game.legal_actions(state, seat)), seat)
    return found


def search_play(game: Any, config: dict[str, Any], seats: int, iterations: int, moves: int = 4,
                seed: int = 1) -> Callable[[], int]:
    """Work for `rates`: the search player the app seats (the game's own ``search_settings``) choosing at
    `moves` sampled decisions with `iterations` each; returns the iterations run."""
    from gamekit.players import search_player

    found = search_decisions(game, config, seats, moves + 1, seed)
    player = search_player(game, seed, iterations=iterations)
    player.choose(game, *found.pop())  # warm the engine's caches, as a running server would have them

    def work() -> int:
        for state, seat in found:
            player.choose(game, state, seat)
        return iterations * len(found)

    return work


def report(benchmark: str, goal: int, unit: str, figures: dict[str, dict[str, float]],
           **extra: Any) -> dict[str, Any]:
    """Emit one engine benchmark's line: each figure (`unit` per CPU second, min/median) with its ratio to
    the Python baseline measured in this run and whether its median meets `goal`."""
    baseline = python_baseline()
    out = {label: {**f, "ratio_to_baseline": float(f"{f['median'] / baseline['median']:.3g}"),
                   "meets_goal": f["median"] >= goal} for label, f in figures.items()}
    return emit({"benchmark": benchmark, "clock": "cpu", "unit": f"{unit} per CPU second", "repeats": REPEATS,
                 "goal": goal, "baseline_ops_per_cpu_second": baseline, **extra, "figures": out})
