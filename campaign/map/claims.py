"""Several game masters at once: one claims a Battle due to resolve it, and the others see who holds it.

Claiming a Battle another game master holds is refused with their name (ask them, or release their claim first:
any game master may, for one who left); claiming one's own claim again or releasing a free Battle changes
nothing, so a retried tap is harmless. Each real change is audited, which also tells every open console.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaign.campaigns.audit import audit_record
from campaign.locking import lock
from campaign.models import DueBattle


@transaction.atomic
def due_battle_claim(*, due_battle: DueBattle, actor: User) -> DueBattle:
    """`actor` takes the Battle due to resolve it."""
    battle = lock(DueBattle.objects).select_related("event__campaign", "claimed_by").get(pk=due_battle.pk)
    if battle.status != DueBattle.Status.DUE:
        raise ValidationError(f"This Battle is already {battle.get_status_display().lower()}: nothing to claim.")
    if battle.claimed_by_id == actor.pk:
        return battle
    if battle.claimed_by is not None:
        raise ValidationError(f"{battle.claimed_by.get_username()} is resolving this Battle: ask them, or release "
                              f"their claim first.")
    battle.claimed_by, battle.claimed_at = actor, timezone.now()
    battle.save(update_fields=["claimed_by", "claimed_at"])
    audit_record(campaign=battle.event.campaign, actor=actor, action="battle.claim", target=battle)
    return battle


@transaction.atomic
def due_battle_release(*, due_battle: DueBattle, actor: User) -> DueBattle:
    """The Battle due is free again for any game master."""
    battle = lock(DueBattle.objects).select_related("event__campaign").get(pk=due_battle.pk)
    if battle.claimed_by_id is None:
        return battle
    battle.claimed_by, battle.claimed_at = None, None
    battle.save(update_fields=["claimed_by", "claimed_at"])
    audit_record(campaign=battle.event.campaign, actor=actor, action="battle.release", target=battle)
    return battle
