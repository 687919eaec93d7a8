"""Starts a real Celery worker process for tests, against the test database and a chosen broker."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def test_database_url() -> str:
    """The URL of the database the test run is using, so the worker writes where the test reads."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@contextlib.contextmanager
def celery_process(*args: str, redis_url: str | None = None, broker_dir: Path | None = None
                   ) -> Iterator[subprocess.Popen]:
    """`celery -A config <args>` against the test database and the chosen broker, stopped (and reaped)
    when the block ends."""
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CELERY_BROKER_DIR"}}
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "1", "DATABASE_URL": test_database_url(),
                "VAR_DIR": str(settings.VAR_DIR)})
    if redis_url:
        env["REDIS_URL"] = redis_url
    if broker_dir:
        env["CELERY_BROKER_DIR"] = str(broker_dir)
    process = subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", *args], cwd=ROOT,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def worker_process(*, queue: str, redis_url: str | None = None, broker_dir: Path | None = None,
                   extra: tuple[str, ...] = ()):
    """A `celery worker` consuming only `queue`."""
    return celery_process("worker", "--pool", "solo", "--queues", queue, "--loglevel", "INFO", "--without-gossip",
                          "--without-mingle", "--without-heartbeat", "--hostname", f"{queue}@%h", *extra,
                          redis_url=redis_url, broker_dir=broker_dir)


def beat_process(*, redis_url: str, pidfile: Path):
    """`celery beat` on the database schedule, waking every second."""
    return celery_process("beat", "--scheduler", "django_celery_beat.schedulers:DatabaseScheduler",
                          "--max-interval", "1", "--loglevel", "INFO", "--pidfile", str(pidfile), redis_url=redis_url)


def wait_for(predicate, *, timeout: float, process: subprocess.Popen) -> None:
    """Poll until `predicate()` is true; fail with the worker's output if it never is."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        if process.poll() is not None:
            break
        time.sleep(0.2)
    process.terminate()
    output = process.communicate(timeout=20)[0]
    raise AssertionError(f"the worker never did it; its output:\n{output[-4000:]}")
