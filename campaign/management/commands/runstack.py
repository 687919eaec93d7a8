"""Start the whole system in one terminal: the web server (uvicorn on config.asgi: pages and the pushed-update
sockets), a Celery worker and Celery beat.

Ctrl-C (or SIGTERM) stops all three; if one of them dies, the others are stopped too,
so a half-running system never looks healthy.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand


def web_options(host: str, port: str, *, workers: int) -> list[str]:
    """uvicorn's arguments, as the Dockerfile gives them. Sockets in different processes hear each other only
    through Redis, so without REDIS_URL one process serves all; the client's address is left to Django
    (PROXY_COUNT), never taken from a forwarded header by the server. A stop waits at most 10 s for open sockets
    (phones reconnect to the next server)."""
    return ["config.asgi:application", "--host", host, "--port", port, "--workers", str(workers),
            "--lifespan", "off", "--no-proxy-headers", "--timeout-graceful-shutdown", "10"]


class Command(BaseCommand):
    help = "Run uvicorn (HTTP and WebSockets), a Celery worker and Celery beat together until Ctrl-C."

    def add_arguments(self, parser):
        parser.add_argument("--bind", default=f"127.0.0.1:{os.environ.get('PORT', '8000')}")
        parser.add_argument("--concurrency", type=int, default=2)

    def handle(self, *args, bind: str, concurrency: int, **options):
        python = sys.executable
        bindir = os.path.dirname(python)
        host, _, port = bind.rpartition(":")
        commands = {
            "web": [os.path.join(bindir, "uvicorn"), *web_options(host, port, workers=2 if settings.REDIS_URL else 1)],
            "worker": [python, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO",
                       "--concurrency", str(concurrency)],
            "beat": [python, "-m", "celery", "-A", "config", "beat", "--loglevel", "INFO",
                     "--schedule", str(settings.VAR_DIR / "celerybeat-schedule")],
        }
        broker = settings.REDIS_URL or f"embedded filesystem broker in {settings.CELERY_BROKER_DIR}"
        self.stdout.write(self.style.SUCCESS(f"Muster is starting at http://{bind}/  (broker: {broker})"))
        self.stdout.write("Press Ctrl-C to stop the web server, the worker and beat.")
        processes = {name: subprocess.Popen(cmd) for name, cmd in commands.items()}  # noqa: S603
        stopping = False

        def stop(*_):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            while not stopping:
                dead = [name for name, p in processes.items() if p.poll() is not None]
                if dead:
                    self.stderr.write(f"{', '.join(dead)} stopped; stopping the rest.")
                    break
                time.sleep(0.5)
        finally:
            for p in processes.values():
                if p.poll() is None:
                    p.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + 15
            for p in processes.values():
                try:
                    p.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    p.kill()
            self.stdout.write("Stopped.")
