"""Upkeep at the end of a Day: 5 lunari x Strength of units in armies led that Day, posted once."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from campaign.economy import ledger, upkeep
from campaign.economy import selectors as economy_selectors
from campaign.economy import services as economy_services
from campaign.map import armies
from campaign.models import Account, ArmyDayActivity, AuditEntry, Day, UpkeepArrears, UpkeepBill
from tests.campaign.factories import (
    ArmyDayActivityFactory,
    ArmyFactory,
    CommanderFactory,
    UnitFactory,
    UnitTypeFactory,
    open_day,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def amira(campaign):
    return CommanderFactory(campaign=campaign, name="Amira", level=4, lunari=200)


def purse(commander) -> int:
    return Account.objects.get(commander=commander).balance


def army_with(commander, *types, led_on=None):
    army = ArmyFactory(commander=commander)
    for unit_type in types:
        UnitFactory(commander=commander, unit_type=unit_type, army=army)
    if led_on is not None:
        ArmyDayActivityFactory(army=army, day=led_on)
    return army


def test_upkeep_of_strength_zero_undead_and_dash_units(day, amira):
    army_with(amira, UnitTypeFactory(strength=3), UnitTypeFactory(strength=0),
              UnitTypeFactory(strength=2, traits=["Undead"]), UnitTypeFactory(strength=None), led_on=day)
    forecast = economy_selectors.upkeep_forecast(commander=amira, day=day)
    assert forecast.gross == 5 * (3 + 1) == 20
    result = upkeep.day_close(day=day, actor=None)
    bill = UpkeepBill.objects.get(commander=amira, day=day)
    assert (bill.gross, bill.amount_due, bill.amount_paid) == (20, 20, 20)
    assert purse(amira) == 180
    assert sorted(bill.lines.values_list("counted_strength", flat=True)) == [0, 0, 1, 3]
    assert result.next_day.number == 2


def test_only_armies_led_that_day_cost_upkeep(day, amira):
    army_with(amira, UnitTypeFactory(strength=4))  # stayed in camp
    led = army_with(amira, UnitTypeFactory(strength=2), led_on=day)
    ArmyDayActivityFactory(army=led, day=day, reason=ArmyDayActivity.Reason.MOVED)  # led twice: paid once
    assert economy_selectors.upkeep_forecast(commander=amira, day=day).total == 10
    upkeep.day_close(day=day, actor=None)
    assert purse(amira) == 190


def test_killed_units_cost_nothing(day, amira):
    army = army_with(amira, UnitTypeFactory(strength=3), UnitTypeFactory(strength=5), led_on=day)
    economy_services.unit_kill(unit=army.units.get(strength=5), actor=None)
    upkeep.day_close(day=day, actor=None)
    assert purse(amira) == 185


def test_each_morale_point_spent_lowers_the_bill_by_five(day, amira):
    army_with(amira, UnitTypeFactory(strength=3), UnitTypeFactory(strength=4), led_on=day)  # 35
    upkeep.upkeep_pledge_morale(commander=amira, day=day, points=2, actor=None)
    forecast = economy_selectors.upkeep_forecast(commander=amira, day=day)
    assert (forecast.gross, forecast.morale_offset, forecast.total) == (35, 10, 25)
    upkeep.day_close(day=day, actor=None)
    bill = UpkeepBill.objects.get(commander=amira)
    assert (bill.morale_spent, bill.morale_offset, bill.amount_paid) == (2, 10, 25)
    assert purse(amira) == 175


def test_a_pledge_is_capped_at_what_the_bill_can_use(day, amira):
    army_with(amira, UnitTypeFactory(strength=1), led_on=day)  # 5 lunari: 1 Morale covers it
    upkeep.upkeep_pledge_morale(commander=amira, day=day, points=4, actor=None)
    assert economy_selectors.upkeep_forecast(commander=amira, day=day).morale_spent == 1
    with pytest.raises(ValidationError, match="has 6 Morale: pledge at most that"):
        upkeep.upkeep_pledge_morale(commander=amira, day=day, points=7, actor=None)


def test_forecast_equals_what_is_posted(day, campaign):
    commanders = [CommanderFactory(campaign=campaign, lunari=500) for _ in range(4)]
    shapes = [(3, 0), (2, None), (5, 4), (1, 1)]
    for commander, strengths in zip(commanders, shapes, strict=True):
        army_with(commander, *[UnitTypeFactory(strength=s) for s in strengths],
                  UnitTypeFactory(strength=2, traits=["Undead"]), led_on=day)
    trained = UnitTypeFactory(strength=1)  # units of one type at three Strengths: each is billed at its own
    for strength in (1, 3, 0):
        UnitFactory(commander=commanders[0], unit_type=trained, strength=strength, army=commanders[0].armies.get())
    upkeep.upkeep_pledge_morale(commander=commanders[2], day=day, points=3, actor=None)
    forecasts = {c.pk: economy_selectors.upkeep_forecast(commander=c, day=day) for c in commanders}
    assert economy_selectors.upkeep_forecasts(day=day) == forecasts
    upkeep.day_close(day=day, actor=None)
    for commander in commanders:
        bill = UpkeepBill.objects.get(commander=commander, day=day)
        forecast = forecasts[commander.pk]
        assert (bill.gross, bill.morale_offset, bill.amount_due, bill.amount_paid) == (
            forecast.gross, forecast.morale_offset, forecast.total, forecast.total)
        assert sorted(bill.lines.values_list("unit_id", "counted_strength", "lunari", "note")) == sorted(
            (line.unit_id, line.counted_strength, line.lunari, line.note) for line in forecast.lines)
        assert purse(commander) == 500 - forecast.total


def test_closing_twice_charges_once(day, amira):
    army_with(amira, UnitTypeFactory(strength=3), led_on=day)
    first = upkeep.day_close(day=day, actor=None)
    second = upkeep.day_close(day=day, actor=None)
    assert second.already_closed
    assert second.next_day == first.next_day
    assert UpkeepBill.objects.filter(commander=amira).count() == 1
    assert Day.objects.filter(event=day.event).count() == 2
    assert purse(amira) == 185
    with pytest.raises(IntegrityError), transaction.atomic():
        UpkeepBill.objects.create(commander=amira, day=day, gross=15, amount_due=15)


def test_a_commander_who_cannot_pay_is_in_arrears(day, campaign, gm):
    poor = CommanderFactory(campaign=campaign, name="Poor", lunari=12)
    army_with(poor, UnitTypeFactory(strength=5), led_on=day)  # 25 lunari
    result = upkeep.day_close(day=day, actor=gm)
    bill = UpkeepBill.objects.get(commander=poor)
    assert (bill.amount_due, bill.amount_paid) == (25, 12)
    assert purse(poor) == 0
    debt = UpkeepArrears.objects.get(commander=poor)
    assert (debt.amount, debt.status) == (13, "open")
    assert result.arrears == [debt]
    assert list(economy_selectors.arrears_open(campaign=campaign)) == [debt]
    assert AuditEntry.objects.get(action="day.close").data["arrears_total"] == 13
    ledger.ledger_grant(commander=poor, amount=20, reason="Patron", actor=gm)
    upkeep.upkeep_arrears_settle(arrears=debt, paid_by=poor, actor=gm)
    debt.refresh_from_db()
    assert debt.status == "settled"
    assert purse(poor) == 7
    with pytest.raises(ValidationError, match="already settled"):
        upkeep.upkeep_arrears_settle(arrears=debt, paid_by=poor, actor=gm)
    assert list(economy_selectors.arrears_open(campaign=campaign)) == []


def test_a_gm_may_forgive_a_debt_but_it_is_never_dropped(day, campaign, gm):
    broke = CommanderFactory(campaign=campaign, name="Broke")
    army_with(broke, UnitTypeFactory(strength=2), led_on=day)
    upkeep.day_close(day=day, actor=gm)
    debt = UpkeepArrears.objects.get(commander=broke)
    with pytest.raises(ValidationError, match="Say why"):
        upkeep.upkeep_arrears_forgive(arrears=debt, note="", actor=gm)
    upkeep.upkeep_arrears_forgive(arrears=debt, note="Fought for the Sultan unpaid", actor=gm)
    debt.refresh_from_db()
    assert (debt.status, debt.amount, debt.resolved_by) == ("forgiven", 10, gm)


def test_closing_refreshes_morale_and_opens_the_next_day(day, campaign, amira):
    amira.morale = 1
    amira.save(update_fields=["morale"])
    npc = CommanderFactory(campaign=campaign, level=9, morale=0)
    result = upkeep.day_close(day=day, actor=None)
    amira.refresh_from_db()
    npc.refresh_from_db()
    assert (amira.morale, npc.morale) == (6, 8)
    day.refresh_from_db()
    assert day.status == Day.Status.CLOSED
    assert result.next_day.status == Day.Status.OPEN
    assert result.next_day.number == 2
    with pytest.raises(ValidationError, match="closed"):
        armies.army_mark_led(army=ArmyFactory(commander=amira), day=day, reason="moved", actor=None)


def _prepare(campaign, n):
    from tests.campaign.factories import EventFactory

    day = open_day(EventFactory(campaign=campaign))
    unit_type = UnitTypeFactory(strength=2)
    for i in range(n):
        commander = CommanderFactory(campaign=campaign, lunari=50 if i % 5 else 0)  # some end in arrears
        army_with(commander, unit_type, unit_type, led_on=day)
        if i % 3 == 0:
            upkeep.upkeep_pledge_morale(commander=commander, day=day, points=1, actor=None)
    return day


def _close_queries(campaign, n):
    day = _prepare(campaign, n)
    with CaptureQueriesContext(connection) as ctx:
        upkeep.day_close(day=day, actor=None)
    assert UpkeepBill.objects.filter(day=day).count() == n
    assert UpkeepArrears.objects.filter(bill__day=day).count() == (n + 4) // 5
    return len(ctx.captured_queries)


def test_day_close_queries_do_not_grow_with_commanders(campaign, django_assert_max_num_queries):
    """5 or 50 commanders (each with an army led that Day, some in arrears): the same number of queries."""
    _close_queries(campaign, 1)  # the first close creates the campaign's system accounts
    small = _close_queries(campaign, 5)
    large = _close_queries(campaign, 50)
    assert small == large
    day = _prepare(campaign, 50)
    with django_assert_max_num_queries(small):
        upkeep.day_close(day=day, actor=None)
