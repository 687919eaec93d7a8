"""The audit trail's writer: one row for every change a person (or the clock) made, with what it touched.

Every audited change passes here in its transaction, so here is also the backstop of the archive: a change to an
archived campaign is refused (and rolled back) whichever way its role was checked. Archiving, unarchiving,
exporting, importing and starting a new season from it are the only changes an archived campaign records."""

from __future__ import annotations

from django.contrib.auth.models import User

from campaign.campaigns.permissions import Archived
from campaign.live.push import announce, gm_topic
from campaign.models import (
    AuditEntry,
    Campaign,
)

RECORDED_WHILE_ARCHIVED = frozenset({"campaign.archive", "campaign.unarchive", "campaign.export", "campaign.import",
                                     "campaign.new_season"})


def audit_record(*, campaign: Campaign, actor: User | None, action: str, target: object = "",
                 data: dict | None = None) -> AuditEntry:
    """Record the change, and tell the campaign's game masters' open pages once it commits."""
    if action not in RECORDED_WHILE_ARCHIVED:
        archived = Campaign.objects.filter(pk=campaign.pk, archived_at__isnull=False).first()
        if archived is not None:
            raise Archived(archived)
    entry = AuditEntry.objects.create(campaign=campaign, actor=actor if actor and actor.pk else None,
                                      action=action, target=str(target)[:200], data=data or {})
    announce(gm_topic(campaign.pk), entry.pk)
    return entry
