"""The Events page (each Event with its Days, the open one marked; GMs create and edit Events) and the schedule
page (how the event clock turns real minutes into hours, and the Celery beat entries that drive it).

Days are not made here: an Event opens with Day 1 and closing a Day on the clock page opens the next.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from campaign.campaigns import selectors, services
from campaign.campaigns.forms import EventForm
from campaign.campaigns.permissions import Action, can, require
from campaign.campaigns.views import campaign_membership
from campaign.models import Event
from campaign.web.forms import form_errors_sentence
from campaign.web.refusals import refusal_shown


@login_required
@require_http_methods(["GET", "POST"])
def events_page(request: HttpRequest, slug: str) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.VIEW_EVENTS)
    form = EventForm(request.POST or None)
    if request.method == "POST":
        require(membership, Action.MANAGE_EVENTS)
        if not form.is_valid():
            messages.error(request, form_errors_sentence(form))
        else:
            with refusal_shown(request, ValidationError):
                event = services.event_create(campaign=campaign, actor=request.user, **form.cleaned_data)
                messages.success(request, f"{event.name} is planned, with Day 1 open: start its clock on the "
                                          "clock page when play begins.")
                return redirect("events", slug)
    return render(request, "campaign/events.html", {
        "campaign": campaign, "events": selectors.events_with_days(campaign=campaign), "form": form,
        "manage": can(membership, Action.MANAGE_EVENTS),
    })


@login_required
@require_http_methods(["GET", "POST"])
def event_edit(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.MANAGE_EVENTS)
    event = get_object_or_404(Event, pk=event_id, campaign=campaign)
    form = EventForm(request.POST) if request.method == "POST" else EventForm.for_event(event)
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, form_errors_sentence(form))
        else:
            changed = {k: v for k, v in form.cleaned_data.items() if getattr(event, k) != v}
            with refusal_shown(request, ValidationError):
                services.event_update(event=event, actor=request.user, **changed)
                messages.success(request, f"{event.name} is saved." if changed else "Nothing changed.")
                return redirect("events", slug)
            event.refresh_from_db()  # refused: the form shows what was asked, the page what stands
    return render(request, "campaign/event_edit.html", {
        "campaign": campaign, "event": event, "form": form, "days": event.days.all(),
        "offers": event.recruit_offers.select_related("unit_type"),
    })


@login_required
def schedule(request: HttpRequest, slug: str) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.RUN_CLOCK)
    return render(request, "campaign/schedule.html", {
        "campaign": campaign, "events": selectors.events_with_days(campaign=campaign),
        "tasks": selectors.beat_schedule(),
    })
