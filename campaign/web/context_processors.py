"""Puts into every template the campaign being viewed and my role in it (for the navigation bar), whether it is
read only (archived: the templates leave out every control a write would be refused from, and base.html says
so once), and whether pushed updates cover every change (static/js/live.js stops polling only then)."""

from __future__ import annotations

from django.conf import settings


def current_campaign(request):
    membership = getattr(request, "membership", None)
    campaign = membership.campaign if membership else None
    return {"current_membership": membership, "current_campaign": campaign,
            "read_only": campaign is not None and campaign.archived_at is not None}


def live_push(request):
    return {"live_push_everywhere": settings.LIVE_PUSH_EVERYWHERE}
