"""Reopening a closed Day (#15): every upkeep payment gets a reversing ledger transaction, bills and arrears stay
marked reversed, balances, Morale and Bases are exactly as before the close, and closing again charges once."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from campaign.campaigns.reversals import reversible_latest, reversible_reverse
from campaign.economy import upkeep
from campaign.map import armies
from campaign.map import services as map_services
from campaign.models import (
    ArmyDayActivity,
    AuditEntry,
    Day,
    LedgerTransaction,
    Reversible,
    UpkeepArrears,
    UpkeepBill,
)
from tests.campaign.factories import ArmyDayActivityFactory, ArmyFactory, CommanderFactory, UnitFactory, UnitTypeFactory
from tests.campaign.map_fixtures import make_map
from tests.helpers import campaign_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def closing(campaign, day):
    """Amira (200 lunari) owes 30 and pays it; Bo (10 lunari) owes 20 and falls 10 into arrears; both spent Morale;
    a Base's bonus was used up today."""
    strong = UnitTypeFactory(strength=3)
    for name, lunari, units in (("Amira", 200, 2), ("Bo", 10, 1)):
        commander = CommanderFactory(campaign=campaign, name=name, level=4, lunari=lunari, morale=1)
        army = ArmyFactory(commander=commander)
        for _ in range(units):
            UnitFactory(commander=commander, unit_type=strong if name == "Amira" else UnitTypeFactory(strength=4),
                        army=army)
        ArmyDayActivityFactory(army=army, day=day)
    base = map_services.base_create(tactical_map=make_map(campaign), name="Keep", x=5, y=5, morale_bonus=2,
                                    actor=None)
    map_services.base_bonus_spend(base=base, day=day, actor=None)
    return day


def day_record(day) -> Reversible:
    record = reversible_latest(kind=Reversible.Kind.DAY, target_id=day.pk)
    assert record is not None
    return record


def test_reopening_reverses_the_close_exactly_and_closing_again_charges_once(closing, campaign, gm):
    day = closing
    before = campaign_state(campaign)
    first = upkeep.day_close(day=day, actor=gm)
    assert sorted((b.amount_due, b.amount_paid) for b in first.bills) == [(20, 10), (30, 30)]
    assert len(first.arrears) == 1
    closed = campaign_state(campaign)
    assert closed != before

    record = reversible_reverse(record=day_record(day), actor=gm, reason="Closed before the last Battle")

    assert campaign_state(campaign) == before
    assert not Day.objects.filter(event=day.event, number=2).exists()
    paid = LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.UPKEEP)
    reversals = LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.REVERSAL)
    assert sorted(reversals.values_list("reverses_id", flat=True)) == sorted(paid.values_list("pk", flat=True))
    assert sorted(record.reversal_transactions) == sorted(reversals.values_list("pk", flat=True))
    assert list(UpkeepBill.objects.values_list("reversed", flat=True)) == [True, True]
    assert UpkeepArrears.objects.get().status == UpkeepArrears.Status.REVERSED
    words = AuditEntry.objects.get(action="day.reopen")
    assert (words.actor, words.data["reason"]) == (gm, "Closed before the last Battle")

    again = upkeep.day_close(day=day, actor=gm)
    assert sorted((b.amount_due, b.amount_paid) for b in again.bills) == [(20, 10), (30, 30)]
    assert campaign_state(campaign)["balances"] == closed["balances"]
    assert campaign_state(campaign)["commanders"] == closed["commanders"]
    assert upkeep.day_close(day=day, actor=gm).already_closed
    assert UpkeepBill.objects.filter(reversed=False).count() == 2


def test_a_retried_reopening_does_nothing_twice(closing, campaign, gm):
    upkeep.day_close(day=closing, actor=gm)
    record = day_record(closing)
    reversible_reverse(record=record, actor=gm, reason="too early")
    state = campaign_state(campaign)
    reversible_reverse(record=record, actor=gm, reason="too early")
    assert campaign_state(campaign) == state
    assert LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.REVERSAL).count() == 2  # one a payment


def test_the_next_day_in_use_or_a_debt_settled_blocks_reopening(closing, campaign, gm):
    result = upkeep.day_close(day=closing, actor=gm)
    army = ArmyFactory(commander=result.bills[0].commander)
    armies.army_mark_led(army=army, day=result.next_day, reason=ArmyDayActivity.Reason.MARKED_BY_GM, actor=gm)
    with pytest.raises(ValidationError, match=f"{result.next_day} already has army day activity: reverse or undo"):
        reversible_reverse(record=day_record(closing), actor=gm, reason="too early")
    ArmyDayActivity.objects.filter(day=result.next_day).delete()
    debt = result.arrears[0]
    upkeep.upkeep_arrears_forgive(arrears=debt, note="hard times", actor=gm)
    with pytest.raises(ValidationError, match=f"The upkeep debt of Bo for {closing} was forgiven since"):
        reversible_reverse(record=day_record(closing), actor=gm, reason="too early")


def test_a_later_hour_of_the_event_blocks_reopening(closing, campaign, gm):
    from campaign.map import hour

    upkeep.day_close(day=closing, actor=gm)
    hour.event_hour_process(event=closing.event, hour=1)
    with pytest.raises(ValidationError, match=f"most recent first: hour 1 of {closing.event.name}"):
        reversible_reverse(record=day_record(closing), actor=gm, reason="too early")
