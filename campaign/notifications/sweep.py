"""The beat's catch-up for notifications: a broker that did not answer lost the tasks that would have told people
(config.celery.enqueue_on_commit logs and goes on), so every few minutes the recent happenings are told again.
Each trigger tells each happening once, so what was told before is not repeated. Bounded: the last hours only,
at most BATCH rows of each kind. A table's 'your move' is told here without knowing who moved last, so a player
whose move it still is after their own may hear it once more."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from campaign.models import Day, FundingRequest, HourLog
from campaign.notifications import triggers
from cardgames.models import Challenge, Match

SWEEP_HOURS = 6
BATCH = 200


def notifications_sweep(*, now: datetime | None = None) -> int:
    since = (now or timezone.now()) - timedelta(hours=SWEEP_HOURS)
    told = sum(triggers.notify_hour(event_id=event_id, hour=hour) for event_id, hour in
               HourLog.objects.filter(processed_at__gte=since).order_by("-pk").values_list("event_id", "hour")[:BATCH])
    told += sum(triggers.notify_day_closed(day_id=pk) for pk in
                Day.objects.filter(closed_at__gte=since).order_by("-pk").values_list("pk", flat=True)[:BATCH])
    told += sum(triggers.notify_challenge(challenge_id=pk) for pk in Challenge.objects.filter(
        created_at__gte=since, status=Challenge.Status.OPEN).order_by("-pk").values_list("pk", flat=True)[:BATCH])
    pending = FundingRequest.objects.filter(created_at__gte=since, status=FundingRequest.Status.PENDING)
    told += sum(triggers.notify_funding_request(request_id=pk) for pk in
                pending.order_by("-pk").values_list("pk", flat=True)[:BATCH])
    told += sum(triggers.notify_to_move(match_id=pk) for pk in Match.objects.filter(
        status=Match.Status.ACTIVE).order_by("-pk").values_list("pk", flat=True)[:BATCH])
    return told
