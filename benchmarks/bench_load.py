"""The same pages as bench_pages.py under load: gunicorn (3 sync workers, DEBUG off) against PostgreSQL with the
demo campaign, 20 concurrent clients, `/healthz` as the baseline in the same run.

Needs DATABASE_URL pointing at PostgreSQL (it says so and exits 2 otherwise). Builds a throwaway database
(muster_bench_<pid>), collects the static files into a temporary folder, starts gunicorn on a free port,
signs in the demo's player and GM, and drives each page for BENCH_LOAD_SECONDS (default 5) from 20 client
threads in two processes. Per page: requests per second, p50/p95 latency, and the workers' CPU per request
(read from /proc, so the load generator's own CPU is left out), each also as a ratio to `/healthz`.
Prints one JSON line per page. Wall time is the right clock here: this measures parallel work.
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from common import ROOT, emit, json_poll_url, serving, throwaway_postgres

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

CLIENTS, PROCESSES, WORKERS = 20, 2, 3
SECONDS = float(os.environ.get("BENCH_LOAD_SECONDS", "5"))
WARM_UP_SECONDS = 1.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def hammer(port: int, path: str, cookie: str, threads: int, seconds: float) -> list[float]:
    """Latencies (seconds) of every request `threads` clients made to `path` for `seconds`."""
    def client() -> list[float]:
        latencies, deadline = [], time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("GET", path, headers={"Cookie": cookie, "Host": "127.0.0.1"})
            response = conn.getresponse()
            response.read()
            conn.close()
            if response.status not in (200, 204):
                raise RuntimeError(f"{path} answered {response.status}")
            latencies.append(time.perf_counter() - started)
        return latencies

    with ThreadPoolExecutor(threads) as pool:
        return [latency for result in pool.map(lambda _: client(), range(threads)) for latency in result]


def worker_cpu(master: int) -> float:
    """CPU seconds used so far by gunicorn's workers (the master's children)."""
    total = 0.0
    for child in Path(f"/proc/{master}/task/{master}/children").read_text().split():
        fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def drive(port: int, master: int, path: str, cookie: str) -> dict[str, float]:
    """Load `path` for SECONDS after a second's warm-up (every worker's first requests import, compile
    templates and fill its cache: a running server paid that long ago)."""
    hammer(port, path, cookie, CLIENTS // PROCESSES, WARM_UP_SECONDS)
    cpu_before = worker_cpu(master)
    started = time.perf_counter()
    with ProcessPoolExecutor(PROCESSES) as pool:
        runs = [pool.submit(hammer, port, path, cookie, CLIENTS // PROCESSES, SECONDS) for _ in range(PROCESSES)]
        latencies = sorted(latency for run in runs for latency in run.result())
    elapsed, cpu = time.perf_counter() - started, worker_cpu(master) - cpu_before
    return {"requests_per_second": round(len(latencies) / elapsed, 1),
            "p50_ms": round(statistics.median(latencies) * 1000, 1),
            "p95_ms": round(latencies[int(len(latencies) * 0.95) - 1] * 1000, 1),
            "worker_cpu_ms_per_request": round(cpu / len(latencies) * 1000, 2)}


def start_gunicorn(database: str, port: int, static_root: str) -> subprocess.Popen:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "0",
           "SECRET_KEY": settings.SECRET_KEY, "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "0",
           "DATABASE_URL": database, "STATIC_ROOT": static_root}
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env,
                   check=True)
    server = subprocess.Popen([str(Path(sys.executable).parent / "gunicorn"), "config.wsgi:application",  # noqa: S603
                               "--bind", f"127.0.0.1:{port}", "--workers", str(WORKERS), "--log-level", "warning"],
                              cwd=ROOT, env=env)
    return serving(server, port, "gunicorn", seconds=20)


def main() -> None:
    with throwaway_postgres("load") as name:
        from bench_pages import pages, poll_url
        from django.contrib.auth import get_user_model

        from battles.demo import load_demo_battles
        from campaign.demo import load_demo
        from cardgames.demo import load_demo_matches

        campaign, _ = load_demo()
        load_demo_matches(campaign=campaign)
        load_demo_battles(campaign=campaign)
        settings.ALLOWED_HOSTS = ["testserver"]
        clients, cookies = {}, {}
        for who, username in (("player", "amira"), ("gm", "gm")):
            clients[who] = Client()
            clients[who].force_login(get_user_model().objects.get(username=username))
            clients[who].get("/")  # sets the CSRF cookie a browser holds once signed in
            cookies[who] = "; ".join(f"{name}={clients[who].cookies[name].value}"
                                     for name in (settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME))
        rows = [(name_, who, url) for name_, who, url, _, _ in pages()]
        rows += [("match_table_unchanged", "player", poll_url(clients["player"], rows[2][2], "/table/")),
                 ("map_unchanged", "player", json_poll_url(clients["player"], f"{rows[1][2]}data/"))]
        connection.close()  # gunicorn's workers, not this process, hold the connections from here on
        url = settings.DATABASES["default"]
        database = f"postgres://{url['USER']}@{url['HOST'] or '127.0.0.1'}:{url['PORT'] or 5432}/{name}"
        port = free_port()
        with tempfile.TemporaryDirectory() as static_root:
            server = start_gunicorn(database, port, static_root)
            try:
                base = drive(port, server.pid, "/healthz", "")
                emit({"benchmark": "load", "page": "healthz", "clients": CLIENTS, "workers": WORKERS, **base})
                for page, who, path in rows:
                    figures = drive(port, server.pid, path, cookies[who])
                    emit({"benchmark": "load", "page": page, "as": who, **figures,
                          "cpu_ratio_to_healthz": round(figures["worker_cpu_ms_per_request"]
                                                        / base["worker_cpu_ms_per_request"], 1),
                          "throughput_ratio_to_healthz": round(figures["requests_per_second"]
                                                               / base["requests_per_second"], 2)})
            finally:  # before the database is dropped: its workers hold connections to it
                server.send_signal(signal.SIGTERM)
                server.wait(timeout=30)


if __name__ == "__main__":
    main()
