"""Reads for campaigns, Events, Days and memberships: only what a user's memberships let them see."""

from __future__ import annotations

import hashlib

from django.db import connection
from django.db.models import QuerySet

from campaign.models import (
    AuditEntry,
    Campaign,
    Day,
    Event,
    Heartbeat,
    HourLog,
    Membership,
)


def campaign_list_for_user(*, user) -> QuerySet[Membership]:
    """The user's memberships with their campaigns, for the home page."""
    return Membership.objects.filter(user=user).select_related("campaign").order_by("campaign__name")


def campaigns_visible_to(*, user) -> QuerySet[Campaign]:
    return Campaign.objects.filter(memberships__user=user).distinct()


def events_visible_to(*, user) -> QuerySet[Event]:
    return Event.objects.filter(campaign__memberships__user=user).select_related("campaign").distinct()


def days_visible_to(*, user) -> QuerySet[Day]:
    return Day.objects.filter(event__campaign__memberships__user=user).select_related("event").distinct()


def memberships_visible_to(*, user) -> QuerySet[Membership]:
    return Membership.objects.filter(campaign__memberships__user=user).select_related("user", "campaign").distinct()


def event_current_day(*, event: Event) -> Day | None:
    return event.days.filter(status=Day.Status.OPEN).first()


def event_and_day_today(*, campaign: Campaign) -> tuple[Event | None, Day | None]:
    """The Event recruiting and training happen at (the running one, else the next not closed) and its open Day."""
    events = Event.objects.filter(campaign=campaign).exclude(status=Event.Status.CLOSED).order_by("starts_at", "id")
    event = events.filter(status=Event.Status.RUNNING).first() or events.first()
    return event, event_current_day(event=event) if event else None


def heartbeat_get(*, name: str) -> Heartbeat | None:
    return Heartbeat.objects.filter(name=name).first()


def _stamp_sql() -> str:
    """Four scalar subqueries, each one step down an index: the newest audit entry's id and time, and the
    newest processed hour's. Raw SQL because this runs on every poll and the ORM's compiling of the same
    query cost three times its database time."""
    quote = connection.ops.quote_name
    audit, hour, event = (quote(model._meta.db_table) for model in (AuditEntry, HourLog, Event))
    newest_audit = f"FROM {audit} WHERE campaign_id = %s ORDER BY id DESC LIMIT 1"
    newest_hour = (f"FROM {hour} JOIN {event} ON {event}.id = {hour}.event_id WHERE {event}.campaign_id = %s "
                   f"ORDER BY {hour}.id DESC LIMIT 1")
    return (f"SELECT (SELECT id {newest_audit}), (SELECT at {newest_audit}), "
            f"(SELECT {hour}.id {newest_hour}), (SELECT processed_at {newest_hour})")


def campaign_change_stamp(*, campaign_id: int) -> str:
    """A value that changes whenever anything in the campaign changes, in one indexed query: the newest audit
    entry (every service records one) and the newest processed hour (the clock's tick records an HourLog
    instead), each by id and time (the times keep a stamp unique where ids are used twice, as in a database
    restored from a backup). Pages key what they remember of a campaign by it, so nothing remembered
    outlives a change."""
    with connection.cursor() as cursor:
        cursor.execute(_stamp_sql(), [campaign_id] * 4)
        row = cursor.fetchone()
    return hashlib.blake2b(repr(row).encode(), digest_size=10).hexdigest()
