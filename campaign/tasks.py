"""Celery tasks of the campaign app: thin, idempotent, one service call each."""

from celery import shared_task

from campaign.campaigns.services import heartbeat_record
from campaign.economy import upkeep
from campaign.models import Day


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
