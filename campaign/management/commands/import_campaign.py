from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from campaign.transfer.import_ import campaign_import


class Command(BaseCommand):
    help = "Bring in a campaign from an export zip (into an instance without that campaign)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="The export zip.")

    def handle(self, *args, **options):
        source = Path(options["file"])
        if not source.is_file():
            raise CommandError(f"There is no file {source}.")
        try:
            with source.open("rb") as upload:
                campaign = campaign_import(upload=upload, actor=None)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        self.stdout.write(self.style.SUCCESS(f"Imported {campaign.name} at /c/{campaign.slug}/."))
