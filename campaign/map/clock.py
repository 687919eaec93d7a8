"""The event clock: a running Event's in-game hour advances every `minutes_per_hour` real minutes; the
game masters' controls (start, pause, resume, advance an hour) and the tick that Celery beat runs every
minute. What one hour does to the map is campaign.map.hour; closing a Day is campaign.economy.upkeep.day_close
(the map refreshes its Bases on its day_closed signal).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaign.campaigns import audit
from campaign.map.hour import HourResult, event_hour_process, event_locked
from campaign.models import (
    Event,
)

TICK_MAX_HOURS = 50  # hours one tick processes before it hands the rest to the next tick


# --- the clock's controls ---------------------------------------------------------------------------------


def event_seconds_per_hour(*, event: Event) -> int:
    return event.minutes_per_hour * 60


def event_due_hour(*, event: Event, now: datetime | None = None) -> int:
    """The hour the clock has reached: the hour it started at, plus hours advanced by hand, plus every whole
    `minutes_per_hour` of running time since it started (time spent paused does not count)."""
    if event.status != Event.Status.RUNNING or event.clock_started_at is None:
        return event.current_hour
    elapsed = ((now or timezone.now()) - event.clock_started_at).total_seconds()
    return max(event.current_hour, event.clock_base_hour + max(0, math.floor(elapsed / event_seconds_per_hour(
        event=event))))


def event_next_hour_at(*, event: Event) -> datetime | None:
    """When the next hour falls due on a running clock (for the GM console)."""
    if event.status != Event.Status.RUNNING or event.clock_started_at is None:
        return None
    hours_in = event.current_hour + 1 - event.clock_base_hour
    return event.clock_started_at + timedelta(seconds=hours_in * event_seconds_per_hour(event=event))


@transaction.atomic
def event_clock_start(*, event: Event, actor: User | None, now: datetime | None = None) -> Event:
    """Start a planned Event's clock: hours fall due every `minutes_per_hour` real minutes from now."""
    event = event_locked(event)
    if event.status != Event.Status.PLANNED:
        raise ValidationError(f"{event.name} is {event.get_status_display().lower()}: only a planned Event starts"
                              " (resume a paused one).")
    event.status, event.clock_started_at, event.clock_paused_at = Event.Status.RUNNING, now or timezone.now(), None
    event.clock_base_hour = event.current_hour
    event.save(update_fields=["status", "clock_started_at", "clock_paused_at", "clock_base_hour"])
    audit.audit_record(campaign=event.campaign, actor=actor, action="clock.start", target=event,
                       data={"hour": event.current_hour})
    return event


@transaction.atomic
def event_clock_pause(*, event: Event, actor: User | None, now: datetime | None = None) -> Event:
    """Stop the clock; the part of the hour already run is kept for when it resumes."""
    event = event_locked(event)
    if event.status != Event.Status.RUNNING:
        raise ValidationError(f"{event.name}'s clock is not running: there is nothing to pause.")
    event.status, event.clock_paused_at = Event.Status.PAUSED, now or timezone.now()
    event.save(update_fields=["status", "clock_paused_at"])
    audit.audit_record(campaign=event.campaign, actor=actor, action="clock.pause", target=event,
                       data={"hour": event.current_hour})
    return event


@transaction.atomic
def event_clock_resume(*, event: Event, actor: User | None, now: datetime | None = None) -> Event:
    """Run the clock again; the time it stood paused is not counted."""
    event = event_locked(event)
    if event.status != Event.Status.PAUSED:
        raise ValidationError(f"{event.name}'s clock is not paused: start or pause it first.")
    now = now or timezone.now()
    event.clock_started_at = (event.clock_started_at or now) + (now - (event.clock_paused_at or now))
    event.status, event.clock_paused_at = Event.Status.RUNNING, None
    event.save(update_fields=["status", "clock_started_at", "clock_paused_at"])
    audit.audit_record(campaign=event.campaign, actor=actor, action="clock.resume", target=event,
                       data={"hour": event.current_hour})
    return event


@transaction.atomic
def event_clock_advance(*, event: Event, actor: User | None, now: datetime | None = None,
                        to_hour: int | None = None) -> HourResult | None:
    """Process the next hour now, by hand. If it was not yet due, the clock counts it as due from now on, so the
    following hour comes at the clock's next turn and no hour is processed twice or skipped. `to_hour` is the
    hour the GM saw coming: once it is done (a retried tap, or the clock got there first) nothing more moves
    and None is answered."""
    event = event_locked(event)
    if event.status == Event.Status.CLOSED:
        raise ValidationError(f"{event.name} is closed: its clock cannot move.")
    if to_hour is not None and event.current_hour >= to_hour:
        return None
    ahead = max(0, event.current_hour + 1 - event_due_hour(event=event, now=now))
    result = event_hour_process(event=event, hour=event.current_hour + 1)
    Event.objects.filter(pk=event.pk).update(clock_base_hour=event.clock_base_hour + ahead)
    audit.audit_record(campaign=event.campaign, actor=actor, action="clock.advance", target=event,
                       data={"hour": result.hour})
    return result


# --- the tick ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TickResult:
    processed: int
    more: bool


def clock_tick(*, now: datetime | None = None, max_hours: int = TICK_MAX_HOURS) -> TickResult:
    """Process every due hour of every running Event, in order, at most `max_hours` in all (`more` says the
    next tick has work waiting). Each hour is its own transaction, so a tick stopped half-way loses nothing.
    An archived campaign's clocks stand still (it is read only)."""
    now = now or timezone.now()
    processed = 0
    for event in Event.objects.filter(status=Event.Status.RUNNING, clock_started_at__isnull=False,
                                      campaign__archived_at__isnull=True).order_by("pk"):
        for hour in range(event.current_hour + 1, event_due_hour(event=event, now=now) + 1):
            if processed >= max_hours:
                return TickResult(processed=processed, more=True)
            try:
                done = event_hour_process(event=event, hour=hour)
            except ValidationError:
                break  # closed since it was listed: its hours are over
            processed += 0 if done.already_done else 1
    return TickResult(processed=processed, more=False)
