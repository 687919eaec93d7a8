"""The audit trail's writer: one row for every change a person (or the clock) made, with what it touched."""

from __future__ import annotations

from django.contrib.auth.models import User

from campaign.live.push import announce, gm_topic
from campaign.models import (
    AuditEntry,
    Campaign,
)


def audit_record(*, campaign: Campaign, actor: User | None, action: str, target: object = "",
                 data: dict | None = None) -> AuditEntry:
    """Record the change, and tell the campaign's game masters' open pages once it commits."""
    entry = AuditEntry.objects.create(campaign=campaign, actor=actor if actor and actor.pk else None,
                                      action=action, target=str(target)[:200], data=data or {})
    announce(gm_topic(campaign.pk), entry.pk)
    return entry
