"""Celery tasks of the card-game app."""

from celery import shared_task

from cardgames.services import match_ai_sweep, match_play_ai


@shared_task(name="cardgames.match_play_ai")
def match_play_ai_task(match_id: int) -> int:
    """AI seats take their moves; a repeat delivery finds nothing to do."""
    return match_play_ai(match_id=match_id)



@shared_task(name="cardgames.match_ai_sweep")
def match_ai_sweep_task() -> int:
    """Beat runs this every minute: AI seats whose move no queued task made (the broker was down) move now."""
    return match_ai_sweep()
