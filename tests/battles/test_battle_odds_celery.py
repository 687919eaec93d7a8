"""Battle odds fanned out as a Celery group: the merged chunks equal the serial run, exactly."""

from __future__ import annotations

import os
import uuid

import pytest
from celery import Celery

from battles.engine.battle_odds import battle_odds
from battles.tasks import battle_odds_parallel
from tests.battles.engine.test_protocol import full_config

POLICIES = ["random", "greedy"]


def test_eager_group_equals_the_serial_odds():
    app = Celery("test-eager")
    app.conf.task_always_eager = True
    config = full_config(verbose=False)
    assert battle_odds_parallel(config, POLICIES, 12, 3, seed=4, app=app) == battle_odds(config, POLICIES, 12, seed=4)


@pytest.mark.redis
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_chunks_through_redis_to_a_real_worker_merge_to_the_serial_odds():
    from tests.celery_worker import worker_process

    queue = f"test-odds-{uuid.uuid4().hex[:8]}"
    redis_url = os.environ["REDIS_URL"]
    app = Celery("test-sender", broker=redis_url, backend=redis_url)
    config = full_config()
    with worker_process(queue=queue, redis_url=redis_url) as process:
        try:
            fanned = battle_odds_parallel(config, POLICIES, 40, 4, seed=11, queue=queue, app=app, timeout=120)
        except Exception:
            process.terminate()
            print(process.communicate(timeout=20)[0][-4000:])
            raise
    serial = battle_odds(config, POLICIES, 40, seed=11)
    assert fanned == serial
    assert fanned.battles == 40
