"""Economy pages: a commander's purse, units, recruiting, training, upkeep, Morale and funding; the GM's
economy overview (purses, arrears, grants, fines, closing the Day) and the audit trail.

Thin: parse a form, check who may see the commander, call a service, and show its sentence as a message.
A player sees only their own commanders; anyone else's is a 404, as if it did not exist.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.backends.utils import csrf_input
from django.views.decorators.http import require_POST

from campaign.campaigns import selectors as campaigns_selectors
from campaign.campaigns.fragments import remembered_page
from campaign.campaigns.permissions import Action, can, may_act_for
from campaign.campaigns.views import campaign_membership
from campaign.catalogue.unit_cards import unit_cards_pdf
from campaign.economy import funding as funding_services
from campaign.economy import selectors, services, upkeep
from campaign.economy.commander_page import commander_page_context
from campaign.economy.forms import (
    CommanderForm,
    FundingRequestForm,
    FundingResponseForm,
    MoraleBuyForm,
    RecruitForm,
    RetinueNameForm,
    TrainForm,
    UpkeepPledgeForm,
)
from campaign.live.topics import member_topics
from campaign.models import Commander, FundingRequest, Membership, Unit
from campaign.web.forms import form_errors_sentence
from campaign.web.numbers import parse_id
from campaign.web.refusals import refusal_shown


def commander_visible_or_404(*, membership: Membership, commander_id: int) -> Commander:
    """A commander of the campaign the member may act for (a GM: any; a player: their own), else a 404."""
    commander = get_object_or_404(Commander.objects.select_related("purse", "player"), pk=commander_id,
                                  campaign_id=membership.campaign_id)
    if not may_act_for(membership, commander.player_id):
        raise Http404("No such commander.")
    return commander


def _commander(request: HttpRequest, slug: str, commander_id: int):
    campaign, membership = campaign_membership(request, slug)
    return campaign, membership, commander_visible_or_404(membership=membership, commander_id=commander_id)



def _paid_by(commander: Commander, payer: Commander) -> str:
    return "" if payer.pk == commander.pk else f", paid by {payer}"


def _back(commander: Commander, anchor: str = ""):
    response = redirect("commander-detail", slug=commander.campaign.slug, commander_id=commander.pk)
    if anchor:
        response["Location"] += f"#{anchor}"
    return response


# --- a commander's pages -------------------------------------------------------------------------------


@login_required
def commander_list(request: HttpRequest, slug: str) -> HttpResponse:
    """My commanders; a GM sees every commander of the campaign."""
    campaign, membership = campaign_membership(request, slug)
    is_gm = can(membership, Action.ACT_FOR_ANY)
    commanders = (selectors.commanders_of_campaign(campaign=campaign) if is_gm
                  else selectors.commanders_of_user(user=request.user, campaign=campaign))
    return render(request, "campaign/economy/commander_list.html", {
        "campaign": campaign, "commanders": commanders.active().order_by("name"), "is_gm": is_gm,
        "retired": commanders.filter(retired_at__isnull=False).order_by("name"),
        "new_form": CommanderForm(campaign=campaign) if is_gm else None,
    })


@login_required
def commander_detail(request: HttpRequest, slug: str, commander_id: int) -> HttpResponse:
    """A commander's page; its body is remembered per viewer until anything in the campaign changes. Its many
    forms take the CSRF field drawn once (csrf_input), not a {% csrf_token %} each, which cost more than a row."""
    campaign, membership, commander = _commander(request, slug, commander_id)
    drawn: dict = {}

    def context() -> dict:
        drawn.update(commander_page_context(campaign, membership, commander), csrf_input=csrf_input(request))
        return drawn

    return remembered_page(request, campaign_id=campaign.pk, name=f"commander:{commander.pk}", title=commander.name,
                           template="campaign/economy/commander_detail.html", context=context,
                           live_topics=lambda: member_topics(membership, commanders=drawn.get("commanders")))


@login_required
@require_POST
def commander_recruit(request: HttpRequest, slug: str, commander_id: int) -> HttpResponse:
    campaign, _, commander = _commander(request, slug, commander_id)
    event, _ = campaigns_selectors.event_and_day_today(campaign=campaign)
    if event is None:
        messages.error(request, "No Event is on: recruit at a running Event.")
        return _back(commander, "recruit")
    form = RecruitForm(request.POST, offers=selectors.event_recruit_offers(event=event), commander=commander)
    if not form.is_valid():
        messages.error(request, "Pick a unit from this Event's recruit list." if "offer" in form.errors
                       else form_errors_sentence(form))
        return _back(commander, "recruit")
    offer, payer = form.cleaned_data["offer"], form.payer()
    with refusal_shown(request):
        unit = services.unit_recruit(commander=commander, unit_type=offer.unit_type, event=event, paid_by=payer,
                                     actor=request.user)
        messages.success(request, f"{unit.unit_type} joined {commander}'s reserve{_paid_by(commander, payer)}.")
    return _back(commander, "units")


@login_required
@require_POST
def unit_train(request: HttpRequest, slug: str, commander_id: int, unit_id: int) -> HttpResponse:
    campaign, _, commander = _commander(request, slug, commander_id)
    unit = get_object_or_404(Unit, pk=unit_id, commander=commander)
    event, _ = campaigns_selectors.event_and_day_today(campaign=campaign)
    if event is None:
        messages.error(request, "No Event is on: train units at a running Event.")
        return _back(commander, "units")
    form = TrainForm(request.POST, weapons=selectors.commander_items(commander=commander), commander=commander)
    if not form.is_valid():
        messages.error(request, form_errors_sentence(form))
        return _back(commander, "units")
    payer = form.payer()
    with refusal_shown(request):
        training = services.unit_train(unit=unit, event=event, paid_by=payer, actor=request.user,
                                       weapon_items=list(form.cleaned_data["weapon_items"]))
        became = f" and became {training.type_to}" if training.type_to != training.type_from else ""
        messages.success(request, f"{training.type_from} trained to Strength {training.strength_to}{became}, "
                                  f"for {training.paid} lunari{_paid_by(commander, payer)}.")
    return _back(commander, "units")


@login_required
@require_POST
def unit_name(request: HttpRequest, slug: str, commander_id: int, unit_id: int) -> HttpResponse:
    _, _, commander = _commander(request, slug, commander_id)
    unit = get_object_or_404(Unit, pk=unit_id, commander=commander)
    form = RetinueNameForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the retinue a name of 1 to 120 characters.")
        return _back(commander, "units")
    with refusal_shown(request):
        unit = services.unit_name_retinue(unit=unit, name=form.cleaned_data["name"], actor=request.user)
        messages.success(request, f"The retinue is now called {unit.name}.")
    return _back(commander, "units")


@login_required
@require_POST
def fair_escape(request: HttpRequest, slug: str, commander_id: int) -> HttpResponse:
    """Fair Escape: `pay` is "influence" or the id of one of the commander's retinue units (-2 Strength)."""
    _, _, commander = _commander(request, slug, commander_id)
    pay = request.POST.get("pay", "")
    unit_id = parse_id(pay)
    unit = get_object_or_404(Unit, pk=unit_id, commander=commander) if unit_id is not None else None
    if unit is None and pay != "influence":
        messages.error(request, "Choose how Fair Escape is paid: 1 Influence or a retinue unit.")
        return _back(commander, "fair-escape")
    strength = unit.strength if unit else None
    with refusal_shown(request):
        commander = services.commander_fair_escape(commander=commander, retinue_unit=unit, actor=request.user)
        if unit is None:
            messages.success(request, f"{commander} spent 1 Influence for Fair Escape: {commander.influence} left.")
        else:
            unit.refresh_from_db()
            name = unit.name or unit.unit_type.name
            messages.success(request, f"{name} was Killed covering {commander}'s Fair Escape."
                             if unit.state == Unit.State.KILLED else
                             f"{name} took -2 Strength ({strength} to {unit.strength}) for {commander}'s Fair Escape.")
    return _back(commander, "fair-escape")


