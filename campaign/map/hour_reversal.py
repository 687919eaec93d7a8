"""Reversing a processed hour (campaign.campaigns.reversals): the armies stand where they stood, orders, arrivals
and captures are as they were, the Battles due raised that hour are called off, the marks of armies led that the
hour made are taken back, and the clock is back at the hour before, so advancing processes the hour again.
The hour's log stays, marked reversed. Only with the clock stopped: a running clock would process it again at
once, before the game master could change anything.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from campaign.campaigns.reversals import reversal_apply, reversible_record
from campaign.locking import lock
from campaign.models import ArmyDayActivity, DueBattle, Event, HourLog, Reversible


def map_rows(on_map) -> dict[tuple[str, int], dict]:
    """The rows the hour may change, from what the hour has loaded (no query: read before and after its Moves),
    keyed as campaign.campaigns.reversals.changes_between takes them."""
    rows: dict[tuple[str, int], dict] = {}
    for army in on_map.armies.values():
        rows[("campaign.army", army.pk)] = {"x": army.x, "y": army.y}
    for order in on_map.orders.values():
        rows[("campaign.moveorder", order.pk)] = {"path": order.path, "status": order.status,
                                                  "done_hour": order.done_hour, "arrival_hour": order.arrival_hour}
    for location in on_map.locations.values():
        rows[("campaign.location", location.pk)] = {"holder_id": location.holder_id,
                                                    "capture_progress": location.capture_progress,
                                                    "capturing_army_id": location.capturing_army_id}
    return rows


def hour_record(*, event: Event, log: HourLog, changed: list[dict], due_battles: list[int],
                marks: list[int]) -> Reversible:
    """Keep what the hour did: the map's rows it changed, the clock's hour, the Battles due and marks it made."""
    clock = {"model": "campaign.event", "pk": event.pk, "before": {"current_hour": log.hour - 1},
             "after": {"current_hour": log.hour}}
    return reversible_record(kind=Reversible.Kind.HOUR, campaign_id=event.campaign_id, event_id=event.pk,
                             target_id=log.pk, label=f"hour {log.hour} of {event.name}", actor=None,
                             changed=[*changed, clock],
                             created={"campaign.hourlog": [log.pk], "campaign.duebattle": due_battles,
                                      "campaign.armydayactivity": marks})


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
