"""Reads for campaigns, Events, Days, memberships and invitations: only what a user's memberships let them see;
what a new campaign still lacks (the GM's setup checklist)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.db.models import FilteredRelation, Q, QuerySet
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from campaign.models import (
    AuditEntry,
    Campaign,
    Commander,
    Day,
    Event,
    Heartbeat,
    HourLog,
    Invitation,
    Membership,
    Reversible,
    Role,
    TacticalMap,
)


def campaign_list_for_user(*, user, archived: bool = False) -> QuerySet[Membership]:
    """The user's memberships with their campaigns, for the home page: those in play, or the archived ones."""
    return (Membership.objects.filter(user=user, campaign__archived_at__isnull=not archived)
            .select_related("campaign").order_by("campaign__name"))


def campaigns_visible_to(*, user) -> QuerySet[Campaign]:
    return Campaign.objects.filter(memberships__user=user).distinct()


def events_visible_to(*, user) -> QuerySet[Event]:
    return Event.objects.filter(campaign__memberships__user=user).select_related("campaign").distinct()


def days_visible_to(*, user) -> QuerySet[Day]:
    return Day.objects.filter(event__campaign__memberships__user=user).select_related("event").distinct()


def memberships_visible_to(*, user) -> QuerySet[Membership]:
    return Membership.objects.filter(campaign__memberships__user=user).select_related("user", "campaign").distinct()


def members_of(*, campaign: Campaign) -> QuerySet[Membership]:
    return campaign.memberships.select_related("user").order_by("role", "user__username")


def invitations_of(*, campaign: Campaign) -> QuerySet[Invitation]:
    return campaign.invitations.select_related("created_by", "campaign")


def invitations_managed_by(*, user) -> QuerySet[Invitation]:
    """Invitations of the campaigns where the user is a game master: the codes are the GMs' to hand out."""
    return Invitation.objects.filter(campaign__memberships__user=user, campaign__memberships__role=Role.GM
                                     ).select_related("campaign", "created_by").distinct()


def reversibles_managed_by(*, user) -> QuerySet[Reversible]:
    """The records a game master may reverse (and those reversed), of the campaigns where the user is one."""
    return Reversible.objects.filter(campaign__memberships__user=user, campaign__memberships__role=Role.GM
                                     ).select_related("campaign").distinct()


def invitation_by_code(*, code: str) -> Invitation | None:
    return Invitation.objects.select_related("campaign").filter(code=code).first()


def invitation_refusal(invitation: Invitation, *, now: datetime | None = None) -> str:
    """Why nobody may join with this invitation any more ("" while they may): revoked, expired or used up."""
    to, ask = f"This invitation to {invitation.campaign}", f"ask a game master of {invitation.campaign} for a new link."
    if invitation.revoked_at is not None:
        return f"{to} was withdrawn: {ask}"
    if invitation.expires_at <= (now or timezone.now()):
        return f"{to} expired on {timezone.localtime(invitation.expires_at):%d %b %Y at %H:%M}: {ask}"
    if invitation.max_uses is not None and invitation.uses >= invitation.max_uses:
        return f"{to} has been used as many times as it allows ({invitation.max_uses}): {ask}"
    return ""


def events_with_days(*, campaign: Campaign) -> QuerySet[Event]:
    return campaign.events.prefetch_related("days").order_by("starts_at", "id")


def beat_schedule() -> QuerySet[PeriodicTask]:
    """Celery beat's entries (django-celery-beat keeps them in the database), for the GMs' schedule page."""
    return PeriodicTask.objects.select_related("interval", "crontab").order_by("name")


@dataclass(frozen=True)
class SetupGap:
    """Something a campaign still lacks, and the page (URL name, arguments after the slug) where a GM adds it."""

    text: str
    url_name: str
    args: tuple = ()
    anchor: str = ""


