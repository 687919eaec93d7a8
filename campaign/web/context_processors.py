"""Puts the campaign being viewed and my role in it into every template (for the navigation bar)."""

from __future__ import annotations


def current_campaign(request):
    membership = getattr(request, "membership", None)
    return {"current_membership": membership, "current_campaign": membership.campaign if membership else None}
