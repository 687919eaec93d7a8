"""Retinues are read from the ledger: one character paid the recruitment, every training and every upkeep."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign import ledger, selectors, services
from campaign.models import LedgerTransaction, UpkeepArrears
from campaign.permissions import NotAllowed
from tests.campaign.factories import (
    ArmyDayActivityFactory,
    ArmyFactory,
    CommanderFactory,
    EventFactory,
    EventRecruitOfferFactory,
    MembershipFactory,
    UnitFactory,
    UnitTypeFactory,
    UserFactory,
    open_day,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def amira(campaign, player):
    return CommanderFactory(campaign=campaign, name="Amira", player=player, lunari=1000)


@pytest.fixture
def bastian(campaign):
    user = MembershipFactory(campaign=campaign, user=UserFactory(username="bastian")).user
    return CommanderFactory(campaign=campaign, name="Bastian", player=user, lunari=1000)


@pytest.fixture
def spearmen(event):
    unit_type = UnitTypeFactory(name="Spearmen", strength=2)
    EventRecruitOfferFactory(event=event, unit_type=unit_type)
    return unit_type


def recruit(commander, unit_type, event, paid_by):
    return services.unit_recruit(commander=commander, unit_type=unit_type, event=event, paid_by=paid_by, actor=None)


def lead_and_close(unit, day):
    army = ArmyFactory(commander=unit.commander)
    services.army_assign_unit(unit=unit, army=army, actor=None)
    ArmyDayActivityFactory(army=army, day=day)
    return services.day_close(day=day, actor=None)


def test_recruited_trained_and_kept_by_one_character_is_their_retinue(event, amira, spearmen):
    unit = recruit(amira, spearmen, event, amira)
    assert selectors.unit_retinue_owner(unit=unit) == amira
    services.unit_train(unit=unit, event=event, paid_by=amira, actor=None)
    lead_and_close(unit, open_day(event))
    assert selectors.unit_retinue_owner(unit=unit) == amira


def test_a_unit_someone_else_paid_for_is_the_payers_retinue(event, amira, bastian, spearmen):
    unit = recruit(amira, spearmen, event, bastian)  # used by Amira, paid for by Bastian
    assert selectors.unit_retinue_owner(unit=unit) == bastian


def test_two_payers_make_no_retinue(event, amira, bastian, spearmen):
    unit = recruit(amira, spearmen, event, amira)
    services.unit_train(unit=unit, event=event, paid_by=bastian, actor=None)
    assert selectors.unit_retinue_owner(unit=unit) is None


def test_upkeep_paid_by_the_commander_breaks_a_retinue_of_someone_else(event, amira, bastian, spearmen):
    unit = recruit(amira, spearmen, event, bastian)
    lead_and_close(unit, open_day(event))  # Amira's army: Amira pays the upkeep
    assert selectors.unit_retinue_owner(unit=unit) is None


def test_a_unit_nobody_paid_for_is_no_retinue(amira):
    assert selectors.unit_retinue_owner(unit=UnitFactory(commander=amira)) is None


def test_a_reversed_payment_no_longer_counts(event, gm, amira, spearmen):
    unit = recruit(amira, spearmen, event, amira)
    training = services.unit_train(unit=unit, event=event, paid_by=amira, actor=None)
    txn = LedgerTransaction.objects.get(kind="training", paid_for_id=training.pk)
    ledger.ledger_reverse(transaction_to_reverse=txn, reason="Refunded", actor=gm)
    assert selectors.unit_retinue_owner(unit=unit) is None


def test_unpaid_upkeep_breaks_it_until_the_same_character_settles(campaign, event, gm, spearmen):
    poor = CommanderFactory(campaign=campaign, name="Poor", lunari=30)
    unit = recruit(poor, spearmen, event, poor)  # 30: the purse is empty
    lead_and_close(unit, open_day(event))
    assert selectors.unit_retinue_owner(unit=unit) is None
    ledger.ledger_grant(commander=poor, amount=10, reason="Patron", actor=gm)
    services.upkeep_arrears_settle(arrears=UpkeepArrears.objects.get(commander=poor), paid_by=poor, actor=gm)
    assert selectors.unit_retinue_owner(unit=unit) == poor


def test_upkeep_covered_by_the_commanders_morale_keeps_the_retinue(event, amira, spearmen):
    unit = recruit(amira, spearmen, event, amira)
    day = open_day(event)
    services.upkeep_pledge_morale(commander=amira, day=day, points=2, actor=None)
    lead_and_close(unit, day)
    assert selectors.unit_retinue_owner(unit=unit) == amira


def test_the_owner_may_name_it_and_no_one_else(event, player, amira, bastian, spearmen):
    unit = recruit(amira, spearmen, event, amira)
    with pytest.raises(NotAllowed, match="Only Amira, whose retinue this is"):
        services.unit_name_retinue(unit=unit, name="Bastian's Boys", actor=bastian.player)
    services.unit_name_retinue(unit=unit, name="The Ford Wardens", actor=player)
    unit.refresh_from_db()
    assert unit.name == "The Ford Wardens"
    lent = recruit(amira, spearmen, event, bastian)
    with pytest.raises(NotAllowed):
        services.unit_name_retinue(unit=lent, name="Mine", actor=player)  # Amira holds it, Bastian paid
    services.unit_name_retinue(unit=lent, name="Bastian's Lancers", actor=bastian.player)
    shared = recruit(amira, spearmen, event, amira)
    services.unit_train(unit=shared, event=event, paid_by=bastian, actor=None)
    with pytest.raises(ValidationError, match="nobody's retinue"):
        services.unit_name_retinue(unit=shared, name="Ours", actor=player)


def test_the_bulk_version_agrees_and_its_queries_do_not_grow(campaign, amira, bastian, spearmen, event):
    later = EventFactory(campaign=campaign, starts_at=event.starts_at + timedelta(days=40))
    EventRecruitOfferFactory(event=later, unit_type=spearmen)
    units = []
    for i in range(12):
        unit = recruit(amira, spearmen, event, amira if i % 3 else bastian)
        if i % 4 == 0:
            services.unit_train(unit=unit, event=later, paid_by=bastian, actor=None)
        units.append(unit)
    with CaptureQueriesContext(connection) as few:
        selectors.unit_retinue_owners(units=units[:2])
    with CaptureQueriesContext(connection) as many:
        owners = selectors.unit_retinue_owners(units=units)
    assert len(few) == len(many)
    assert owners == {unit.pk: selectors.unit_retinue_owner(unit=unit) for unit in units}
    assert owners[units[1].pk] == amira
    assert owners[units[3].pk] == bastian
    assert owners[units[4].pk] is None  # Amira recruited, Bastian trained
