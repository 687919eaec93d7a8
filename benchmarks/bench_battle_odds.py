"""Battle odds for two 12-unit armies, random against random, 10,000 battles (+/- 1% at 95%).

Times the run serially on one core (CPU seconds), then through Celery (wall seconds: parallel work):
one worker process with two pool processes (``--concurrency 2``) against REDIS_URL (default
redis://127.0.0.1:6379/15), on a queue of its own, started here and stopped at the end. Worker start-up
is not timed; a small warm-up run makes sure both pool processes are ready. The two results must be equal.
Prints one JSON line: {"benchmark": "battle_odds", "battles": 10000, "serial_cpu_seconds": ..,
"celery_wall_seconds": .., "half_width_95": ..}. Goal: under 5 seconds through Celery.
Run from the repository root: python benchmarks/bench_battle_odds.py [battles] [chunks]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from celery import Celery  # noqa: E402
from common import battle_config, cpu_seconds  # noqa: E402

from battles.engine.battle_odds import battle_odds  # noqa: E402
from battles.tasks import battle_odds_parallel  # noqa: E402

CONFIG = battle_config(12)

POLICIES = ["random", "random"]
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"


def start_worker(queue: str, redis_url: str, log) -> subprocess.Popen:
    """`celery worker` with two pool processes, consuming only `queue`."""
    env = {**os.environ, "REDIS_URL": redis_url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    env.setdefault("DEBUG", "1")
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "prefork", "--concurrency", "2",
               "--queues", queue, "--loglevel", "WARNING", "--without-gossip", "--without-mingle",
               "--without-heartbeat", "--hostname", f"{queue}@%h"]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)  # noqa: S603 - fixed argv


def stop_worker(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def main(battles: int = 10_000, chunks: int = 10) -> None:
    redis_url = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    serial_seconds, serial = cpu_seconds(lambda: battle_odds(CONFIG, POLICIES, battles))

    queue = f"bench-odds-{uuid.uuid4().hex[:8]}"
    app = Celery("bench-sender", broker=redis_url, backend=redis_url)
    with tempfile.TemporaryFile("w+") as log:
        worker = start_worker(queue, redis_url, log)
        try:
            battle_odds_parallel(CONFIG, POLICIES, 4, 2, queue=queue, app=app, timeout=120)  # warm-up
            started = time.perf_counter()
            fanned = battle_odds_parallel(CONFIG, POLICIES, battles, chunks, queue=queue, app=app, timeout=600)
            celery_seconds = time.perf_counter() - started
        except Exception:
            log.seek(0)
            print(log.read()[-4000:], file=sys.stderr)
            raise
        finally:
            stop_worker(worker)
    assert fanned == serial, "the fanned-out odds differ from the serial odds"
    print(json.dumps({"benchmark": "battle_odds", "battles": battles, "serial_cpu_seconds": round(serial_seconds, 2),
                      "celery_wall_seconds": round(celery_seconds, 2), "half_width_95": round(serial.half_width, 4)}))


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
