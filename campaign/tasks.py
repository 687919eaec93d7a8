"""Celery tasks of the campaign app: thin, idempotent, one service call each."""

from celery import shared_task

from campaign.campaigns.services import heartbeat_record
from campaign.economy import upkeep
from campaign.models import Day
from campaign.notifications import delivery, sweep, triggers


@shared_task(name="campaign.heartbeat")
def heartbeat(name: str = "worker") -> str:
    """Beat runs this every minute; the campaign page shows when the worker last answered."""
    return heartbeat_record(name=name).seen_at.isoformat()


@shared_task(name="campaign.day_close")
def day_close(day_id: int) -> dict | None:
    """Close a Day and post its upkeep. Idempotent: a Day already closed (or gone) posts nothing again."""
    day = Day.objects.filter(pk=day_id).first()
    if day is None:
        return None
    result = upkeep.day_close(day=day, actor=None)
    return {"day": day_id, "bills": len(result.bills), "arrears": len(result.arrears),
            "already_closed": result.already_closed}


@shared_task(name="campaign.clock_tick")
def clock_tick() -> dict:
    """Beat runs this every minute: every due hour of every running Event, in bounded batches. Idempotent: an
    hour already processed is skipped. When more hours are due than one batch takes, the next batch is queued."""
    from django.db import transaction

    from campaign.map import clock

    result = clock.clock_tick()
    if result.more:
        transaction.on_commit(clock_tick.delay)
    return {"processed": result.processed, "more": result.more}


# Notifications: each task reads its happening back and tells each recipient once (campaign.notifications).


@shared_task(name="campaign.notify_hour")
def notify_hour(event_id: int, hour: int) -> int:
    return triggers.notify_hour(event_id=event_id, hour=hour)


@shared_task(name="campaign.notify_day_closed")
def notify_day_closed(day_id: int) -> int:
    return triggers.notify_day_closed(day_id=day_id)


@shared_task(name="campaign.notify_to_move")
def notify_to_move(match_id: int, actor_id: int | None = None) -> int:
    return triggers.notify_to_move(match_id=match_id, actor_id=actor_id)


@shared_task(name="campaign.notify_challenge")
def notify_challenge(challenge_id: int) -> int:
    return triggers.notify_challenge(challenge_id=challenge_id)


@shared_task(name="campaign.notify_funding_request")
def notify_funding_request(request_id: int) -> int:
    return triggers.notify_funding_request(request_id=request_id)


@shared_task(name="campaign.notification_deliver")
def notification_deliver(notification_id: int) -> dict:
    return delivery.notification_deliver(notification_id=notification_id)


@shared_task(name="campaign.notifications_sweep")
def notifications_sweep() -> int:
    """Beat runs this every five minutes: what lost tasks did not tell (campaign.notifications.sweep)."""
    return sweep.notifications_sweep()
