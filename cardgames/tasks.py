"""Celery tasks of the card-game app."""

from celery import shared_task

from cardgames.services import match_play_ai


@shared_task(name="cardgames.match_play_ai")
def match_play_ai_task(match_id: int) -> int:
    """AI seats take their moves; a repeat delivery finds nothing to do."""
    return match_play_ai(match_id=match_id)