@login_required
@require_POST
def morale_buy(request: HttpRequest, slug: str, commander_id: int) -> HttpResponse:
    campaign, _, commander = _commander(request, slug, commander_id)
    _, day = campaigns_selectors.event_and_day_today(campaign=campaign)
    form = MoraleBuyForm(request.POST)
    if day is None:
        messages.error(request, "No Day is open: buy Morale during an Event.")
    elif not form.is_valid():
        messages.error(request, "Buy at least 1 point of Morale.")
    else:
        with refusal_shown(request):
            commander = upkeep.morale_buy(commander=commander, day=day, points=form.cleaned_data["points"],
                                          actor=request.user)
            messages.success(request, f"{commander} bought {form.cleaned_data['points']} Morale: "
                                      f"now {commander.morale}.")
    return _back(commander, "morale")


@login_required
@require_POST
def upkeep_pledge(request: HttpRequest, slug: str, commander_id: int) -> HttpResponse:
    """Pledge Morale to today's upkeep (0 takes the pledge back); the forecast shows what it saves."""
    campaign, _, commander = _commander(request, slug, commander_id)
    _, day = campaigns_selectors.event_and_day_today(campaign=campaign)
    form = UpkeepPledgeForm(request.POST)
    if day is None:
        messages.error(request, "No Day is open: pledge Morale to upkeep during an Event.")
    elif not form.is_valid():
        messages.error(request, "Pledge a whole number of Morale points, 0 or more.")
    else:
        points = form.cleaned_data["points"]
        with refusal_shown(request):
            upkeep.upkeep_pledge_morale(commander=commander, day=day, points=points, actor=request.user)
            forecast = selectors.upkeep_forecast(commander=commander, day=day)
            saves = (f"it takes {forecast.morale_offset} lunari off today's bill" if forecast.gross
                     else "no upkeep is due yet, so it takes nothing off for now")
            messages.success(request, f"{commander} pledges {points} Morale to Day {day.number}'s upkeep: {saves}.")
    return _back(commander, "upkeep")


