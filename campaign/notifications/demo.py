"""The demo's notifications: what the demo's happenings tell their players (Amira has a challenge, a funding
request and her move at tables; Bastian, his riders' arrival in the hour the demo processed), through the same
triggers the Celery tasks run. Idempotent: each happening is told once (its dedupe key), however often the demo
loads or the worker catches up."""

from __future__ import annotations

from campaign.models import Campaign, FundingRequest, HourLog
from campaign.notifications import triggers
from cardgames.models import Challenge, Match


def load_demo_notifications(*, campaign: Campaign) -> int:
    told = sum(triggers.notify_funding_request(request_id=pk) for pk in
               FundingRequest.objects.filter(campaign=campaign).values_list("pk", flat=True))
    told += sum(triggers.notify_challenge(challenge_id=pk) for pk in
                Challenge.objects.filter(campaign=campaign).values_list("pk", flat=True))
    told += sum(triggers.notify_to_move(match_id=pk) for pk in
                Match.objects.filter(campaign=campaign, status=Match.Status.ACTIVE).values_list("pk", flat=True))
    told += sum(triggers.notify_hour(event_id=event_id, hour=hour) for event_id, hour in
                HourLog.objects.filter(event__campaign=campaign, reversed=False).values_list("event_id", "hour"))
    return told
