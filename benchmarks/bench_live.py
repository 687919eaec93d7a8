"""Pushed updates under load: 200 phones on sockets at once against uvicorn (2 workers, DEBUG off) with PostgreSQL
and Redis, as a server runs them. 100 watch one live table, 100 the map (the hour and their own commander).

Needs DATABASE_URL pointing at PostgreSQL and REDIS_URL (it says so and exits 2 otherwise). Builds a throwaway
database (muster_bench_<pid>), starts uvicorn on BENCH_LIVE_PORT (default 8017), connects the 200 sockets with
their players' and GM's sessions, then:

- plays BENCH_LIVE_MOVES moves (default 40) at the table through the API, one at a time, and times each from
  the moment its request is sent to the moment each of the 100 table sockets hears it;
- advances the event clock BENCH_LIVE_HOURS hours (default 5) and times each hour to each of the 100 map sockets;
- counts messages lost (a version a socket never heard) and duplicated (one heard twice);
- measures the server's CPU (uvicorn's processes, read from /proc, so this load generator's own CPU is left out)
  over BENCH_LIVE_IDLE_SECONDS (default 30) with the 200 phones connected and idle, and over as long with none
  connected: the baseline of the same run. The difference per phone and minute is what an idle phone costs.

The baseline for the delays is the move's HTTP request itself (sent to answered), timed in the same run.
Prints one JSON line. Wall time is the right clock for delays: they are what a player waits.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import ROOT, emit, refuse, serving, throwaway_postgres

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

TABLE_WATCHERS = MAP_WATCHERS = 100
WORKERS = 2
PORT = int(os.environ.get("BENCH_LIVE_PORT", "8017"))
MOVES = int(os.environ.get("BENCH_LIVE_MOVES", "40"))
HOURS = int(os.environ.get("BENCH_LIVE_HOURS", "5"))
IDLE_SECONDS = float(os.environ.get("BENCH_LIVE_IDLE_SECONDS", "30"))
WAIT_SECONDS = 10.0
"""How long a message may take before it counts as lost."""


def build_campaign() -> dict:
    """A campaign with a GM, two seated players at a Command Dice table and 100 players with a commander each;
    the sessions and API tokens the phones use."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from campaign.map import clock
    from campaign.models import Campaign, Commander, Event, Membership, Role
    from cardgames.services import SeatSpec, match_create

    users = get_user_model()
    campaign = Campaign.objects.create(name="Live Load", slug="live-load")

    def member(name: str, role: str = Role.PLAYER):
        user = users.objects.create_user(username=name, password="not-used-here")  # noqa: S106
        Membership.objects.create(campaign=campaign, user=user, role=role)
        return user

    gm, seated = member("gm", Role.GM), [member("amira"), member("bastian")]
    match = match_create(campaign=campaign, game="command-dice", actor=gm, seed=3,
                         seats=[SeatSpec("amira", seated[0]), SeatSpec("bastian", seated[1])])
    event = Event.objects.create(campaign=campaign, name="Load Test Muster", starts_at=timezone.now(),
                                 ends_at=timezone.now() + timedelta(days=2))
    clock.event_clock_start(event=event, actor=gm)
    map_players = []
    for i in range(MAP_WATCHERS):
        user = member(f"phone{i:03d}")
        map_players.append((user, Commander.objects.create(campaign=campaign, player=user, name=f"Captain {i}")))

    def cookie(user) -> str:
        client = Client()
        client.force_login(user)
        return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"

    table_users = [seated[0], seated[1], gm]
    return {
        "match_id": match.pk, "event_id": event.pk, "campaign_id": campaign.pk,
        "tokens": {u.pk: Token.objects.create(user=u).key for u in (*seated, gm)},
        "seat_users": [u.pk for u in seated], "gm": gm.pk,
        "table_phones": [(cookie(table_users[i % 3]), f"match.{match.pk}") for i in range(TABLE_WATCHERS)],
        "map_phones": [(cookie(user), f"campaign.{campaign.pk}.hour,commander.{commander.pk}")
                       for user, commander in map_players],
    }


