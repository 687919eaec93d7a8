"""Puts the event clock's tick on the database schedule (every minute), where a GM can edit it in the admin."""

from django.db import migrations


def add_schedule(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every_minute, _ = IntervalSchedule.objects.get_or_create(every=1, period="minutes")
    PeriodicTask.objects.get_or_create(
        name="Event clock tick",
        defaults={"task": "campaign.clock_tick", "interval": every_minute, "kwargs": "{}",
                  "description": "Processes every due in-game hour of every running Event, in order."},
    )


def remove_schedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name="Event clock tick").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0004_tactical_map"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]
    operations = [migrations.RunPython(add_schedule, remove_schedule)]
