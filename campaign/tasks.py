"""Celery tasks of the campaign app: thin, idempotent, one service call each."""

from celery import shared_task

from campaign.services import heartbeat_record


@shared_task(name="campaign.heartbeat")
def heartbeat(name: str = "worker") -> str:
    """Beat runs this every minute; the campaign page shows when the worker last answered."""
    return heartbeat_record(name=name).seen_at.isoformat()
