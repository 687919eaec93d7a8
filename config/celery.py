"""The Celery app: configured from Django settings (CELERY_*), tasks discovered in each app; and the one way
requests queue work: after their transaction commits, never waiting on a broker that does not answer."""

import logging
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("muster")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

log = logging.getLogger(__name__)


def enqueue_on_commit(task_name: str, *args) -> None:
    """Queue the task named `task_name` once the current transaction commits. A broker that does not answer
    is logged, not raised: the change the request made stands, and a beat sweep does the queued work when the
    broker is back (settings bound how long one attempt may take)."""
    from django.db import transaction

    def send() -> None:
        try:
            app.signature(task_name, args=args).delay()
        except Exception:  # broker or result store unreachable: the sweep catches up
            log.warning("Could not queue %s%r: the broker does not answer; the sweep will do it later.",
                        task_name, args, exc_info=True)

    transaction.on_commit(send)
