"""The Armies page: the armies and units in reserve of the commanders a member may act for, and the forms to
form an army, split one, merge two and disband one.

Thin: parse the form, find the commander among those the member may act for (any other is a 404), call a
map service, show its sentence as a message.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from campaign.campaigns.views import campaign_membership
from campaign.economy import selectors as economy_selectors
from campaign.map import armies as army_services
from campaign.map import selectors
from campaign.models import Army, Commander
from campaign.web.numbers import parse_id
from campaign.web.refusals import refusal_shown


def _unit_ids(request: HttpRequest) -> list[int]:
    return [unit_id for value in request.POST.getlist("units") if (unit_id := parse_id(value)) is not None]


def _act(request: HttpRequest, commander: Commander, armies) -> str:
    """Apply one form; returns the success sentence."""
    post, actor = request.POST, request.user
    action = post.get("action")
    if action == "form":
        army = army_services.army_form(commander=commander, name=post.get("name", ""), unit_ids=_unit_ids(request),
                                       actor=actor)
        return f"{army.name} is formed: it waits in reserve until a game master places it on the map."
    army = get_object_or_404(armies, pk=post.get("army") or 0, commander=commander)
    if action == "split":
        new = army_services.army_split(army=army, unit_ids=_unit_ids(request), name=post.get("name", ""), actor=actor)
        where = "beside it" if new.map_id else "in reserve"
        return f"{new.name} splits off from {army.name} and stands {where}, with no orders."
    if action == "merge":
        into = get_object_or_404(armies, pk=post.get("into") or 0)
        army_services.army_merge(army=army, into=into, actor=actor)
        return f"{army.name} joins {into.name}."
    if action == "disband":
        army_services.army_disband(army=army, actor=actor)
        return f"{army.name} is disbanded: its units are back in reserve."
    raise ValidationError("Pick something to do: form, split, merge or disband.")


@login_required
def armies_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Every commander the member may act for (a GM: all of the campaign's), with their armies."""
    campaign, membership = campaign_membership(request, slug)
    commanders = economy_selectors.commanders_for_member(membership=membership)
    return render(request, "campaign/map/armies.html", {
        "campaign": campaign, "is_gm": membership.is_gm, "commander": None,
        "rosters": selectors.commander_rosters(commanders=commanders),
    })


@login_required
@require_http_methods(["GET", "POST"])
def commander_armies(request: HttpRequest, slug: str, commander_id: int) -> HttpResponse:
    """One commander's armies; POST forms, splits, merges or disbands, then returns to the page it came from."""
    campaign, membership = campaign_membership(request, slug)
    commander = get_object_or_404(economy_selectors.commanders_for_member(membership=membership), pk=commander_id)
    if request.method == "POST":
        with refusal_shown(request, ValidationError):
            messages.success(request, _act(request, commander, Army.objects.filter(commander=commander)))
        if request.POST.get("back") == "campaign":
            return redirect("armies", slug)
        return redirect("commander-armies", slug, commander.pk)
    return render(request, "campaign/map/armies.html", {
        "campaign": campaign, "is_gm": membership.is_gm, "commander": commander,
        "rosters": selectors.commander_rosters(commanders=[commander]),
    })
