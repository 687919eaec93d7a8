"""The demo campaign that `make run` loads, so a newcomer sees Muster working within a minute.

Each capability adds its part here (commanders, the map, a battle, a card game).
Loading is idempotent: a campaign already loaded is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from campaign import services
from campaign.models import Campaign, Event, Role

DEMO_SLUG = "the-sultans-might"


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    role: str


DEMO_LOGINS = (
    DemoLogin("gm", "muster-gm", Role.GM),
    DemoLogin("amira", "muster-amira", Role.PLAYER),
    DemoLogin("bastian", "muster-bastian", Role.PLAYER),
)


def _user(login: DemoLogin):
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(username=login.username)
    if created:
        user.set_password(login.password)
        user.is_staff = login.role == Role.GM
        user.save()
    return user


@transaction.atomic
def load_demo() -> tuple[Campaign, tuple[DemoLogin, ...]]:
    """Create (once) the demo users, campaign, a running Event with its first Day."""
    users = {login.username: _user(login) for login in DEMO_LOGINS}
    existing = Campaign.objects.filter(slug=DEMO_SLUG).first()
    if existing:
        return existing, DEMO_LOGINS
    gm = users["gm"]
    campaign = services.campaign_create(
        name="The Sultan's Might", creator=gm,
        description="Two commanders contest the river valley between the Sultan's border forts.",
    )
    Campaign.objects.filter(pk=campaign.pk).update(slug=DEMO_SLUG)
    campaign.refresh_from_db()
    for login in DEMO_LOGINS[1:]:
        services.membership_add(campaign=campaign, user=users[login.username], role=login.role, actor=gm)
    now = timezone.now()
    event = services.event_create(campaign=campaign, name="Autumn Muster", starts_at=now - timedelta(hours=2),
                                  ends_at=now + timedelta(days=2), minutes_per_hour=60, actor=gm)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    return campaign, DEMO_LOGINS
