"""Every page of the app from the URLconf, with its parameters filled from a campaign's objects: the walks that
check each page (tests/e2e/test_accessibility.py in a browser, tests/campaign/web/test_archived_pages.py with the
test client) visit a page added later without editing them."""

from __future__ import annotations

import re
from collections.abc import Iterator

from django.urls import URLPattern, URLResolver, get_resolver

NOT_PAGES = ("api/", "admin/", "static/", "media/")


def routes(resolver=None, prefix: str = "") -> Iterator[tuple[str, str]]:
    """(route, name) of every URL pattern, with the prefixes of the includes it sits under."""
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and not (prefix + str(pattern.pattern)).startswith(NOT_PAGES):
            yield prefix + str(pattern.pattern), pattern.name or ""


def parameter_values(campaign, user) -> dict[str, list[str]]:
    """For each URL parameter, the demo objects `user` would open (every match and battle: each has its own
    table layout; the first of anything else). A player gets their own commander's things."""
    from battles.models import Battle
    from campaign.campaigns.services import feed_token_reset
    from campaign.models import (
        Commander,
        Day,
        Event,
        EventRecruitOffer,
        FundingRequest,
        Invitation,
        Item,
        Membership,
        MoveOrder,
        Notification,
        Reversible,
        Unit,
        UnitType,
        UpkeepArrears,
    )
    from cardgames.models import Challenge, Match

    def ids(queryset) -> list[str]:
        return [str(pk) for pk in queryset.order_by("pk").values_list("pk", flat=True)]

    commanders = Commander.objects.filter(campaign=campaign)
    if user is not None and campaign.memberships.filter(user=user, role="player").exists():
        commanders = commanders.filter(player=user)
    commander = commanders.order_by("pk").first()
    invitation = Invitation.objects.filter(campaign=campaign).order_by("pk").first()
    return {
        "slug": [campaign.slug],
        "commander_id": [str(commander.pk)],
        "unit_id": ids(Unit.objects.filter(commander=commander))[:1],
        "item_id": ids(Item.objects.filter(commander=commander))[:1],
        "request_id": ids(FundingRequest.objects.filter(campaign=campaign))[:1],
        "arrears_id": ids(UpkeepArrears.objects.filter(commander__campaign=campaign))[:1],
        "offer_id": ids(EventRecruitOffer.objects.filter(event__campaign=campaign))[:1],
        "match_id": ids(Match.objects.filter(campaign=campaign)),
        "battle_id": ids(Battle.objects.filter(campaign=campaign)),
        "challenge_id": ids(Challenge.objects.filter(campaign=campaign))[:1],
        "event_id": ids(Event.objects.filter(campaign=campaign))[:1],
        "day_id": ids(Day.objects.filter(event__campaign=campaign, status=Day.Status.OPEN))[:1],
        "membership_id": ids(Membership.objects.filter(campaign=campaign))[:1],
        "invitation_id": [str(invitation.pk)] if invitation else [],
        "code": [invitation.code] if invitation else ["no-such-invitation"],
        "unit_type_id": ids(UnitType.objects.filter(campaign=campaign))[:1]
        or ids(UnitType.objects.filter(campaign=None))[:1],
        "order_id": ids(MoveOrder.objects.filter(event__campaign=campaign))[:1],
        "notification_id": ids(Notification.objects.filter(user=user))[:1] if user else [],
        "reversible_id": ids(Reversible.objects.filter(campaign=campaign))[:1],
        "token": [feed_token_reset(user=user, current="").token] if user else ["no-such-token"],
        # Words in action routes (POST only): any allowed value reaches the view's 405.
        "answer": ["accept"], "decision": ["accept"], "kind": ["grant"], "control": ["start"],
    }


def urls(route: str, values: dict[str, list[str]]) -> list[str]:
    """`route` with its parameters filled, one URL per choice of the parameter that has several."""
    names = re.findall(r"<(?:\w+:)?(\w+)>", route)
    unknown = [name for name in names if name not in values]
    assert not unknown, f"route {route!r}: this test has no demo value for {unknown}; add one to _parameter_values"
    urls = [route]
    for name in names:
        # No such demo object: id 0 still tells an action (405) apart; a page then fails as never shown.
        choices = values[name] or ["0"]
        urls = [re.sub(rf"<(?:\w+:)?{name}>", value, url, count=1) for url in urls for value in choices]
    return ["/" + url.lstrip("^").rstrip("$") for url in urls]
