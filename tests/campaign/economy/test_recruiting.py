"""Recruiting from an Event's recruit list, at the rules' prices, paid through the ledger."""

import re

import pytest
from django.core.exceptions import ValidationError

from campaign.campaigns.permissions import NotAllowed
from campaign.economy import selectors as economy_selectors
from campaign.economy import services as economy_services
from campaign.models import Account, AuditEntry, Event, LedgerTransaction, Unit
from tests.campaign.factories import (
    CommanderFactory,
    EventRecruitOfferFactory,
    MembershipFactory,
    UnitTypeFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def amira(campaign, player):
    return CommanderFactory(campaign=campaign, name="Amira", player=player, lunari=500)


def purse(commander) -> int:
    return Account.objects.get(commander=commander).balance


@pytest.mark.parametrize(("strength", "price"), [(1, 10), (2, 30), (3, 60), (4, 100), (5, 150)])
def test_recruiting_costs_the_table_price(event, amira, player, strength, price):
    unit_type = UnitTypeFactory(strength=strength)
    EventRecruitOfferFactory(event=event, unit_type=unit_type)
    unit = economy_services.unit_recruit(commander=amira, unit_type=unit_type, event=event, paid_by=amira, actor=player)
    assert purse(amira) == 500 - price
    assert unit.strength == strength
    assert unit.state == Unit.State.RESERVE
    assert unit.recruited_event == event
    txn = LedgerTransaction.objects.get(kind="recruitment")
    assert txn.paid_for == unit
    assert AuditEntry.objects.get(action="unit.recruit").data["price"] == price


@pytest.mark.parametrize(("strength", "price"), [(1, 8), (2, 24), (3, 48), (4, 80), (5, 120)])
def test_after_the_quest_the_price_is_lower(event, gm, amira, strength, price):
    unit_type = UnitTypeFactory(strength=strength, quest=True)
    offer = EventRecruitOfferFactory(event=event, unit_type=unit_type, by_quest=True)
    with pytest.raises(ValidationError, match="complete its quest first"):
        economy_services.unit_recruit(commander=amira, unit_type=unit_type, event=event, paid_by=amira, actor=None)
    assert economy_selectors.recruit_offer_quote(offer=offer) is None
    economy_services.recruit_offer_mark_quest(offer=offer, done=True, actor=gm)
    offer.refresh_from_db()
    assert economy_selectors.recruit_offer_quote(offer=offer) == price
    economy_services.unit_recruit(commander=amira, unit_type=unit_type, event=event, paid_by=amira, actor=None)
    assert purse(amira) == 500 - price
    offer.refresh_from_db()
    assert not offer.quest_done  # one completed quest recruits one unit


@pytest.mark.parametrize("strength", [0, 6, None])
def test_other_strengths_need_the_gm_to_price_them(event, gm, amira, strength):
    unit_type = UnitTypeFactory(strength=strength)
    offer = EventRecruitOfferFactory(event=event, unit_type=unit_type)
    with pytest.raises(ValidationError, match="ask a game master to price this offer"):
        economy_services.unit_recruit(commander=amira, unit_type=unit_type, event=event, paid_by=amira, actor=None)
    assert Unit.objects.count() == 0
    economy_services.recruit_offer_set(event=event, unit_type=unit_type, gm_price=45, actor=gm)
    offer.refresh_from_db()
    assert offer.gm_price == 45
    unit = economy_services.unit_recruit(commander=amira, unit_type=unit_type, event=event, paid_by=amira, actor=None)
    assert purse(amira) == 455
    assert unit.strength == strength


def test_only_units_on_the_recruit_list_of_a_running_event(campaign, event, amira):
    unit_type = UnitTypeFactory(name="Griffon Riders", strength=3)
    with pytest.raises(ValidationError, match="Griffon Riders is not on the recruit list of Spring Muster"):
        economy_services.unit_recruit(commander=amira, unit_type=unit_type, event=event, paid_by=amira, actor=None)
    EventRecruitOfferFactory(event=event, unit_type=unit_type)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.CLOSED)
    event.refresh_from_db()
    with pytest.raises(ValidationError, match="Spring Muster is over"):
        economy_services.unit_recruit(commander=amira, unit_type=unit_type, event=event, paid_by=amira, actor=None)


def test_not_enough_lunari_recruits_nothing(event, campaign):
    poor = CommanderFactory(campaign=campaign, name="Poor", lunari=25)
    unit_type = UnitTypeFactory(strength=2)
    EventRecruitOfferFactory(event=event, unit_type=unit_type)
    with pytest.raises(ValidationError, match=re.escape("Not enough lunari: recruiting costs 30, Poor has 25.")):
        economy_services.unit_recruit(commander=poor, unit_type=unit_type, event=event, paid_by=poor, actor=None)
    assert Unit.objects.count() == 0


def test_someone_else_may_pay_but_only_with_their_own_purse(event, campaign, amira, player):
    user = MembershipFactory(campaign=campaign, user=UserFactory(username="bastian")).user
    bastian = CommanderFactory(campaign=campaign, name="Bastian", player=user, lunari=100)
    unit_type = UnitTypeFactory(strength=2)
    EventRecruitOfferFactory(event=event, unit_type=unit_type)
    with pytest.raises(NotAllowed):
        economy_services.unit_recruit(commander=amira, unit_type=unit_type, event=event, paid_by=bastian, actor=player)
    unit = economy_services.unit_recruit(commander=amira, unit_type=unit_type, event=event, paid_by=bastian,
                                         actor=bastian.player)
    assert unit.commander == amira
    assert purse(bastian) == 70


def test_campaign_catalogue_types_from_another_campaign_cannot_be_offered(event, gm):
    foreign = UnitTypeFactory(campaign=CommanderFactory().campaign)
    with pytest.raises(ValidationError, match="another campaign"):
        economy_services.recruit_offer_set(event=event, unit_type=foreign, actor=gm)
