"""Several game masters at once: one claims an encounter (a match not over yet) to resolve it, and the others see
who holds it (the rules of a claim are campaign.claiming's, as for a Battle due)."""

from __future__ import annotations

from django.contrib.auth.models import User

from campaign import claiming
from cardgames.models import Match

_MATCHES = Match.objects.select_related("campaign")


def _closed(match: Match) -> str | None:
    if match.status != Match.Status.ACTIVE:
        return f"This match is already {match.get_status_display().lower()}: nothing to claim."
    return None


def match_claim(*, match: Match, actor: User) -> Match:
    """`actor` takes the encounter to resolve it."""
    return claiming.claim(_MATCHES.all(), pk=match.pk, actor=actor, noun="match", action="match.claim",
                          campaign_of=lambda row: row.campaign, closed=_closed)


def match_release(*, match: Match, actor: User) -> Match:
    """The encounter is free again for any game master."""
    return claiming.release(_MATCHES.all(), pk=match.pk, actor=actor, action="match.release",
                            campaign_of=lambda row: row.campaign)
