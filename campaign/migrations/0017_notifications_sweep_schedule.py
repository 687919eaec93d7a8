"""Puts the notifications' catch-up on the database schedule (every five minutes): what a broker that did not
answer kept from being told."""

from django.db import migrations


def add_schedule(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every_five_minutes, _ = IntervalSchedule.objects.get_or_create(every=5, period="minutes")
    PeriodicTask.objects.get_or_create(
        name="Notifications catch-up",
        defaults={"task": "campaign.notifications_sweep", "interval": every_five_minutes, "kwargs": "{}",
                  "description": "Tells what recent happenings would have told when the broker did not answer."},
    )


def remove_schedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name="Notifications catch-up").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0016_notifications"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]
    operations = [migrations.RunPython(add_schedule, remove_schedule)]
