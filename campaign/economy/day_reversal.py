"""Reopening a closed Day (campaign.campaigns.reversals): every upkeep payment of the close gets a reversing
ledger transaction, its bills and arrears stay, marked reversed, Morale and the Bases' bonuses are as they were
before the close, and the next Day, opened by the close and still empty, gives way, so the Day is open again and
closing it again charges once. Not while a debt of the close was settled or forgiven since, nor once the next
Day has anything of its own.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import ForeignObjectRel

from campaign.campaigns.reversals import Watch, reversal_apply, reversible_record
from campaign.economy import ledger
from campaign.locking import lock
from campaign.models import Base, Commander, Day, Event, Reversible, UpkeepArrears, UpkeepBill


def day_watch(*, day: Day) -> Watch:
    """What closing the Day may change, read before it changes (after the close locked the commanders)."""
    campaign_id = day.event.campaign_id
    return Watch(scopes=[(Day.objects.filter(pk=day.pk), ("status", "closed_at")),
                         (Commander.objects.filter(campaign_id=campaign_id), ("morale",)),
                         (Base.objects.filter(map__campaign_id=campaign_id), ("spent_on_id",))])


def day_record(*, day: Day, watch: Watch, actor: User | None, bills: list[UpkeepBill],
               arrears: list[UpkeepArrears], next_day: Day) -> Reversible:
    return reversible_record(
        kind=Reversible.Kind.DAY, campaign_id=day.event.campaign_id, event_id=day.event_id, target_id=day.pk,
        label=str(day), watch=watch, actor=actor,
        created={"campaign.upkeepbill": [b.pk for b in bills], "campaign.upkeeparrears": [a.pk for a in arrears],
                 "campaign.day": [next_day.pk]},
        transactions=[b.transaction_id for b in bills if b.transaction_id is not None])


def _next_day_in_use(next_day: Day) -> str | None:
    """What refers to the next Day already, in words (None: nothing, it may give way)."""
    for relation in Day._meta.get_fields(include_hidden=True):
        if not isinstance(relation, ForeignObjectRel) or relation.many_to_many:
            continue
        model = relation.related_model
        if isinstance(model, type) and model._default_manager.filter(**{relation.field.name: next_day}).exists():
            return f"{next_day} already has {model._meta.verbose_name_plural}: reverse or undo them first."
    return None


def day_guard(record: Reversible) -> str | None:
    """A guard: the debts of the close are still open and the next Day is still empty."""
    resolved = UpkeepArrears.objects.filter(pk__in=record.created.get("campaign.upkeeparrears", [])).exclude(
        status=UpkeepArrears.Status.OPEN).select_related("commander", "bill__day__event").first()
    if resolved is not None:
        return (f"The upkeep debt of {resolved.commander} for {record.label} was "
                f"{resolved.get_status_display().lower()} since: reverse that payment first.")
    next_day = Day.objects.filter(pk__in=record.created.get("campaign.day", [])).select_related("event").first()
    return _next_day_in_use(next_day) if next_day is not None else None


def _undo(record: Reversible, reason: str, actor: User | None) -> list[int]:
    Day.objects.filter(pk__in=record.created.get("campaign.day", [])).delete()
    UpkeepBill.objects.filter(pk__in=record.created.get("campaign.upkeepbill", [])).update(reversed=True)
    UpkeepArrears.objects.filter(pk__in=record.created.get("campaign.upkeeparrears", [])).update(
        status=UpkeepArrears.Status.REVERSED)
    reversals = ledger.ledger_reverse_many(transaction_ids=record.transactions, actor=actor,
                                           reason=f"{record.label} reopened: {reason}")
    return [txn.pk for txn in reversals]


@transaction.atomic
def day_reopen(*, record: Reversible, actor: User | None, reason: str) -> Reversible:
    """Reopen a closed Day (a game master, with a reason); a retried reopening changes nothing. Locks the Event's
    Event and the Day first, as closing does."""
    lock(Event.objects).get(pk=record.event_id)
    lock(Day.objects).get(pk=record.target_id)
    return reversal_apply(record=record, actor=actor, reason=reason, action="day.reopen",
                          undo=lambda rec, why: _undo(rec, why, actor))
