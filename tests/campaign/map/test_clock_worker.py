"""A real Celery worker and beat (DatabaseScheduler) against Redis run the clock: the army arrives at the hour
the order preview promised."""

from __future__ import annotations

import os
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from campaign.map import clock, orders
from campaign.models import Event, HourLog, MoveOrder
from tests.campaign.factories import EventFactory
from tests.campaign.map_fixtures import make_army, make_map, ready
from tests.celery_worker import beat_process, wait_for, worker_process

pytestmark = [pytest.mark.redis, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_beat_ticks_the_clock_and_the_army_arrives_when_promised(campaign, tmp_path):
    queue = f"clock-{uuid.uuid4().hex[:8]}"
    redis_url = os.environ["REDIS_URL"]
    event = ready(EventFactory(campaign=campaign, minutes_per_hour=1))
    board = make_map(campaign)
    army = make_army(board, at=(2, 2))
    order = orders.army_order_move(army=army, kind=MoveOrder.Kind.POINT, x=8, y=2, actor=None)
    assert order.arrival_hour == 2
    # The clock started 110 seconds ago: hour 1 is due at once, hour 2 ten seconds from now.
    clock.event_clock_start(event=event, actor=None, now=timezone.now() - timedelta(seconds=110))
    PeriodicTask.objects.update(enabled=False)
    every_two_seconds, _ = IntervalSchedule.objects.get_or_create(every=2, period=IntervalSchedule.SECONDS)
    PeriodicTask.objects.create(name=f"Test tick {queue}", task="campaign.clock_tick", interval=every_two_seconds,
                                queue=queue)
    with worker_process(queue=queue, redis_url=redis_url) as worker, beat_process(redis_url=redis_url,
                                                                                  pidfile=tmp_path / "beat.pid"):
        wait_for(lambda: Event.objects.get(pk=event.pk).current_hour >= 1, timeout=90, process=worker)
        assert MoveOrder.objects.get(pk=order.pk).status == MoveOrder.Status.ACTIVE
        wait_for(lambda: MoveOrder.objects.get(pk=order.pk).status == MoveOrder.Status.ARRIVED, timeout=90,
                 process=worker)
    order.refresh_from_db()
    army.refresh_from_db()
    assert order.done_hour == order.arrival_hour == 2
    assert (round(army.x, 6), army.y) == (8.0, 2.0)
    assert [e["kind"] for e in HourLog.objects.get(event=event, hour=2).entries] == ["arrived"]
    assert HourLog.objects.filter(event=event, hour=1).count() == 1
