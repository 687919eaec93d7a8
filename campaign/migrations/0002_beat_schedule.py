"""Puts the worker heartbeat on the database schedule, where a GM can edit it in the admin."""

from django.db import migrations


def add_schedule(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every_minute, _ = IntervalSchedule.objects.get_or_create(every=1, period="minutes")
    PeriodicTask.objects.get_or_create(
        name="Worker heartbeat",
        defaults={"task": "campaign.heartbeat", "interval": every_minute, "kwargs": '{"name": "worker"}',
                  "description": "Shows GMs on the campaign page that the worker and beat are alive."},
    )


def remove_schedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name="Worker heartbeat").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]
    operations = [migrations.RunPython(add_schedule, remove_schedule)]
