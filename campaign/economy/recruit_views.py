"""The recruit list of an Event, for game masters: put unit types on it (by paying or by quest, at the rules'
price or the GMs'), change or remove them, and see each quest done (by which character, for which commander,
used or not; one recorded by mistake is taken back). Quests are recorded on the commander's page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from campaign.campaigns import selectors as campaigns_selectors
from campaign.campaigns.permissions import Action, require
from campaign.campaigns.views import campaign_membership
from campaign.catalogue.selectors import unit_types_for_campaign
from campaign.economy import quests, selectors, services
from campaign.economy.forms import RecruitOfferForm
from campaign.models import Event, EventRecruitOffer, QuestCompletion
from campaign.web.forms import form_errors_sentence
from campaign.web.numbers import parse_id
from campaign.web.refusals import refusal_shown


def _act(request: HttpRequest, event: Event, unit_types) -> str:
    """Apply one form; returns the success sentence."""
    action, actor = request.POST.get("action"), request.user
    if action == "set":
        form = RecruitOfferForm(request.POST, unit_types=unit_types)
        if not form.is_valid():
            raise ValidationError(form_errors_sentence(form))
        offer = services.recruit_offer_set(event=event, actor=actor, **form.cleaned_data)
        price = selectors.recruit_offer_quote(offer=offer, quests_done=1)
        return f"{offer.unit_type} is on the list{' by quest' if offer.by_quest else ''}" + (
            f", at {price} lunari." if price is not None else ": it needs a price set by the GMs.")
    if action == "remove":
        offer = get_object_or_404(EventRecruitOffer, pk=parse_id(request.POST.get("offer")) or 0, event=event)
        services.recruit_offer_remove(offer=offer, actor=actor)
        return f"{offer.unit_type} is off the list."
    if action == "unrecord":
        done = get_object_or_404(QuestCompletion.objects.select_related("offer__unit_type"),
                                 pk=parse_id(request.POST.get("completion")) or 0, offer__event=event)
        quests.quest_unrecord(completion=done, actor=actor)
        return f"The quest {done.character} did for {done.offer.unit_type} is taken back."
    raise ValidationError("Pick something to do: put a unit type on the list, remove one, or take a quest back.")


@login_required
@require_http_methods(["GET", "POST"])
def recruit_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The recruit list of an Event (``?event=``; default the Event recruiting happens at)."""
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.ACT_FOR_ANY)
    events = Event.objects.filter(campaign=campaign).order_by("starts_at", "pk")
    event_id = parse_id(request.GET.get("event") or request.POST.get("event"))
    event = (get_object_or_404(events, pk=event_id) if event_id is not None
             else campaigns_selectors.event_and_day_today(campaign=campaign)[0])
    unit_types = unit_types_for_campaign(campaign=campaign)
    if request.method == "POST" and event is not None:
        with refusal_shown(request):
            messages.success(request, _act(request, event, unit_types))
        return redirect(f"{request.path}?event={event.pk}")
    offers = list(selectors.event_recruit_offers(event=event).prefetch_related(
        "quest_completions__commander", "quest_completions__unit")) if event else []
    return render(request, "campaign/economy/recruit_list.html", {
        "campaign": campaign, "event": event, "events": events, "unit_types": unit_types,
        "rows": [(offer, selectors.recruit_offer_quote(offer=offer, quests_done=1)) for offer in offers],
    })
