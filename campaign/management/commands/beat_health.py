"""Exit 0 if Celery beat has sent a scheduled task recently (for container health checks)."""

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django_celery_beat.models import PeriodicTask


class Command(BaseCommand):
    help = "Check that Celery beat sent an enabled scheduled task within --max-age seconds."

    def add_arguments(self, parser):
        parser.add_argument("--max-age", type=int, default=300)

    def handle(self, *args, max_age: int, **options):
        since = timezone.now() - timedelta(seconds=max_age)
        if not PeriodicTask.objects.filter(enabled=True, last_run_at__gte=since).exists():
            raise CommandError(f"Celery beat has sent no scheduled task in the last {max_age} seconds.")
        self.stdout.write("beat ok")