def api(method: str, path: str, token: str, body: dict | None = None) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    conn.request(method, path, body=json.dumps(body) if body is not None else None,
                 headers={"Authorization": f"Token {token}", "Content-Type": "application/json",
                          "Host": "127.0.0.1"})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    if response.status != 200:
        raise RuntimeError(f"{method} {path} answered {response.status}: {data[:300]!r}")
    return json.loads(data)


def server_pids(master: int) -> list[str]:
    return [str(master), *Path(f"/proc/{master}/task/{master}/children").read_text().split()]


def server_cpu(master: int) -> float:
    """CPU seconds used so far by uvicorn: its master and its workers."""
    pids = server_pids(master)
    total = 0.0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def start_uvicorn(database: str) -> subprocess.Popen:
    from campaign.management.commands.runstack import web_options

    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "0",
           "SECRET_KEY": settings.SECRET_KEY, "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "0",
           "DATABASE_URL": database, "REDIS_URL": settings.REDIS_URL}
    server = subprocess.Popen([str(Path(sys.executable).parent / "uvicorn"),  # noqa: S603
                               *web_options("127.0.0.1", str(PORT), workers=WORKERS), "--log-level", "warning"],
                              cwd=ROOT, env=env)
    return serving(server, PORT, "uvicorn", seconds=30)


def stop(server: subprocess.Popen) -> None:
    """uvicorn and its workers gone (killed after 20 s of a graceful stop), so the database can be dropped."""
    pids = server_pids(server.pid)
    server.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 20
    while any(Path(f"/proc/{pid}/stat").exists() and Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
              for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in pids:
        if Path(f"/proc/{pid}").exists():
            os.kill(int(pid), signal.SIGKILL)
    server.wait(timeout=10)


class Phone:
    """One socket and every (arrival time, message) it heard."""

    def __init__(self, cookie: str, topics: str):
        self.cookie, self.topics, self.heard = cookie, topics, []
        self.socket = None

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        self.socket = await connect(f"ws://127.0.0.1:{PORT}/ws/live/?topics={self.topics}",
                                    additional_headers={"Cookie": self.cookie}, origin=f"http://127.0.0.1:{PORT}",
                                    open_timeout=60)

    async def listen(self) -> None:
        async for raw in self.socket:
            self.heard.append((time.perf_counter(), json.loads(raw)))

    def arrivals(self, topic_prefix: str) -> list[tuple[float, object]]:
        return [(at, m["version"]) for at, m in self.heard if m["topic"].startswith(topic_prefix)]


async def wait_for(condition, seconds: float = WAIT_SECONDS) -> None:
    deadline = time.perf_counter() + seconds
    while not condition() and time.perf_counter() < deadline:
        await asyncio.sleep(0.005)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(int(len(ordered) * share + 0.5) - 1, 0)]


def delays_ms(values: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(values) * 1000, 1), "p95": round(percentile(values, 0.95) * 1000, 1),
            "max": round(max(values) * 1000, 1)}


async def play(world: dict, table: list[Phone]) -> tuple[list[float], list[float], list[int]]:
    """MOVES moves one at a time: (delay to each table phone, each move's request time, the versions played)."""
    match_path = f"/api/matches/{world['match_id']}"
    tokens, seat_users = world["tokens"], world["seat_users"]
    delays, requests, versions = [], [], []
    for _ in range(MOVES):
        view = await asyncio.to_thread(api, "GET", f"{match_path}/table/", tokens[seat_users[0]])
        if view["over"]:
            break
        seat = sorted(view["to_move"])[0]
        mover = tokens[seat_users[seat]]
        legal = (await asyncio.to_thread(api, "GET", f"{match_path}/table/", mover))["legal_actions"]
        sent = time.perf_counter()
        played = await asyncio.to_thread(api, "POST", f"{match_path}/act/", mover,
                                         {"action": legal[0]["action"], "version": view["version"]})
        requests.append(time.perf_counter() - sent)
        version = played["version"]
        versions.append(version)
        await wait_for(lambda v=version: all(any(x == v for _, x in p.arrivals("match.")) for p in table))
        delays += [at - sent for p in table for at, x in p.arrivals("match.") if x == version]
    return delays, requests, versions


