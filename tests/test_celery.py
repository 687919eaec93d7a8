"""Real tasks through real brokers to a real worker process, and the database schedule."""

from __future__ import annotations

import os
import uuid

import pytest
from celery import Celery

from campaign.models import Heartbeat
from tests.celery_worker import wait_for, worker_process

pytestmark = pytest.mark.django_db(transaction=True)


def _send_heartbeat(app: Celery, *, queue: str, name: str) -> None:
    app.send_task("campaign.heartbeat", kwargs={"name": name}, queue=queue)


@pytest.mark.redis
@pytest.mark.worker
def test_task_through_redis_reaches_a_real_worker():
    queue = f"test-{uuid.uuid4().hex[:8]}"
    redis_url = os.environ["REDIS_URL"]
    app = Celery("test-sender", broker=redis_url)
    with worker_process(queue=queue, redis_url=redis_url) as process:
        _send_heartbeat(app, queue=queue, name=queue)
        wait_for(lambda: Heartbeat.objects.filter(name=queue).exists(), timeout=90, process=process)
    assert Heartbeat.objects.get(name=queue).beats == 1


@pytest.mark.worker
def test_task_through_the_embedded_broker_reaches_a_real_worker(tmp_path):
    queue = f"test-{uuid.uuid4().hex[:8]}"
    folder = tmp_path / "broker"
    for sub in ("out", "processed", "control"):
        (folder / sub).mkdir(parents=True)
    app = Celery("test-sender", broker="filesystem://")
    app.conf.broker_transport_options = {"data_folder_in": str(folder / "out"),
                                         "data_folder_out": str(folder / "out"),
                                         "data_folder_processed": str(folder / "processed"),
                                         "control_folder": str(folder / "control")}
    with worker_process(queue=queue, broker_dir=folder) as process:
        _send_heartbeat(app, queue=queue, name=queue)
        wait_for(lambda: Heartbeat.objects.filter(name=queue).exists(), timeout=90, process=process)
