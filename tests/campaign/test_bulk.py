"""campaign.bulk writes many rows in one statement: the same rows on PostgreSQL (unnest, COPY) as on SQLite
(the ORM's bulk helpers). CI runs this file on PostgreSQL, a developer's default run on SQLite."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaign.bulk import copy_rows, insert_objects, insert_rows, update_rows
from campaign.models import Day, LedgerTransaction

pytestmark = pytest.mark.django_db


def test_insert_rows_returns_the_new_keys_in_order(event):
    now = timezone.now()
    rows = [(event.pk, number, Day.Status.CLOSED, now) for number in (7, 3, 5)]

    keys = insert_rows(Day, ("event_id", "number", "status", "opened_at"), rows)

    assert [Day.objects.get(pk=pk).number for pk in keys] == [7, 3, 5]
    assert set(Day.objects.filter(pk__in=keys).values_list("status", flat=True)) == {"closed"}


def test_insert_rows_of_nothing_writes_nothing(event):
    with CaptureQueriesContext(connection) as ctx:
        assert insert_rows(Day, ("event_id", "number"), []) == []
    assert ctx.captured_queries == []


def test_insert_objects_saves_the_instances_with_their_keys_and_fills_in_auto_now_add(campaign):
    before = timezone.now()
    made = [LedgerTransaction(campaign=campaign, kind=LedgerTransaction.Kind.GRANT, reason=reason)
            for reason in ("first", "second", "third")]

    with CaptureQueriesContext(connection) as ctx:
        saved = insert_objects(made, ("campaign_id", "kind", "reason", "actor_id", "at", "paid_for_type_id",
                                      "paid_for_id", "reverses_id"))

    assert len(ctx.captured_queries) == 1
    assert saved == made
    assert all(txn.pk is not None and not txn._state.adding for txn in made)
    stored = {txn.pk: txn for txn in LedgerTransaction.objects.filter(pk__in=[t.pk for t in made])}
    assert [stored[txn.pk].reason for txn in made] == ["first", "second", "third"]
    assert all(stored[txn.pk].at == txn.at and txn.at >= before for txn in made)


def test_copy_rows_stores_every_row_it_is_given_from_a_generator(event):
    now = timezone.now()

    copy_rows(Day, ("event_id", "number", "status", "opened_at"),
              ((event.pk, number, Day.Status.CLOSED, now) for number in range(10, 510)))

    assert sorted(Day.objects.filter(event=event, number__gte=10).values_list("number", flat=True)) == list(
        range(10, 510))


def test_update_rows_sets_the_named_fields_of_the_named_rows_only(event):
    now = timezone.now()
    keys = insert_rows(Day, ("event_id", "number", "status", "opened_at"),
                       [(event.pk, n, Day.Status.CLOSED, now) for n in (2, 3, 4)])
    later = now + timedelta(hours=5)

    with CaptureQueriesContext(connection) as ctx:
        update_rows(Day, ("number", "closed_at"), [(keys[0], 20, later), (keys[2], 40, None)])

    assert len(ctx.captured_queries) == 1
    days = {day.pk: day for day in Day.objects.filter(pk__in=keys)}
    assert (days[keys[0]].number, days[keys[0]].closed_at) == (20, later)
    assert (days[keys[1]].number, days[keys[1]].closed_at) == (3, None)
    assert (days[keys[2]].number, days[keys[2]].closed_at) == (40, None)
    assert {day.status for day in days.values()} == {"closed"}


def test_a_row_breaking_a_constraint_fails_the_whole_statement(event):
    """One statement: a duplicate Day number refuses the batch, nothing half written."""
    from django.db import IntegrityError, transaction

    now = timezone.now()
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_rows(Day, ("event_id", "number", "status", "opened_at"),
                    [(event.pk, 8, Day.Status.CLOSED, now), (event.pk, 8, Day.Status.CLOSED, now)])
    assert not Day.objects.filter(event=event, number=8).exists()
