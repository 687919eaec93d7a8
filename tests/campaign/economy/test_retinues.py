"""Retinues are read from the ledger: one character paid the recruitment, every training and every upkeep."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.campaigns.permissions import NotAllowed
from campaign.economy import ledger as economy_ledger
from campaign.economy import retinue_owners, upkeep
from campaign.economy import selectors as economy_selectors
from campaign.economy import services as economy_services
from campaign.map import armies
from campaign.models import AuditEntry, LedgerTransaction, Unit, UpkeepArrears
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
    return economy_services.unit_recruit(commander=commander, unit_type=unit_type, event=event, paid_by=paid_by,
                                         actor=None)


def lead_and_close(unit, day):
    army = ArmyFactory(commander=unit.commander)
    armies.army_assign_unit(unit=unit, army=army, actor=None)
    ArmyDayActivityFactory(army=army, day=day)
    return upkeep.day_close(day=day, actor=None)


def test_recruited_trained_and_kept_by_one_character_is_their_retinue(event, amira, spearmen):
    unit = recruit(amira, spearmen, event, amira)
    assert economy_selectors.unit_retinue_owner(unit=unit) == amira
    economy_services.unit_train(unit=unit, event=event, paid_by=amira, actor=None)
    lead_and_close(unit, open_day(event))
    assert economy_selectors.unit_retinue_owner(unit=unit) == amira


def test_a_unit_someone_else_paid_for_is_the_payers_retinue(event, amira, bastian, spearmen):
    unit = recruit(amira, spearmen, event, bastian)  # used by Amira, paid for by Bastian
    assert economy_selectors.unit_retinue_owner(unit=unit) == bastian


def test_two_payers_make_no_retinue(event, amira, bastian, spearmen):
    unit = recruit(amira, spearmen, event, amira)
    economy_services.unit_train(unit=unit, event=event, paid_by=bastian, actor=None)
    assert economy_selectors.unit_retinue_owner(unit=unit) is None


def test_upkeep_paid_by_the_commander_breaks_a_retinue_of_someone_else(event, amira, bastian, spearmen):
    unit = recruit(amira, spearmen, event, bastian)
    lead_and_close(unit, open_day(event))  # Amira's army: Amira pays the upkeep
    assert economy_selectors.unit_retinue_owner(unit=unit) is None


def test_a_unit_nobody_paid_for_is_no_retinue(amira):
    assert economy_selectors.unit_retinue_owner(unit=UnitFactory(commander=amira)) is None


def test_a_reversed_payment_no_longer_counts(event, gm, amira, spearmen):
    unit = recruit(amira, spearmen, event, amira)
    training = economy_services.unit_train(unit=unit, event=event, paid_by=amira, actor=None)
    txn = LedgerTransaction.objects.get(kind="training", paid_for_id=training.pk)
    economy_ledger.ledger_reverse(transaction_to_reverse=txn, reason="Refunded", actor=gm)
    assert economy_selectors.unit_retinue_owner(unit=unit) is None


def test_unpaid_upkeep_breaks_it_until_the_same_character_settles(campaign, event, gm, spearmen):
    poor = CommanderFactory(campaign=campaign, name="Poor", lunari=30)
    unit = recruit(poor, spearmen, event, poor)  # 30: the purse is empty
    lead_and_close(unit, open_day(event))
    assert economy_selectors.unit_retinue_owner(unit=unit) is None
    economy_ledger.ledger_grant(commander=poor, amount=10, reason="Patron", actor=gm)
    upkeep.upkeep_arrears_settle(arrears=UpkeepArrears.objects.get(commander=poor), paid_by=poor, actor=gm)
    assert economy_selectors.unit_retinue_owner(unit=unit) == poor


def test_upkeep_covered_by_the_commanders_morale_keeps_the_retinue(event, amira, spearmen):
    unit = recruit(amira, spearmen, event, amira)
    day = open_day(event)
    upkeep.upkeep_pledge_morale(commander=amira, day=day, points=2, actor=None)
    lead_and_close(unit, day)
    assert economy_selectors.unit_retinue_owner(unit=unit) == amira


def test_the_owner_may_name_it_and_no_one_else(event, player, amira, bastian, spearmen):
    unit = recruit(amira, spearmen, event, amira)
    with pytest.raises(NotAllowed, match="Only Amira, whose retinue this is"):
        economy_services.unit_name_retinue(unit=unit, name="Bastian's Boys", actor=bastian.player)
    economy_services.unit_name_retinue(unit=unit, name="The Ford Wardens", actor=player)
    unit.refresh_from_db()
    assert unit.name == "The Ford Wardens"
    lent = recruit(amira, spearmen, event, bastian)
    with pytest.raises(NotAllowed):
        economy_services.unit_name_retinue(unit=lent, name="Mine", actor=player)  # Amira holds it, Bastian paid
    economy_services.unit_name_retinue(unit=lent, name="Bastian's Lancers", actor=bastian.player)
    shared = recruit(amira, spearmen, event, amira)
    economy_services.unit_train(unit=shared, event=event, paid_by=bastian, actor=None)
    with pytest.raises(ValidationError, match="nobody's retinue"):
        economy_services.unit_name_retinue(unit=shared, name="Ours", actor=player)


def test_the_bulk_version_agrees_and_its_queries_do_not_grow(campaign, amira, bastian, spearmen, event):
    later = EventFactory(campaign=campaign, starts_at=event.starts_at + timedelta(days=40))
    EventRecruitOfferFactory(event=later, unit_type=spearmen)
    units = []
    for i in range(12):
        unit = recruit(amira, spearmen, event, amira if i % 3 else bastian)
        if i % 4 == 0:
            economy_services.unit_train(unit=unit, event=later, paid_by=bastian, actor=None)
        units.append(unit)
    with CaptureQueriesContext(connection) as few:
        economy_selectors.unit_retinue_owners(units=units[:2])
    with CaptureQueriesContext(connection) as many:
        owners = economy_selectors.unit_retinue_owners(units=units)
    assert len(few) == len(many)
    assert owners == {unit.pk: economy_selectors.unit_retinue_owner(unit=unit) for unit in units}
    assert owners[units[1].pk] == amira
    assert owners[units[3].pk] == bastian
    assert owners[units[4].pk] is None  # Amira recruited, Bastian trained



def test_a_forgiven_upkeep_debt_breaks_it(campaign, event, gm, spearmen):
    poor = CommanderFactory(campaign=campaign, name="Poor", lunari=30)
    unit = recruit(poor, spearmen, event, poor)
    lead_and_close(unit, open_day(event))
    upkeep.upkeep_arrears_forgive(arrears=UpkeepArrears.objects.get(commander=poor), note="Famine", actor=gm)
    assert economy_selectors.unit_retinue_owner(unit=unit) is None


def test_a_debt_settled_by_someone_else_makes_two_payers(campaign, event, gm, bastian, spearmen):
    poor = CommanderFactory(campaign=campaign, name="Poor", lunari=30)
    unit = recruit(poor, spearmen, event, poor)
    lead_and_close(unit, open_day(event))
    upkeep.upkeep_arrears_settle(arrears=UpkeepArrears.objects.get(commander=poor), paid_by=bastian, actor=None)
    assert economy_selectors.unit_retinue_owner(unit=unit) is None


@pytest.mark.parametrize("kind", ["recruitment", "upkeep"])
def test_a_reversed_recruitment_or_upkeep_no_longer_counts(kind, event, gm, amira, spearmen):
    unit = recruit(amira, spearmen, event, amira)
    lead_and_close(unit, open_day(event))
    assert economy_selectors.unit_retinue_owner(unit=unit) == amira
    economy_ledger.ledger_reverse(transaction_to_reverse=LedgerTransaction.objects.get(kind=kind), reason="Refunded",
                                  actor=gm)
    assert economy_selectors.unit_retinue_owner(unit=unit) is None


def test_one_query_whatever_the_units_trainings_and_bills(campaign, event, amira, bastian, spearmen):
    """Trainings, upkeep lines, bills paid, covered by Morale or owed, and owners given or not: one query. The
    owners the caller passes are those returned; any other is read in the same query. A page's read of units
    finds the same owners."""
    day = open_day(event)
    gift = recruit(amira, spearmen, event, bastian)
    economy_selectors.unit_retinue_owners(units=[gift])  # content types are read once per process
    with CaptureQueriesContext(connection) as few:
        assert economy_selectors.unit_retinue_owners(units=[gift], commanders={amira.pk: amira}) == {gift.pk: bastian}
    poor = CommanderFactory(campaign=campaign, name="Poor", lunari=30)
    units = [recruit(commander, spearmen, event, commander) for commander in (amira, amira, bastian, poor)]
    for unit in units[:2]:
        economy_services.unit_train(unit=unit, event=event, paid_by=unit.commander, actor=None)
    for commander in (amira, bastian, poor):
        army = ArmyFactory(commander=commander)
        for unit in units:
            if unit.commander_id == commander.pk:
                armies.army_assign_unit(unit=Unit.objects.get(pk=unit.pk), army=army, actor=None)
        ArmyDayActivityFactory(army=army, day=day)
    upkeep.upkeep_pledge_morale(commander=bastian, day=day, points=2, actor=None)
    bills = {bill.commander_id: bill.amount_due for bill in upkeep.day_close(day=day, actor=None).bills}
    assert bills[bastian.pk] == 0  # Bastian's Morale covers it all
    with CaptureQueriesContext(connection) as many:
        owners = economy_selectors.unit_retinue_owners(units=[gift, *units], commanders={amira.pk: amira})
    assert len(few) == len(many) == 1
    assert owners == {gift.pk: bastian, units[0].pk: amira, units[1].pk: amira, units[2].pk: bastian,
                      units[3].pk: None}  # Poor owes their upkeep
    assert owners[units[0].pk] is amira
    added = Unit.objects.filter(pk__in=owners).annotate(owner_id=retinue_owners.retinue_owner_id())  # as a page reads
    assert dict(added.values_list("pk", "owner_id")) == {pk: getattr(owner, "pk", None) for pk, owner in owners.items()}


# --- Fair Escape: 1 Influence, or a retinue unit takes -2 Strength instead ---------------------------------


def test_fair_escape_spends_one_influence(amira, player):
    amira.influence = 2
    amira.save(update_fields=["influence"])
    economy_services.commander_fair_escape(commander=amira, actor=player)
    amira.refresh_from_db()
    assert amira.influence == 1
    assert AuditEntry.objects.filter(action="commander.fair_escape").get().data == {"commander": amira.pk,
                                                                                    "influence": 1}


def test_fair_escape_with_no_influence_is_refused_with_the_retinue_way_out(amira, player):
    with pytest.raises(ValidationError, match="no Influence left for Fair Escape: one of their retinue units"):
        economy_services.commander_fair_escape(commander=amira, actor=player)


def test_a_retinue_takes_minus_two_strength_instead_and_dies_at_zero(event, amira, player):
    """Retinues: instead of spending Influence, reduce the unit's Strength by 2; at 0 or less it is Killed."""
    knights = UnitTypeFactory(name="Knights", strength=4)
    EventRecruitOfferFactory(event=event, unit_type=knights)
    unit = recruit(amira, knights, event, amira)
    economy_services.commander_fair_escape(commander=amira, retinue_unit=unit, actor=player)
    unit.refresh_from_db()
    assert (unit.strength, unit.state) == (2, Unit.State.RESERVE)
    economy_services.commander_fair_escape(commander=amira, retinue_unit=unit, actor=player)
    unit.refresh_from_db()
    assert unit.state == Unit.State.KILLED
    amira.refresh_from_db()
    assert amira.influence == 0
    with pytest.raises(ValidationError, match="Only a living unit of Amira's own retinue"):
        economy_services.commander_fair_escape(commander=amira, retinue_unit=unit, actor=player)


