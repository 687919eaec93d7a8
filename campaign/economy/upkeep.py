"""Upkeep and Morale: pledging Morale against upkeep, buying Morale, closing a Day (every commander's
bill posted at once) and settling or forgiving arrears. Lunari move only through campaign.economy.ledger.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Case, F, Value, When
from django.dispatch import Signal
from django.utils import timezone

from campaign.bulk import insert_objects, update_rows
from campaign.campaigns.audit import audit_record
from campaign.campaigns.permissions import require_acting_for
from campaign.economy import day_reversal, ledger, selectors, upkeep_sql
from campaign.economy.checks import rule_refusals, same_campaign
from campaign.economy.rules import (
    UpkeepBillResult,
    morale_purchase_price,
    starting_morale,
    upkeep_with_pledge,
)
from campaign.locking import lock
from campaign.models import (
    Commander,
    Day,
    UpkeepArrears,
    UpkeepBill,
    UpkeepMoralePledge,
)


@transaction.atomic
def upkeep_pledge_morale(*, commander: Commander, day: Day, points: int, actor: User | None
                         ) -> UpkeepMoralePledge:
    """Set how much Morale the commander will spend on this Day's upkeep (5 lunari off a point).
    At the close the pledge is capped at the Morale left and at what the bill can use."""
    require_acting_for(actor=actor, commander=commander)
    commander = lock(Commander.objects).get(pk=commander.pk)
    if day.status != Day.Status.OPEN:
        raise ValidationError(f"{day} is closed: pledge Morale on the open Day.")
    if points < 0:
        raise ValidationError({"points": "Pledge 0 or more Morale."})
    if points > commander.morale:
        raise ValidationError({"points": f"{commander} has {commander.morale} Morale: pledge at most that."})
    pledge, _ = UpkeepMoralePledge.objects.update_or_create(commander=commander, day=day,
                                                            defaults={"points": points})
    audit_record(campaign=commander.campaign, actor=actor, action="upkeep.pledge_morale", target=commander,
                 data={"day": day.pk, "points": points})
    return pledge


@transaction.atomic
def morale_buy(*, commander: Commander, day: Day, points: int, actor: User | None) -> Commander:
    """Buy Morale: once per Day, 5 lunari a point, up to the starting value, never during a Battle."""
    require_acting_for(actor=actor, commander=commander)
    commander = lock(Commander.objects).get(pk=commander.pk)
    day = Day.objects.select_related("event").get(pk=day.pk)
    if day.event.campaign_id != commander.campaign_id:
        raise ValidationError("That Day belongs to another campaign.")
    if day.status != Day.Status.OPEN:
        raise ValidationError(f"{day} is closed: buy Morale on the open Day.")
    with rule_refusals():
        price = morale_purchase_price(current=commander.morale, start=commander.starting_morale, points=points,
                                      bought_today=commander.morale_bought_on_id == day.pk,
                                      in_battle=commander.in_battle)
    txn = ledger.ledger_buy_morale(commander=commander, points=points, amount=price, actor=actor)
    commander.morale += points
    commander.morale_bought_on = day
    commander.save(update_fields=["morale", "morale_bought_on"])
    audit_record(campaign=commander.campaign, actor=actor, action="morale.buy", target=commander,
                 data={"points": points, "price": price, "day": day.pk, "transaction": txn.pk})
    return commander


@dataclass(frozen=True)
class DayCloseResult:
    day: Day
    next_day: Day | None
    bills: list[UpkeepBill]
    arrears: list[UpkeepArrears]
    already_closed: bool = False


day_closed = Signal()
"""Sent with `day` inside the closing transaction, once per Day closed (never for a retry): what other packages
refresh at a Day's end (the map: every Base's bonus) happens with the close or not at all."""


@transaction.atomic
def day_close(*, day: Day, actor: User | None) -> DayCloseResult:
    """End a Day: post every commander's upkeep (the same bill the forecast shows), record as arrears what a
    purse cannot pay, refresh every commander's Morale to its starting value, open the next Day, and tell
    the other packages (day_closed).

    Idempotent: a closed Day is returned as it is, and a bill is unique per commander and Day, so a close
    delivered twice charges once. What it changed is kept so that a game master may reopen the Day
    (campaign.economy.day_reversal). The number of queries does not grow with the number of commanders.
    Locks: the Day, then the campaign's commanders, then the purses, each in primary-key order.
    """
    day = lock(Day.objects).select_related("event__campaign").get(pk=day.pk)
    event = day.event
    if day.status == Day.Status.CLOSED:
        next_day = Day.objects.filter(event=event, number=day.number + 1).first()
        return DayCloseResult(day=day, next_day=next_day, bills=list(day.upkeep_bills.filter(reversed=False)),
                              arrears=list(UpkeepArrears.objects.filter(bill__day=day, bill__reversed=False)),
                              already_closed=True)
    commanders = {pk: (level, morale) for pk, level, morale in lock(Commander.objects)
                  .filter(campaign_id=event.campaign_id).values_list("pk", "level", "morale")}
    watch = day_reversal.day_watch(day=day)
    led = upkeep_sql.led_units(day=day)
    billed = set(UpkeepBill.objects.filter(day=day, reversed=False).order_by().values_list("commander_id", flat=True))
    pledged = selectors.upkeep_pledges(day=day)
    results = {cid: upkeep_with_pledge(UpkeepBillResult(lines=(), gross=gross, morale_spent=0, morale_offset=0,
                                                        total=gross),
                                       pledged=pledged.get(cid, 0), morale=commanders.get(cid, (0, 0))[1])
               for cid, gross in led.gross.items() if cid not in billed}
    bills = insert_objects([
        UpkeepBill(commander_id=cid, day=day, gross=res.gross, morale_spent=res.morale_spent,
                   morale_offset=res.morale_offset, amount_due=res.total)
        for cid, res in sorted(results.items())
    ], ("commander_id", "day_id", "gross", "morale_spent", "morale_offset", "amount_due", "amount_paid",
        "transaction_id", "reversed", "created_at"))
    upkeep_sql.upkeep_lines_write(led, bills={bill.commander_id: bill.pk for bill in bills})
    payments = {p.bill_id: p for p in ledger.ledger_pay_upkeep(
        bills=bills, actor=actor, reason=f"Upkeep for Day {day.number} of {event.name}")}
    for bill in bills:
        if payment := payments.get(bill.pk):
            bill.amount_paid, bill.transaction = payment.paid, payment.transaction
    update_rows(UpkeepBill, ("amount_paid", "transaction_id"),
                [(bill.pk, bill.amount_paid, bill.transaction_id) for bill in bills if bill.pk in payments])
    arrears = insert_objects([
        UpkeepArrears(bill=bill, commander_id=bill.commander_id, amount=bill.amount_due - bill.amount_paid)
        for bill in bills if bill.amount_paid < bill.amount_due
    ], ("bill_id", "commander_id", "amount", "status", "resolved_by_id", "resolved_at", "note", "transaction_id",
        "created_at"))
    if commanders:
        levels = {level for level, _ in commanders.values()}
        Commander.objects.filter(campaign_id=event.campaign_id).update(morale=Case(
            *[When(level=level, then=Value(starting_morale(level))) for level in sorted(levels)],
            default=F("morale"), output_field=models.PositiveSmallIntegerField()))
    day.status, day.closed_at = Day.Status.CLOSED, timezone.now()
    day.save(update_fields=["status", "closed_at"])
    next_day = Day.objects.create(event=event, number=day.number + 1)
    audit_record(campaign=event.campaign, actor=actor, action="day.close", target=day,
                 data={"bills": len(bills), "upkeep_due": sum(b.amount_due for b in bills),
                       "upkeep_paid": sum(b.amount_paid for b in bills), "arrears": len(arrears),
                       "arrears_total": sum(a.amount for a in arrears), "next_day": next_day.pk})
    day_closed.send(sender=Day, day=day)
    day_reversal.day_record(day=day, watch=watch, actor=actor, bills=bills, arrears=arrears, next_day=next_day)
    return DayCloseResult(day=day, next_day=next_day, bills=bills, arrears=arrears)


def _arrears_locked(arrears: UpkeepArrears) -> UpkeepArrears:
    arrears = (lock(UpkeepArrears.objects).select_related("commander__campaign")
               .get(pk=arrears.pk))
    if arrears.status != UpkeepArrears.Status.OPEN:
        raise ValidationError(f"This debt was already {arrears.get_status_display().lower()}.")
    return arrears


@transaction.atomic
def upkeep_arrears_settle(*, arrears: UpkeepArrears, paid_by: Commander, actor: User | None
                          ) -> UpkeepArrears:
    """Pay an upkeep debt in full, from the debtor's purse or a benefactor's."""
    require_acting_for(actor=actor, commander=paid_by)
    arrears = _arrears_locked(arrears)
    same_campaign(arrears.commander, paid_by)
    txn = ledger.ledger_pay_arrears(arrears=arrears, payer=paid_by, actor=actor)
    arrears.status, arrears.resolved_by, arrears.resolved_at = UpkeepArrears.Status.SETTLED, actor, timezone.now()
    arrears.transaction = txn
    arrears.save(update_fields=["status", "resolved_by", "resolved_at", "transaction"])
    audit_record(campaign=arrears.commander.campaign, actor=actor, action="arrears.settle", target=arrears,
                 data={"amount": arrears.amount, "paid_by": paid_by.pk, "transaction": txn.pk})
    return arrears


@transaction.atomic
def upkeep_arrears_forgive(*, arrears: UpkeepArrears, note: str, actor: User | None) -> UpkeepArrears:
    """A game master's decision to write a debt off. The row stays, with who forgave it and why."""
    if not (note or "").strip():
        raise ValidationError({"note": "Say why the debt is forgiven: the record keeps it."})
    arrears = _arrears_locked(arrears)
    arrears.status, arrears.resolved_by, arrears.resolved_at = UpkeepArrears.Status.FORGIVEN, actor, timezone.now()
    arrears.note = note.strip()[:300]
    arrears.save(update_fields=["status", "resolved_by", "resolved_at", "note"])
    audit_record(campaign=arrears.commander.campaign, actor=actor, action="arrears.forgive", target=arrears,
                 data={"amount": arrears.amount, "note": arrears.note})
    return arrears
