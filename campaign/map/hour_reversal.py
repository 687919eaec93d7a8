"""Reversing a processed hour (campaign.campaigns.reversals): the armies stand where they stood, orders, arrivals
and captures are as they were, the Battles due raised that hour are called off, the marks of armies led that the
hour made are taken back, and the clock is back at the hour before, so advancing processes the hour again.
The hour's log stays, marked reversed. Only with the clock stopped: a running clock would process it again at
once, before the game master could change anything.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from campaign.campaigns.reversals import Watch, reversal_apply, reversible_record
from campaign.locking import lock
from campaign.models import (
    Army,
    ArmyDayActivity,
    Day,
    DueBattle,
    Event,
    HourLog,
    Location,
    MoveOrder,
    Reversible,
    TacticalMap,
)


def hour_watch(*, event: Event, tactical_map: TacticalMap | None) -> Watch:
    """What processing the next hour may change, read before it changes (after the hour locked its rows)."""
    scopes: list = [(Event.objects.filter(pk=event.pk), ("current_hour",))]
    if tactical_map is not None:
        scopes += [
            (Army.objects.filter(map=tactical_map), ("x", "y")),
            (MoveOrder.objects.filter(event=event, status=MoveOrder.Status.ACTIVE, army__map=tactical_map),
             ("path", "status", "done_hour", "arrival_hour")),
            (Location.objects.filter(map=tactical_map), ("holder_id", "capture_progress", "capturing_army_id")),
        ]
    led_today = ArmyDayActivity.objects.filter(day__event=event, day__status=Day.Status.OPEN)
    return Watch(scopes=scopes, creating=[DueBattle.objects.filter(event=event), led_today])


def hour_record(*, event: Event, log: HourLog, watch: Watch) -> Reversible:
    return reversible_record(kind=Reversible.Kind.HOUR, campaign_id=event.campaign_id, event_id=event.pk,
                             target_id=log.pk, label=f"hour {log.hour} of {event.name}", watch=watch, actor=None,
                             created={"campaign.hourlog": [log.pk]})


def clock_running(record: Reversible) -> str | None:
    """A guard: the hour is reversed with the clock paused (or not started)."""
    event = Event.objects.get(pk=record.event_id)
    if event.status == Event.Status.RUNNING:
        return f"{event.name}'s clock is running: pause it first, or it processes {record.label} again at once."
    return None


def _undo(record: Reversible, reason: str) -> list[int]:
    HourLog.objects.filter(pk=record.target_id).update(reversed=True)
    DueBattle.objects.filter(pk__in=record.created.get("campaign.duebattle", []),
                             status=DueBattle.Status.DUE).update(status=DueBattle.Status.CANCELLED)
    ArmyDayActivity.objects.filter(pk__in=record.created.get("campaign.armydayactivity", [])).delete()
    return []


@transaction.atomic
def hour_reverse(*, record: Reversible, actor: User | None, reason: str) -> Reversible:
    """Reverse a processed hour (a game master, with a reason); a retried reversal changes nothing. The Event is
    locked first, as the hour itself locks it, so the clock's tick waits."""
    lock(Event.objects).get(pk=record.event_id)
    hour = HourLog.objects.filter(pk=record.target_id).values_list("hour", flat=True).first()
    return reversal_apply(record=record, actor=actor, reason=reason, action="clock.reverse", undo=_undo,
                          data={"hour": hour})