def campaign_setup_gaps(*, campaign: Campaign) -> list[SetupGap]:
    """What a GM has still to set up before players can play: empty once the campaign is ready."""
    gaps = []
    tactical_map = TacticalMap.objects.filter(campaign=campaign).first()
    if tactical_map is None or not tactical_map.picture:
        gaps.append(SetupGap("The map has no picture: upload one.", "map-edit"))
    event, _ = event_and_day_today(campaign=campaign)
    if not campaign.events.exists():
        gaps.append(SetupGap("There are no Events: create the first.", "events", anchor="new-event"))
    elif event is not None and not event.recruit_offers.exists():
        gaps.append(SetupGap(f"{event.name} has no recruit list: choose what may be recruited there.",
                             "event-edit", (event.pk,), "recruit-list"))
    led = Commander.objects.active().filter(campaign=campaign, player__isnull=False).values("player_id")
    bare = list(members_of(campaign=campaign).filter(role=Role.PLAYER).exclude(user_id__in=led))
    if bare:
        names = ", ".join(m.user.get_username() for m in bare)
        gaps.append(SetupGap(f"Without a commander: {names}. Give each player one.", "commander-list",
                             anchor="new-commander"))
    if not campaign.invitations.exists():
        gaps.append(SetupGap("Nobody has been invited: create an invitation link for your players.", "members",
                             anchor="invitations"))
    return gaps


def event_current_day(*, event: Event) -> Day | None:
    return event.days.filter(status=Day.Status.OPEN).first()


def event_and_day_today(*, campaign: Campaign) -> tuple[Event | None, Day | None]:
    """The Event recruiting and training happen at (the running one, else the next not closed) and its open Day.
    One read: the Events not closed (a campaign holds a handful), each joined to its open Day (at most one)."""
    open_day = FilteredRelation("days", condition=Q(days__status=Day.Status.OPEN))
    # The type stubs do not know a FilteredRelation's name may be selected.
    events = list(Event.objects.filter(campaign=campaign).exclude(status=Event.Status.CLOSED)  # type: ignore[misc]
                  .annotate(open_day=open_day).select_related("open_day").order_by("starts_at", "id"))
    event = next((e for e in events if e.status == Event.Status.RUNNING), events[0] if events else None)
    if event is None:
        return None, None
    day = getattr(event, "open_day", None)  # set only when the join found a Day
    if day is not None:
        day.event = event
    return event, day


def heartbeat_get(*, name: str) -> Heartbeat | None:
    return Heartbeat.objects.filter(name=name).first()


def stamp_columns() -> list[str]:
    """Four scalar subqueries, each one step down an index and naming the campaign once: the newest audit
    entry's id and time, and the newest processed hour's. Raw SQL because this runs on every poll and the ORM's
    compiling of the same query cost three times its database time; campaign.web.page_cache reads them with
    every other version a remembered page names."""
    quote = connection.ops.quote_name
    audit, hour, event = (quote(model._meta.db_table) for model in (AuditEntry, HourLog, Event))
    newest_audit = f"FROM {audit} WHERE campaign_id = %s ORDER BY id DESC LIMIT 1"
    newest_hour = (f"FROM {hour} JOIN {event} ON {event}.id = {hour}.event_id WHERE {event}.campaign_id = %s "
                   f"ORDER BY {hour}.id DESC LIMIT 1")
    return [f"(SELECT id {newest_audit})", f"(SELECT at {newest_audit})", f"(SELECT {hour}.id {newest_hour})",
            f"(SELECT processed_at {newest_hour})"]


def stamp_of(values: Sequence[object]) -> str:
    """The change stamp made of what stamp_columns read."""
    return hashlib.blake2b(repr(tuple(values)).encode(), digest_size=10).hexdigest()


def campaign_change_stamp(*, campaign_id: int) -> str:
    """A value that changes whenever anything in the campaign changes, in one indexed query: the newest audit
    entry (every service records one) and the newest processed hour (the clock's tick records an HourLog
    instead), each by id and time (the times keep a stamp unique where ids are used twice, as in a database
    restored from a backup). Pages key what they remember of a campaign by it, so nothing remembered
    outlives a change."""
    columns = stamp_columns()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(columns)}", [campaign_id] * len(columns))
        return stamp_of(cursor.fetchone())
