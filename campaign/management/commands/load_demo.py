from django.core.management.base import BaseCommand

from battles.demo import load_demo_battles
from campaign.demo import load_demo
from campaign.notifications.demo import load_demo_notifications
from cardgames.demo import load_demo_matches


class Command(BaseCommand):
    help = "Load the demo campaign (idempotent) and print its logins."

    def handle(self, *args, **options):
        campaign, logins = load_demo()
        load_demo_matches(campaign=campaign)
        load_demo_battles(campaign=campaign)
        load_demo_notifications(campaign=campaign)
        self.stdout.write(self.style.SUCCESS(f"Demo campaign: {campaign.name}"))
        for login in logins:
            self.stdout.write(f"  {login.role:<7} login: {login.username:<10} password: {login.password}")
