"""Puts into every template the campaign being viewed and my role in it (for the navigation bar), and whether
pushed updates cover every change (static/js/live.js stops polling only then)."""

from __future__ import annotations

from django.conf import settings


def current_campaign(request):
    membership = getattr(request, "membership", None)
    return {"current_membership": membership, "current_campaign": membership.campaign if membership else None}


def live_push(request):
    return {"live_push_everywhere": settings.LIVE_PUSH_EVERYWHERE}