@login_required
@require_POST
def funding_create(request: HttpRequest, slug: str, commander_id: int) -> HttpResponse:
    _, _, commander = _commander(request, slug, commander_id)
    form = FundingRequestForm(request.POST, requester=commander)
    if not form.is_valid():
        messages.error(request, form_errors_sentence(form))
        return _back(commander, "funding")
    with refusal_shown(request):
        funding = funding_services.funding_request_create(requester=commander, funder=form.cleaned_data["funder"],
                                                          amount=form.cleaned_data["amount"],
                                                          reason=form.cleaned_data["reason"], actor=request.user)
        messages.success(request, f"Asked {funding.funder} for {funding.amount} lunari.")
    return _back(commander, "funding")


FUNDING_DECISIONS = {
    "accept": (funding_services.funding_request_accept, "Accepted: {amount} lunari sent to {requester}."),
    "decline": (funding_services.funding_request_decline, "Declined the request of {requester}."),
    "withdraw": (funding_services.funding_request_withdraw, "Withdrew the request to {funder}."),
}


@login_required
@require_POST
def funding_decide(request: HttpRequest, slug: str, commander_id: int, request_id: int, decision: str
                   ) -> HttpResponse:
    """Accept or decline a request made to this commander, or withdraw one this commander made."""
    _, _, commander = _commander(request, slug, commander_id)
    funding = get_object_or_404(FundingRequest.objects.filter(Q(requester=commander) | Q(funder=commander)),
                                pk=request_id)
    if decision not in FUNDING_DECISIONS:
        raise Http404("No such decision.")
    service, done = FUNDING_DECISIONS[decision]
    kwargs = {"request": funding, "actor": request.user}
    if decision != "withdraw":
        form = FundingResponseForm(request.POST)
        kwargs["response"] = form.cleaned_data["response"] if form.is_valid() else ""
    with refusal_shown(request):
        funding = service(**kwargs)
        messages.success(request, done.format(amount=funding.amount, requester=funding.requester,
                                              funder=funding.funder))
    return _back(commander, "funding")


@login_required
def commander_cards(request: HttpRequest, slug: str, commander_id: int) -> HttpResponse:
    """A printable A4 PDF of the commander's unit cards, nine to a page."""
    _, _, commander = _commander(request, slug, commander_id)
    units = list(selectors.commander_units(commander=commander))
    response = HttpResponse(unit_cards_pdf(commander=commander, units=units), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="unit-cards-{commander.pk}.pdf"'
    return response
