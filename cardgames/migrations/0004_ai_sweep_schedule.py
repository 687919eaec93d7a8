"""Puts the card-game AI sweep on the database schedule (every minute): AI seats move even when the broker was
down as the move was queued."""

from django.db import migrations


def add_schedule(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every_minute, _ = IntervalSchedule.objects.get_or_create(every=1, period="minutes")
    PeriodicTask.objects.get_or_create(
        name="Card-game AI sweep",
        defaults={"task": "cardgames.match_ai_sweep", "interval": every_minute, "kwargs": "{}",
                  "description": "AI seats of active matches move where it is their turn and no queued task did it."},
    )


def remove_schedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name="Card-game AI sweep").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("cardgames", "0003_seat_commander_and_stake"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]
    operations = [migrations.RunPython(add_schedule, remove_schedule)]
