"""Claims, one way for everything several game masters may resolve at once (a Battle due, a card-game encounter):
one game master claims it, and the others see who holds it.

A row claimable here has `claimed_by` and `claimed_at`. Claiming one another game master holds is refused with
their name (ask them, or release their claim first: any game master may, for one who left); claiming one's own
claim again or releasing a free one changes nothing, so a retried tap is harmless. Each real change is audited,
which also tells every open game master's page (the audit writer announces to the game masters' topic).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Model, QuerySet
from django.utils import timezone

from campaign.campaigns.audit import audit_record
from campaign.locking import lock
from campaign.models import Campaign

M = TypeVar("M", bound=Model)


@transaction.atomic
def claim(rows: QuerySet[M], *, pk: int, actor: User, noun: str, action: str, campaign_of: Callable[[M], Campaign],
          closed: Callable[[M], str | None]) -> M:
    """`actor` takes row `pk` of `rows` to resolve it; `closed` says why it cannot be claimed any more (None: it
    can), `noun` names it in the refusal ("Battle", "match")."""
    row: Any = lock(rows).select_related("claimed_by").get(pk=pk)  # any model with the two claim fields
    refusal = closed(row)
    if refusal:
        raise ValidationError(refusal)
    if row.claimed_by_id == actor.pk:
        return row
    if row.claimed_by is not None:
        raise ValidationError(f"{row.claimed_by.get_username()} is resolving this {noun}: ask them, or release "
                              f"their claim first.")
    row.claimed_by, row.claimed_at = actor, timezone.now()
    row.save(update_fields=["claimed_by", "claimed_at"])
    audit_record(campaign=campaign_of(row), actor=actor, action=action, target=row)
    return row


@transaction.atomic
def release(rows: QuerySet[M], *, pk: int, actor: User, action: str, campaign_of: Callable[[M], Campaign]) -> M:
    """Row `pk` of `rows` is free again for any game master."""
    row: Any = lock(rows).get(pk=pk)
    if row.claimed_by_id is None:
        return row
    row.claimed_by, row.claimed_at = None, None
    row.save(update_fields=["claimed_by", "claimed_at"])
    audit_record(campaign=campaign_of(row), actor=actor, action=action, target=row)
    return row
