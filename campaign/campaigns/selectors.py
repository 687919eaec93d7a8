"""Reads for campaigns, Events, Days and memberships: only what a user's memberships let them see."""

from __future__ import annotations

from django.db.models import QuerySet

from campaign.models import (
    Campaign,
    Day,
    Event,
    Heartbeat,
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
