"""Recruiting from an Event's recruit list, at the rules' prices, paid through the ledger."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaign.campaigns.permissions import NotAllowed
from campaign.economy import quests
from campaign.economy import selectors as economy_selectors
from campaign.economy import services as economy_services
from campaign.models import Account, AuditEntry, Event, LedgerTransaction, QuestCompletion, Unit
from tests.campaign.factories import (
    CommanderFactory,
    EventRecruitOfferFactory,
    MembershipFactory,
    UnitTypeFactory,
    UserFactory,
)
from tests.helpers import api_for

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
    """army-combat.txt: "Upon completing a unit's quest, someone must still pay a recruitment cost, but this will
    usually be reduced"."""
    unit_type = UnitTypeFactory(strength=strength, quest=True)
    offer = EventRecruitOfferFactory(event=event, unit_type=unit_type, by_quest=True)
    with pytest.raises(ValidationError, match="a character must do its quest for Amira first"):
        economy_services.unit_recruit(commander=amira, unit_type=unit_type, event=event, paid_by=amira, actor=None)
    assert economy_selectors.recruit_offer_quote(offer=offer) is None
    done = quests.quest_record(offer=offer, commander=amira, character="Amira", actor=gm)
    assert economy_selectors.recruit_offer_quote(offer=offer, quests_done=1) == price
    unit = economy_services.unit_recruit(commander=amira, unit_type=unit_type, event=event, paid_by=amira,
                                         actor=None)
    assert purse(amira) == 500 - price
    done.refresh_from_db()
    assert done.unit == unit
    with pytest.raises(ValidationError, match="must do its quest"):  # one quest done recruits one unit
        economy_services.unit_recruit(commander=amira, unit_type=unit_type, event=event, paid_by=amira, actor=None)


def test_only_the_commander_the_quest_was_done_for_gets_the_quest_price(event, gm, campaign, amira):
    """A quest is done by a character: only that character's commander gets the quest price for that offer."""
    bastian = CommanderFactory(campaign=campaign, name="Bastian", lunari=500)
    knights = UnitTypeFactory(name="Knights", strength=4, quest=True)
    offer = EventRecruitOfferFactory(event=event, unit_type=knights, by_quest=True)
    quests.quest_record(offer=offer, commander=amira, character="Sir Yusuf, Amira's champion", actor=gm)
    assert quests.recruit_offers_with_quests(event=event, commander=amira) == [(offer, 1)]
    assert quests.recruit_offers_with_quests(event=event, commander=bastian) == [(offer, 0)]
    with pytest.raises(ValidationError, match="for Bastian first"):
        economy_services.unit_recruit(commander=bastian, unit_type=knights, event=event, paid_by=bastian,
                                      actor=None)
    with pytest.raises(ValidationError, match="for Bastian first"):  # nor by paying for Bastian's unit
        economy_services.unit_recruit(commander=bastian, unit_type=knights, event=event, paid_by=amira, actor=None)
    economy_services.unit_recruit(commander=amira, unit_type=knights, event=event, paid_by=bastian, actor=None)
    assert purse(bastian) == 500 - 80  # anyone may pay; the quest price is Amira's


def test_only_a_game_master_records_a_quest_and_may_take_back_an_unused_one(event, gm, amira, player):
    knights = UnitTypeFactory(name="Knights", strength=4, quest=True)
    offer = EventRecruitOfferFactory(event=event, unit_type=knights, by_quest=True)
    with pytest.raises(NotAllowed, match="Only a game master"):
        quests.quest_record(offer=offer, commander=amira, actor=player)
    done = quests.quest_record(offer=offer, commander=amira, actor=gm)
    assert done.character == "Amira"  # the commander's own character by default
    quests.quest_unrecord(completion=done, actor=gm)
    assert not QuestCompletion.objects.exists()
    plain = EventRecruitOfferFactory(event=event, unit_type=UnitTypeFactory(strength=1))
    with pytest.raises(ValidationError, match="is not recruited by quest"):
        quests.quest_record(offer=plain, commander=amira, actor=gm)


def test_quests_from_the_page_and_the_api(client, event, gm, amira):
    knights = UnitTypeFactory(name="Knights", strength=4, quest=True)
    offer = EventRecruitOfferFactory(event=event, unit_type=knights, by_quest=True, note="Escort the abbess.")
    slug = amira.campaign.slug
    client.force_login(amira.player)
    page = client.get(reverse("commander-detail", args=[slug, amira.pk])).content.decode()
    assert "Quest first" in page
    assert f'data-testid="quest-record-{offer.pk}"' not in page  # players do not record quests
    client.force_login(gm)
    response = client.post(reverse("quest-record", args=[slug, amira.pk, offer.pk]), {"character": "Sir Yusuf"},
                           follow=True)
    body = response.content.decode()
    assert "Sir Yusuf did the quest for Knights: Amira may recruit one at the quest price." in body
    assert "Recruit · 80" in body
    api = api_for(gm)
    response = api.post(f"/api/commanders/{amira.pk}/quest/", {"offer": offer.pk, "character": "Noor"}, format="json")
    assert response.status_code == 201, response.content
    assert (response.json()["character"], response.json()["unit"]) == ("Noor", None)
    refused = api_for(amira.player).post(f"/api/commanders/{amira.pk}/quest/", {"offer": offer.pk}, format="json")
    assert refused.status_code == 403


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