def test_only_the_characters_own_retinue_can_pay(event, amira, bastian, spearmen, player):
    gift = recruit(amira, spearmen, event, bastian)  # Bastian paid: nobody's retinue
    with pytest.raises(ValidationError, match="Only a living unit of Amira's own retinue"):
        economy_services.commander_fair_escape(commander=amira, retinue_unit=gift, actor=player)
    gift.refresh_from_db()
    assert gift.strength == 2


def test_fair_escape_is_for_player_characters_and_their_own_player(campaign, amira, bastian, player):
    npc = CommanderFactory(campaign=campaign, name="Warden", player=None, influence=3)
    with pytest.raises(ValidationError, match="Fair Escape is for player characters"):
        economy_services.commander_fair_escape(commander=npc, actor=None)
    with pytest.raises(NotAllowed, match="Only Bastian's player or a game master"):
        economy_services.commander_fair_escape(commander=bastian, actor=player)


def test_fair_escape_through_the_commander_page(client, event, amira, player, outsider):
    knights = UnitTypeFactory(name="Knights", strength=5)
    EventRecruitOfferFactory(event=event, unit_type=knights)
    unit = recruit(amira, knights, event, amira)
    url = reverse("commander-detail", args=[amira.campaign.slug, amira.pk])
    client.force_login(player)
    page = client.get(url).content.decode()
    assert 'data-testid="fair-escape"' in page
    assert f'<option value="{unit.pk}">Knights: Strength 5 to 3</option>' in page
    escape = reverse("fair-escape", args=[amira.campaign.slug, amira.pk])
    response = client.post(escape, {"pay": unit.pk}, follow=True)
    assert "took -2 Strength (5 to 3) for Amira&#x27;s Fair Escape" in response.content.decode()
    unit.refresh_from_db()
    assert unit.strength == 3
    client.force_login(outsider)
    assert client.post(escape, {"pay": "influence"}).status_code == 404
