"""An Event's recruit list, edited by a game master on the Event's page: which unit types may be recruited there,
by paying or only after a quest, at the catalogue's price or the GM's. Thin: parse, call the service, show its
sentence, return to the Event's page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaign.campaigns.permissions import Action, require
from campaign.campaigns.views import campaign_membership
from campaign.economy import services
from campaign.economy.forms import RecruitOfferForm
from campaign.models import Event, EventRecruitOffer
from campaign.web.forms import form_errors_sentence
from campaign.web.refusals import refusal_message


def _event(request: HttpRequest, slug: str, event_id: int) -> Event:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.MANAGE_EVENTS)
    return get_object_or_404(Event.objects.select_related("campaign"), pk=event_id, campaign=campaign)


def _back(event: Event) -> HttpResponse:
    return redirect(f"{reverse('event-edit', args=[event.campaign.slug, event.pk])}#recruit-list")


@login_required
@require_POST
def recruit_offer_set(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = _event(request, slug, event_id)
    form = RecruitOfferForm(request.POST, campaign=event.campaign)
    if not form.is_valid():
        messages.error(request, form_errors_sentence(form))
        return _back(event)
    try:
        offer = services.recruit_offer_set(event=event, actor=request.user, **form.cleaned_data)
    except ValidationError as exc:
        refusal_message(request, exc)
    else:
        messages.success(request, f"{offer.unit_type} may be recruited at {event.name}.")
    return _back(event)


@login_required
@require_POST
def recruit_offer_remove(request: HttpRequest, slug: str, event_id: int, offer_id: int) -> HttpResponse:
    event = _event(request, slug, event_id)
    offer = get_object_or_404(EventRecruitOffer.objects.select_related("unit_type", "event__campaign"),
                              pk=offer_id, event=event)
    services.recruit_offer_remove(offer=offer, actor=request.user)
    messages.success(request, f"{offer.unit_type} is off {event.name}'s recruit list.")
    return _back(event)
