"""Start the whole system in one terminal: web server (gunicorn), Celery worker and Celery beat.

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


class Command(BaseCommand):
    help = "Run gunicorn, a Celery worker and Celery beat together until Ctrl-C."

    def add_arguments(self, parser):
        parser.add_argument("--bind", default=f"127.0.0.1:{os.environ.get('PORT', '8000')}")
        parser.add_argument("--concurrency", type=int, default=2)

    def handle(self, *args, bind: str, concurrency: int, **options):
        python = sys.executable
        bindir = os.path.dirname(python)
        commands = {
            "web": [os.path.join(bindir, "gunicorn"), "config.wsgi:application", "--bind", bind,
                    "--workers", "2", "--access-logfile", "-"],
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
