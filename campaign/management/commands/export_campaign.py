from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaign.models import Campaign
from campaign.transfer.export import campaign_export


class Command(BaseCommand):
    help = "Write a campaign's export (the zip the GM's “Download export” gives) to a file."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The campaign's slug (its address: /c/<slug>/).")
        parser.add_argument("file", help="Where to write the zip, e.g. the-sultans-might.zip.")

    def handle(self, *args, **options):
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise CommandError(f"There is no campaign with the slug {options['slug']!r}.")
        target = Path(options["file"])
        if not target.parent.is_dir():
            raise CommandError(f"The folder {target.parent} does not exist: create it or name another file.")
        with target.open("wb") as into:
            campaign_export(campaign=campaign, actor=None, into=into)
        self.stdout.write(self.style.SUCCESS(f"Exported {campaign.name} to {target}."))
