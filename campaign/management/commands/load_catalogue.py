from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from campaign.catalogue.entries import DEFAULT_CATALOGUE, catalogue_load_file
from campaign.models import Campaign


class Command(BaseCommand):
    help = "Load the unit catalogue (idempotent): the global defaults, or one campaign's own catalogue."

    def add_arguments(self, parser):
        parser.add_argument("--campaign", help="The slug of the campaign whose own catalogue to load.")
        parser.add_argument("--file", default=str(DEFAULT_CATALOGUE), help="A catalogue JSON file.")

    def handle(self, *args, **options):
        campaign = None
        if options["campaign"]:
            campaign = Campaign.objects.filter(slug=options["campaign"]).first()
            if campaign is None:
                raise CommandError(f"There is no campaign with the slug {options['campaign']!r}.")
        try:
            result = catalogue_load_file(path=options["file"], campaign=campaign)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        scope = campaign.name if campaign else "the default catalogue"
        self.stdout.write(self.style.SUCCESS(
            f"Loaded {result.total} unit types into {scope}: {len(result.created)} new, "
            f"{len(result.updated)} changed, {len(result.unchanged)} unchanged."))
