"""Several game masters at once: one claims a Battle due to resolve it, and the others see who holds it (the
rules of a claim are campaign.claiming's); a Battle no longer due cannot be claimed."""

from __future__ import annotations

from django.contrib.auth.models import User

from campaign import claiming
from campaign.models import DueBattle

_BATTLES = DueBattle.objects.select_related("event__campaign")


def _closed(battle: DueBattle) -> str | None:
    if battle.status != DueBattle.Status.DUE:
        return f"This Battle is already {battle.get_status_display().lower()}: nothing to claim."
    return None


def due_battle_claim(*, due_battle: DueBattle, actor: User) -> DueBattle:
    """`actor` takes the Battle due to resolve it."""
    return claiming.claim(_BATTLES.all(), pk=due_battle.pk, actor=actor, noun="Battle", action="battle.claim",
                          campaign_of=lambda battle: battle.event.campaign, closed=_closed)


def due_battle_release(*, due_battle: DueBattle, actor: User) -> DueBattle:
    """The Battle due is free again for any game master."""
    return claiming.release(_BATTLES.all(), pk=due_battle.pk, actor=actor, action="battle.release",
                            campaign_of=lambda battle: battle.event.campaign)
