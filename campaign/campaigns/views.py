"""Pages for people: the home page (my campaigns) and a campaign's page (with the GMs' setup checklist)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode

from battles.selectors import battles_open_count
from campaign.campaigns import audit_words, selectors
from campaign.campaigns.permissions import Action, can, membership_by_slug_or_404, require
from campaign.map import selectors as map_selectors
from campaign.models import Campaign, Commander, Day
from campaign.web.numbers import parse_id
from cardgames.selectors import encounters_active_count

AUDIT_ROWS = 50


def campaign_membership(request: HttpRequest, slug: str):
    """The campaign named in the URL and my membership, or 404 if I am not in it.
    Also sets `request.membership` for the navigation bar."""
    membership = membership_by_slug_or_404(user=request.user, slug=slug)
    request.membership = membership
    return membership.campaign, membership


def _activity_counts(campaign: Campaign) -> dict[str, int]:
    """What is under way, for the tiles: open battles, card games in progress, battles due on the map."""
    return {"battles": battles_open_count(campaign=campaign),
            "encounters": encounters_active_count(campaign=campaign),
            "due": map_selectors.due_battles_open_count(campaign=campaign)}


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """My campaigns in play, or (``?archived=1``) the archived ones, which the home page otherwise only counts."""
    archived = request.GET.get("archived") == "1"
    memberships = selectors.campaign_list_for_user(user=request.user, archived=archived)
    return render(request, "campaign/home.html", {
        "memberships": memberships, "archived": archived,
        "archived_count": 0 if archived else selectors.campaign_list_for_user(user=request.user, archived=True).count(),
    })


def _setup_checklist(campaign: Campaign) -> list[tuple[str, str]]:
    """Each thing the campaign still lacks, with the link to the page where a GM adds it."""
    return [(gap.text, reverse(gap.url_name, args=(campaign.slug, *gap.args)) + (f"#{gap.anchor}" if gap.anchor
                                                                                   else ""))
            for gap in selectors.campaign_setup_gaps(campaign=campaign)]


@login_required
def campaign_detail(request: HttpRequest, slug: str) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    events = list(campaign.events.prefetch_related("days"))
    heartbeat = selectors.heartbeat_get(name="worker")
    worker_age = (timezone.now() - heartbeat.seen_at).total_seconds() if heartbeat else None
    return render(request, "campaign/campaign_detail.html", {
        "campaign": campaign,
        "membership": membership,
        "events": events,
        "counts": _activity_counts(campaign),
        "members": campaign.memberships.select_related("user") if can(membership, Action.VIEW_MEMBERS) else [],
        "heartbeat": heartbeat,
        "worker_ok": worker_age is not None and worker_age < 180,
        "is_gm": membership.is_gm,
        "checklist": _setup_checklist(campaign) if can(membership, Action.EDIT_CAMPAIGN) else [],
    })


@login_required
def audit_trail(request: HttpRequest, slug: str) -> HttpResponse:
    """Every change in words, newest first, filtered by kind, person, commander or Day (``?kind=&who=&
    commander=&day=``)."""
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.VIEW_AUDIT)
    get = request.GET
    commanders = Commander.objects.filter(campaign=campaign).order_by("name")
    days = Day.objects.filter(event__campaign=campaign).select_related("event").order_by("-opened_at")
    who = get.get("who", "")
    filters = audit_words.AuditFilters(
        kind=get.get("kind", "") if get.get("kind") in audit_words.audit_kinds() else "",
        who=0 if who == "nobody" else parse_id(who),
        commander=commanders.filter(pk=parse_id(get.get("commander")) or 0).first(),
        day=days.filter(pk=parse_id(get.get("day")) or 0).first())
    page = Paginator(audit_words.audit_entries(campaign=campaign, filters=filters), AUDIT_ROWS).get_page(
        get.get("page"))
    roles = audit_words.member_roles(campaign)
    query = urlencode({key: get[key] for key in ("kind", "who", "commander", "day") if get.get(key)})
    return render(request, "campaign/economy/audit.html", {
        "campaign": campaign, "page": page, "query": query, "filters": filters,
        "rows": [(entry, audit_words.entry_sentence(entry, roles)) for entry in page],
        "kinds": audit_words.audit_kinds(), "commanders": commanders, "days": days,
        "members": campaign.memberships.select_related("user").order_by("user__username"), "who": who,
    })
