"""The beat schedule lives in the database, and tasks are discovered per app."""

import json

import pytest
from django_celery_beat.models import PeriodicTask

from campaign.models import Heartbeat

pytestmark = pytest.mark.django_db


def test_schedule_lives_in_the_database_where_a_gm_can_edit_it():
    task = PeriodicTask.objects.get(name="Worker heartbeat")
    assert task.task == "campaign.heartbeat"
    assert task.enabled
    assert (task.interval.every, task.interval.period) == (1, "minutes")
    assert json.loads(task.kwargs) == {"name": "worker"}


def test_tasks_are_discovered_per_app():
    from config.celery import app

    app.loader.import_default_modules()
    assert "campaign.heartbeat" in app.tasks


def test_heartbeat_task_is_idempotent_apart_from_its_counter():
    from campaign.tasks import heartbeat

    heartbeat("unit")
    heartbeat("unit")
    assert Heartbeat.objects.filter(name="unit").count() == 1
    assert Heartbeat.objects.get(name="unit").beats == 2
