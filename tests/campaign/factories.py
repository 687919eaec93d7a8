"""factory_boy factories for the campaign app."""

from datetime import timedelta

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from campaign.models import Campaign, Day, Event, Membership, Role


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pass-word-123")


class CampaignFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Campaign

    name = factory.Sequence(lambda n: f"Campaign {n}")
    slug = factory.Sequence(lambda n: f"campaign-{n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    campaign = factory.SubFactory(CampaignFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.PLAYER


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"Event {n}")
    starts_at = factory.LazyFunction(timezone.now)
    ends_at = factory.LazyAttribute(lambda o: o.starts_at + timedelta(days=2))


class DayFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Day

    event = factory.SubFactory(EventFactory)
    number = 1
