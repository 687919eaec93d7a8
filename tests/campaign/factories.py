"""factory_boy factories for the campaign app."""

from datetime import timedelta

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from campaign.economy import ledger as economy_ledger
from campaign.economy.rules import starting_morale
from campaign.models import (
    Army,
    ArmyDayActivity,
    Campaign,
    Commander,
    Day,
    Event,
    EventRecruitOffer,
    Item,
    Membership,
    Role,
    Unit,
    UnitType,
)


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


class CommanderFactory(factory.django.DjangoModelFactory):
    """A commander with a purse; `lunari=N` grants N through the ledger (the only way lunari appear)."""

    class Meta:
        model = Commander
        skip_postgeneration_save = True

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"Commander {n}")
    level = 2
    power = "Battlemage"
    morale = factory.LazyAttribute(lambda o: starting_morale(o.level))

    @factory.post_generation
    def lunari(obj, create, extracted, **kwargs):
        if not create:
            return
        economy_ledger.ledger_purse(commander=obj)
        if extracted:
            economy_ledger.ledger_grant(commander=obj, amount=extracted, reason="Starting purse", actor=None)


class ItemFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Item

    commander = factory.SubFactory(CommanderFactory)
    name = factory.Sequence(lambda n: f"Sword {n}")
    kind = Item.Kind.WEAPON


class UnitTypeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = UnitType

    campaign = None
    name = factory.Sequence(lambda n: f"Unit type {n}")
    strength = 2
    role = "Aggressor"
    path = "Steel"
    traits = factory.LazyFunction(list)


class ArmyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Army

    commander = factory.SubFactory(CommanderFactory)
    campaign = factory.LazyAttribute(lambda o: o.commander.campaign)
    name = factory.Sequence(lambda n: f"Army {n}")


class UnitFactory(factory.django.DjangoModelFactory):
    """A unit as it would be after recruiting (no payment: use services.unit_recruit for a paid one)."""

    class Meta:
        model = Unit

    commander = factory.SubFactory(CommanderFactory)
    campaign = factory.LazyAttribute(lambda o: o.commander.campaign)
    unit_type = factory.SubFactory(UnitTypeFactory)
    strength = factory.LazyAttribute(lambda o: o.unit_type.strength)
    army = None
    state = factory.LazyAttribute(lambda o: Unit.State.IN_ARMY if o.army else Unit.State.RESERVE)


class ArmyDayActivityFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ArmyDayActivity

    army = factory.SubFactory(ArmyFactory)
    day = factory.SubFactory(DayFactory)
    reason = ArmyDayActivity.Reason.FOUGHT


class EventRecruitOfferFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = EventRecruitOffer

    event = factory.SubFactory(EventFactory)
    unit_type = factory.SubFactory(UnitTypeFactory)


def open_day(event: Event, number: int = 1) -> Day:
    """The Event's open Day of that number (EventFactory makes no Day; services.event_create does)."""
    return Day.objects.get_or_create(event=event, number=number)[0]