async def advance(world: dict, on_map: list[Phone]) -> list[float]:
    """HOURS hours, one at a time: the delay from each advance to each map phone."""
    delays = []
    for hour in range(1, HOURS + 1):
        sent = time.perf_counter()
        await asyncio.to_thread(api, "POST", f"/api/event-clocks/{world['event_id']}/advance/",
                                world["tokens"][world["gm"]], {"to_hour": hour})
        await wait_for(lambda h=hour: all(len(p.arrivals("campaign.")) >= h for p in on_map))
        delays += [p.arrivals("campaign.")[hour - 1][0] - sent for p in on_map if len(p.arrivals("campaign.")) >= hour]
    return delays


def losses(phones: list[Phone], prefix: str, expected: int) -> tuple[int, int]:
    """(messages lost, messages duplicated) over `phones`, each of which should hear `expected` versions."""
    lost = duplicated = 0
    for phone in phones:
        versions = [v for _, v in phone.arrivals(prefix)]
        lost += expected - len(set(versions))
        duplicated += len(versions) - len(set(versions))
    return lost, duplicated


async def run(world: dict, master: int) -> dict:
    await asyncio.sleep(3)  # the workers' start-up is over before the baseline is measured
    idle_cpu_before = server_cpu(master)
    await asyncio.sleep(IDLE_SECONDS)
    baseline_cpu = server_cpu(master) - idle_cpu_before
    table = [Phone(cookie, topics) for cookie, topics in world["table_phones"]]
    on_map = [Phone(cookie, topics) for cookie, topics in world["map_phones"]]
    phones = table + on_map
    connect_started = time.perf_counter()
    for start in range(0, len(phones), 20):  # twenty at a time, as phones arrive
        await asyncio.gather(*(p.connect() for p in phones[start:start + 20]))
    connect_seconds = time.perf_counter() - connect_started
    listeners = [asyncio.create_task(p.listen()) for p in phones]
    await asyncio.sleep(1)
    idle_cpu_before = server_cpu(master)
    await asyncio.sleep(IDLE_SECONDS)
    idle_cpu = server_cpu(master) - idle_cpu_before
    move_delays, move_requests, versions = await play(world, table)
    hour_delays = await advance(world, on_map)
    await asyncio.sleep(1)  # a late duplicate would arrive now
    for p in phones:
        await p.socket.close()
    for task in listeners:
        task.cancel()
    table_lost, table_dup = losses(table, "match.", len(versions))
    map_lost, map_dup = losses(on_map, "campaign.", HOURS)
    per_phone_minute = (idle_cpu - baseline_cpu) / len(phones) * 60 / IDLE_SECONDS
    return {
        "benchmark": "live", "phones": len(phones), "table_phones": len(table), "map_phones": len(on_map),
        "server_workers": WORKERS, "moves": len(versions), "hours": HOURS,
        "move_to_every_table_phone_ms": delays_ms(move_delays),
        "hour_to_every_map_phone_ms": delays_ms(hour_delays),
        "baseline_move_request_ms": delays_ms(move_requests),
        "p95_under_1s": percentile(move_delays + hour_delays, 0.95) < 1.0,
        "lost": table_lost + map_lost, "duplicated": table_dup + map_dup,
        "connect_200_seconds": round(connect_seconds, 2),
        "idle_seconds": IDLE_SECONDS,
        "server_cpu_ms_per_idle_phone_per_minute": round(per_phone_minute * 1000, 3),
        "baseline_server_cpu_ms_per_minute_without_phones": round(baseline_cpu * 60 / IDLE_SECONDS * 1000, 1),
        "server_cpu_ms_per_minute_with_200_idle_phones": round(idle_cpu * 60 / IDLE_SECONDS * 1000, 1),
    }


def main() -> None:
    with throwaway_postgres("live") as name:
        if not settings.REDIS_URL:
            refuse("live", "REDIS_URL pointing at Redis (e.g. redis://127.0.0.1:6379/7): sockets in two server "
                           "processes hear each other only through it")
        world = build_campaign()
        connection.close()  # uvicorn's workers, not this process, hold the connections from here on
        db = settings.DATABASES["default"]
        database = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"
        server = start_uvicorn(database)
        try:
            emit(asyncio.run(run(world, server.pid)))
        finally:  # before the database is dropped: the workers hold connections to it
            stop(server)


if __name__ == "__main__":
    main()
