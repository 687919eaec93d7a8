"""Reversing a game master's mistake with correcting records, never edits: an applied Battle result, a processed
hour, a closed Day (issue #15).

The write that may be reversed reads the rows it may change before it (`Watch`) and leaves a Reversible row with
the values they had before and after it, the rows it created and the ledger transactions it posted. Reversing
restores the values before, lets the package that owns the write undo what it created (through `undo`: its
ledger transactions get reversing transactions, its records are marked, nothing of the ledger or the audit is
deleted), marks the Reversible with who, when and why, and writes an audit row.

Most recent first: a record cannot be reversed while a later standing record changed or created any of the
same rows (for a Day: while any later record of its Event stands), nor once a row it changed was changed since
by something else; the refusal names what blocks it. Reversal is offered for as many hours after the record as
the campaign's house rule `reversal_window_hours` says. A retried reversal finds the record reversed and does
nothing twice.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.apps import apps
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Model, QuerySet
from django.utils import timezone

from campaign.bulk import update_rows
from campaign.campaigns.audit import audit_record
from campaign.campaigns.house_rules import HouseRule, house_rule_value
from campaign.campaigns.permissions import Action, NotAllowed, can, membership_for
from campaign.locking import lock
from campaign.models import Campaign, Membership, Reversible

WINDOW_RULE = HouseRule(
    key="reversal_window_hours", label="Hours a game master may reverse a record", kind="int", default=24,
    minimum=0, maximum=24 * 30,
    ruling="Muster: an applied Battle result, a processed hour or a closed Day may be reversed, most recent first, "
           "for this many hours after it was recorded (0: never).")

Scope = tuple[QuerySet, Sequence[str]]
Guard = Callable[[Reversible], str | None]
Reverser = Callable[..., Reversible]
_GUARDS: dict[str, list[Guard]] = defaultdict(list)
_REVERSERS: dict[str, Reverser] = {}


def reversal_kind_register(kind: str, reverse: Reverser) -> None:
    """The package that owns a kind of record says how it is reversed (in its app's ready(), as house rules are
    registered): reverse(record=..., actor=..., reason=...)."""
    _REVERSERS[kind] = reverse


def reversal_guard_register(kind: str, guard: Guard) -> None:
    """A package says what of its own blocks reversing a kind of record (a sentence, or None): the battles app
    refuses to reverse an hour whose Battle due is being fought."""
    _GUARDS[kind].append(guard)


def reversible_reverse(*, record: Reversible, actor: User | None, reason: str) -> Reversible:
    """Reverse a record of any kind through the package that owns it."""
    return _REVERSERS[record.kind](record=record, actor=actor, reason=reason)


def _plain(value: Any) -> Any:
    """A value as JSON keeps it (dates and times in full ISO form)."""
    return value.isoformat() if isinstance(value, date | time) else value


def _label(model: type[Model]) -> str:
    return model._meta.label_lower


def _by_pk(rows: Iterable[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {row.pop("pk"): {f: _plain(v) for f, v in row.items()} for row in rows}


def _rows(model: type[Model], pks: Iterable[int], fields: Sequence[str], *, locked: bool = False
          ) -> dict[int, dict[str, Any]]:
    rows = lock(model._default_manager) if locked else model._default_manager.order_by()  # no ordering joins
    return _by_pk(rows.filter(pk__in=list(pks)).values("pk", *fields))


def changes_between(before: dict[tuple[str, int], dict[str, Any]], after: dict[tuple[str, int], dict[str, Any]]
                    ) -> list[dict[str, Any]]:
    """The rows whose values differ, keyed by (model label, pk), as a Reversible keeps them: only the fields that
    changed, before and after (for a write that already holds both in memory, as the hour does)."""
    changed = []
    for key in sorted(before):
        was, now = before[key], after.get(key, before[key])
        diff = [f for f in was if now[f] != was[f]]
        if diff:
            changed.append({"model": key[0], "pk": key[1], "before": {f: _plain(was[f]) for f in diff},
                            "after": {f: _plain(now[f]) for f in diff}})
    return changed


class Watch:
    """The rows a write may change, read before it (`scopes`: a queryset and the fields, by attname), and the
    querysets whose new rows it creates (`creating`); `changes()` and `created()` after the write say what it did."""

    def __init__(self, scopes: Iterable[Scope], creating: Iterable[QuerySet] = ()) -> None:
        self.before: list[tuple[type[Model], tuple[str, ...], dict[int, dict[str, Any]]]] = []
        for queryset, fields in scopes:
            self.before.append((queryset.model, tuple(fields), _by_pk(queryset.order_by().values("pk", *fields))))
        self.creating = [(queryset, set(queryset.values_list("pk", flat=True))) for queryset in creating]

    def changes(self) -> list[dict[str, Any]]:
        changed = []
        for model, fields, before in self.before:
            after = _rows(model, before, fields)
            changed += changes_between({(_label(model), pk): row for pk, row in before.items()},
                                       {(_label(model), pk): row for pk, row in after.items()})
        return changed

    def created(self) -> dict[str, list[int]]:
        created: dict[str, list[int]] = {}
        for queryset, had in self.creating:
            new = sorted(set(queryset.values_list("pk", flat=True)) - had)
            if new:
                created.setdefault(_label(queryset.model), []).extend(new)
        return created


def reversible_record(*, kind: str, campaign_id: int, event_id: int, target_id: int, label: str, actor: User | None,
                      watch: Watch | None = None, changed: list[dict[str, Any]] | None = None,
                      created: dict[str, list[int]] | None = None, transactions: Sequence[int] = ()) -> Reversible:
    """Keep what a write did so that it can be reversed (call it at the end of the write's transaction): what
    `watch` saw change and create, and the `changed` and `created` rows the write names itself."""
    made = watch.created() if watch is not None else {}
    for model_label, pks in (created or {}).items():
        made.setdefault(model_label, []).extend(pks)
    return Reversible.objects.create(
        campaign_id=campaign_id, event_id=event_id, kind=kind, target_id=target_id, label=label[:200],
        changed=[*(watch.changes() if watch is not None else []), *(changed or [])], created=made,
        transactions=list(transactions), recorded_by=actor if actor is not None and actor.pk else None)


# --- may it be reversed ------------------------------------------------------------------------------------


def reversal_window_hours(*, campaign: Campaign) -> int:
    return int(house_rule_value(campaign.house_rules or {}, WINDOW_RULE))


def reversible_latest(*, kind: str, target_id: int) -> Reversible | None:
    """The standing record of a Battle result, an hour or a Day (None: nothing to reverse), with its campaign
    (whose house rule says how long it may be reversed)."""
    return (Reversible.objects.filter(kind=kind, target_id=target_id, reversed_at__isnull=True)
            .select_related("campaign").first())


def _keys(record: Reversible) -> set[tuple[str, int]]:
    return ({(c["model"], c["pk"]) for c in record.changed}
            | {(label, pk) for label, pks in record.created.items() for pk in pks})


def reversal_blockers(*, record: Reversible) -> list[Reversible]:
    """Later standing records that depend on this one, most recent first."""
    keys = _keys(record)
    later = Reversible.objects.filter(campaign_id=record.campaign_id, reversed_at__isnull=True, pk__gt=record.pk)
    return [other for other in later.order_by("-pk")
            if (other.event_id == record.event_id and Reversible.Kind.DAY in (other.kind, record.kind))
            or keys & _keys(other)]


def _changed_since(record: Reversible, *, locked: bool) -> str | None:
    """A row this record changed that something else has changed since, in words (None: all as it left them)."""
    by_model: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for change in record.changed:
        by_model[change["model"]].append(change)
    for model_label in sorted(by_model):
        model = apps.get_model(model_label)
        changes = by_model[model_label]
        fields = sorted({f for c in changes for f in c["after"]})
        now = _rows(model, [c["pk"] for c in changes], fields, locked=locked)
        for change in changes:
            row = now.get(change["pk"])
            moved = [f for f, v in change["after"].items() if row is None or row[f] != v]
            if moved:
                thing = model._default_manager.filter(pk=change["pk"]).first()
                what = f"{model._meta.verbose_name} {thing}" if thing else f"a {model._meta.verbose_name} (gone)"
                fields_said = ", ".join(str(model._meta.get_field(f).verbose_name) for f in moved)
                return (f"The {what} has changed since ({fields_said}): "
                        "undo that change first, so the reversal restores exactly what this record changed.")
    return None


def reversal_refusal(*, record: Reversible, now: datetime | None = None, locked: bool = False) -> str | None:
    """Why this record cannot be reversed now, in one sentence (None: it can)."""
    what = record.label[:1].upper() + record.label[1:]
    if record.is_reversed:
        return f"{what} was already reversed."
    hours = reversal_window_hours(campaign=record.campaign)
    if (now or timezone.now()) > record.recorded_at + timedelta(hours=hours):
        return (f"{what} was recorded more than {hours} hours ago: the campaign's house rule allows "
                f"reversing for {hours} hours.")
    blockers = reversal_blockers(record=record)
    if blockers:
        names = "; ".join(f"{b.label} ({b.get_kind_display().lower()})" for b in blockers[:3])
        return f"Later records depend on {record.label}: reverse them first, most recent first: {names}."
    for guard in _GUARDS[record.kind]:
        if (refusal := guard(record)) is not None:
            return refusal
    return _changed_since(record, locked=locked)


def reversal_may(*, record: Reversible, actor: User) -> bool:
    membership = membership_for(user=actor, campaign=record.campaign_id)
    return can(membership, Action.ACT_FOR_ANY)


@dataclass(frozen=True)
class ReversalOffer:
    """What a page offers a game master: the standing record and why it cannot be reversed now (None: it can)."""

    record: Reversible
    refusal: str | None


def reversal_offer(*, kind: str, target_id: int, membership: Membership | None) -> ReversalOffer | None:
    """The reversal a page shows a game master for a Battle, an hour or a Day (None: not a GM, or none standing)."""
    if not can(membership, Action.ACT_FOR_ANY):
        return None
    record = reversible_latest(kind=kind, target_id=target_id)
    return reversal_offer_of(record=record, membership=membership) if record is not None else None


def reversal_offer_of(*, record: Reversible, membership: Membership | None) -> ReversalOffer | None:
    """reversal_offer for a standing record the page has read already (None: not a GM)."""
    if not can(membership, Action.ACT_FOR_ANY):
        return None
    return ReversalOffer(record=record, refusal=reversal_refusal(record=record))


def reversals_done(*, kind: str, target_id: int) -> list[Reversible]:
    """The reversed records of a Battle, an hour or a Day, most recent first (the pages say who, when and why)."""
    return list(Reversible.objects.filter(kind=kind, target_id=target_id, reversed_at__isnull=False)
                .select_related("reversed_by").order_by("-reversed_at", "-id"))


# --- reversing ------------------------------------------------------------------------------------------------


def _restore(changed: list[dict[str, Any]]) -> None:
    """Put back the values the rows had before the record, one bulk update per model and set of fields."""
    groups: dict[tuple[str, tuple[str, ...]], list[tuple[Any, ...]]] = defaultdict(list)
    for change in changed:
        fields = tuple(sorted(change["before"]))
        model = apps.get_model(change["model"])
        values = tuple(None if change["before"][f] is None else model._meta.get_field(f).to_python(change["before"][f])
                       for f in fields)
        groups[(change["model"], fields)].append((change["pk"], *values))
    for (model_label, fields), rows in sorted(groups.items()):
        update_rows(apps.get_model(model_label), fields, rows)


@transaction.atomic
def reversal_apply(*, record: Reversible, actor: User | None, reason: str, action: str,
                   undo: Callable[[Reversible, str], list[int]], then: Callable[[Reversible], None] | None = None,
                   data: dict[str, Any] | None = None) -> Reversible:
    """Reverse a record (see the module's docstring). `undo` is the owning package's part, run first: it undoes
    what the record created and returns the reversing ledger transactions' ids; `then` runs once the rows are
    restored. Writes the audit row `action`."""
    record = lock(Reversible.objects).select_related("campaign").get(pk=record.pk)
    if record.is_reversed:
        return record
    if actor is None or not actor.pk or not reversal_may(record=record, actor=actor):
        raise NotAllowed("Only a game master of the campaign may reverse a record.")
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": "Say why it is reversed: the audit trail keeps the reason."})
    if (refusal := reversal_refusal(record=record, locked=True)) is not None:
        raise ValidationError(refusal)
    transactions = undo(record, reason)
    try:
        with transaction.atomic():
            _restore(record.changed)
    except IntegrityError:
        raise ValidationError(f"Something recorded since {record.label} stands in the way of restoring it (a new "
                              "order for one of its armies, or another open Day): undo it first.") from None
    if then is not None:
        then(record)
    record.reversed_at, record.reversed_by, record.reason = timezone.now(), actor, reason[:300]
    record.reversal_transactions = transactions
    record.save(update_fields=["reversed_at", "reversed_by", "reason", "reversal_transactions"])
    audit_record(campaign=record.campaign, actor=actor, action=action, target=record.label,
                 data={"reason": record.reason, "reversible": record.pk, "transactions": transactions, **(data or {})})
    return record
