"""Economy pages: a commander's purse, units, recruiting, training, upkeep, Morale and funding; the GM's
economy overview (purses, arrears, grants, fines, closing the Day) and the audit trail.

Thin: parse a form, check who may see the commander, call a service, and show its sentence as a message.
A player sees only their own commanders; anyone else's is a 404, as if it did not exist.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from campaign.campaigns import selectors as campaigns_selectors
from campaign.campaigns.audit_words import member_roles
from campaign.campaigns.fragments import remembered_page
from campaign.campaigns.permissions import Action, can, may_act_for
from campaign.campaigns.views import campaign_membership
from campaign.catalogue.unit_cards import unit_cards_pdf
from campaign.economy import donations, ledger, quests, selectors, services, upkeep
from campaign.economy import funding as funding_services
from campaign.economy.forms import (
    CommanderForm,
    FundingRequestForm,
    FundingResponseForm,
    ItemAddForm,
    MoraleBuyForm,
    RecruitForm,
    RetinueNameForm,
    TrainForm,
    UpkeepPledgeForm,
)
from campaign.economy.rules import (
    LUNARI_PER_MORALE_POINT,
    UPKEEP_OFFSET_PER_MORALE,
    WEAPON_CARD_OFFSET,
    TrainingPrice,
    training_max_weapon_cards,
    upkeep_morale_useful,
)
from campaign.live.topics import member_topics
from campaign.models import (
    Campaign,
    Commander,
    Event,
    FundingRequest,
    Item,
    LedgerEntry,
    LedgerTransaction,
    Membership,
    Unit,
)
from campaign.web.forms import form_errors_sentence
from campaign.web.numbers import parse_id
from campaign.web.refusals import refusal_shown

LEDGER_ROWS = 100


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


@dataclass(frozen=True)
class LedgerRow:
    entry: LedgerEntry
    balance_after: int
    by: str
    """Who moved the lunari, in words: a member with their role, or what acted when no person did."""


NOBODY = {LedgerTransaction.Kind.UPKEEP: "the event clock", LedgerTransaction.Kind.ARREARS: "the event clock",
          LedgerTransaction.Kind.ESCROW_RELEASE: "the finished match",
          LedgerTransaction.Kind.BANK_STAKE: "the finished match"}
"""Who moved lunari when no person did, by kind: the clock closes Days, a match's last move (an AI's too) pays
its stakes; anything else is Muster itself (a job or the demo loader)."""


def _ledger_by(txn: LedgerTransaction, roles: dict[int, str]) -> str:
    if txn.actor is None:
        return NOBODY.get(txn.kind, "Muster")
    role = roles.get(txn.actor_id)
    return f"{txn.actor.get_username()} ({role})" if role else txn.actor.get_username()


@dataclass(frozen=True)
class UnitRow:
    unit: Unit
    retinue_of: Commander | None
    may_name: bool
    quote: TrainingPrice | None
    cannot_train: str
    max_weapon_cards: int
    short_by: int
    """Lunari the purse lacks for the training even with every weapon card destroyed (0: affordable)."""


def _ledger_rows(campaign: Campaign, commander: Commander, balance: int) -> list[LedgerRow]:
    """The newest entries with the balance after each, walked back from the current balance."""
    rows = []
    roles = member_roles(campaign)
    for entry in selectors.commander_ledger(commander=commander)[:LEDGER_ROWS]:
        rows.append(LedgerRow(entry=entry, balance_after=balance, by=_ledger_by(entry.transaction, roles)))
        balance -= entry.amount
    return rows


@dataclass(frozen=True)
class FallenRow:
    unit: Unit
    wages: int
    donation: LedgerTransaction | None


def _fallen_rows(commander: Commander) -> list[FallenRow]:
    """The commander's Killed units, each with its Day's wages and the donation made for them, if any."""
    fallen = list(Unit.objects.filter(commander=commander, state=Unit.State.KILLED).select_related("unit_type")
                  .order_by("-pk"))
    given = donations.donations_for(unit_ids=[unit.pk for unit in fallen])
    return [FallenRow(unit=unit, wages=donations.unit_wages(unit), donation=given.get(unit.pk)) for unit in fallen]


def _may_name(owner: Commander | None, membership: Membership) -> bool:
    """The same rule unit_name_retinue applies: the owner's player, or a GM for a GM-run owner."""
    if owner is None:
        return False
    if owner.player_id is not None:
        return owner.player_id == membership.user_id
    return membership.is_gm


def _short_by(price: int, purse: int | None) -> int:
    """What a price needs beyond the purse; None (another purse may pay) never falls short."""
    return 0 if purse is None else max(price - purse, 0)


def _unit_rows(units: list[Unit], membership: Membership, event: Event | None, *, purse: int | None,
               weapon_cards: int) -> list[UnitRow]:
    owners = selectors.unit_retinue_owners(units=units)
    rows = []
    for unit in units:
        quote, cannot = None, ""
        if event is not None and unit.last_trained_event_id == event.pk:
            cannot = f"Trained at {event.name} already: train it again at the next Event."
        else:
            try:
                quote = services.unit_training_quote(unit=unit)
            except ValidationError as exc:
                cannot = " ".join(exc.messages)
        owner = owners.get(unit.pk)
        most = training_max_weapon_cards(quote.new_strength) if quote else 0
        least = quote.base - WEAPON_CARD_OFFSET * min(weapon_cards, most) if quote else 0
        rows.append(UnitRow(unit=unit, retinue_of=owner, may_name=_may_name(owner, membership), quote=quote,
                            cannot_train=cannot, max_weapon_cards=most, short_by=_short_by(least, purse)))
    return rows


@login_required
def commander_detail(request: HttpRequest, slug: str, commander_id: int) -> HttpResponse:
    """A commander's page; its body is remembered per viewer until anything in the campaign changes."""
    campaign, membership, commander = _commander(request, slug, commander_id)
    return remembered_page(request, campaign_id=campaign.pk, name=f"commander:{commander.pk}", title=commander.name,
                           template="campaign/economy/commander_detail.html",
                           context=lambda: _commander_context(campaign, membership, commander),
                           live_topics=member_topics(membership))


def _commander_context(campaign: Campaign, membership: Membership, commander: Commander) -> dict:
    event, day = campaigns_selectors.event_and_day_today(campaign=campaign)
    balance = ledger.ledger_purse_balance(commander=commander)
    units = list(selectors.commander_units(commander=commander))
    forecast = selectors.upkeep_forecast(commander=commander, day=day) if day else None
    unit_names = {unit.pk: unit for unit in units}
    listed = list(selectors.event_recruit_offers(event=event)) if event else []
    done = quests.quests_open_for(commander=commander, offers=[o for o in listed if o.by_quest])
    payers = list(selectors.commanders_for_member(membership=membership))
    # With a choice of purses the chosen payer decides; with one, what it cannot afford is shown disabled.
    purse = balance if len(payers) < 2 else None
    offers = []
    for offer in listed:
        price = selectors.recruit_offer_quote(offer=offer, quests_done=done.get(offer.pk, 0))
        offers.append((offer, price, done.get(offer.pk, 0), _short_by(price, purse) if price is not None else 0))
    room = max(commander.starting_morale - commander.morale, 0)
    held = list(selectors.commander_items(commander=commander))
    unit_rows = _unit_rows(units, membership, event, purse=purse,
                           weapon_cards=sum(item.kind == Item.Kind.WEAPON for item in held))
    others = list(Commander.objects.active().filter(campaign=campaign).exclude(pk=commander.pk).order_by("name"))
    return {
        "campaign": campaign, "commander": commander, "is_gm": membership.is_gm, "event": event, "day": day,
        "balance": balance, "ledger_rows": _ledger_rows(campaign, commander, balance),
        "unit_rows": unit_rows,
        "weapons": [item for item in held if item.kind == Item.Kind.WEAPON],
        "items": held, "item_add_form": ItemAddForm() if membership.is_gm else None,
        "others": others, "borrowed": list(selectors.commander_borrowed_units(commander=commander)),
        "sheet_form": (CommanderForm(initial=CommanderForm.initial_of(commander), campaign=campaign)
                       if membership.is_gm else None),
        "fallen": _fallen_rows(commander),
        "weapon_card_offset": WEAPON_CARD_OFFSET,
        "forecast": forecast,
        "forecast_lines": [(unit_names.get(line.unit_id), line) for line in forecast.lines] if forecast else [],
        "pledged": selectors.upkeep_pledges(day=day, commanders=[commander]).get(commander.pk, 0) if day else 0,
        "pledge_useful": upkeep_morale_useful(forecast.gross) if forecast else 0,
        "upkeep_offset": UPKEEP_OFFSET_PER_MORALE,
        "payers": payers if len(payers) > 1 else [],
        "offers": offers,
        "funding": selectors.funding_requests_for(commander=commander),
        "funding_form": FundingRequestForm(requester=commander),
        "morale_room": room, "morale_price": LUNARI_PER_MORALE_POINT,
        "morale_short_by": _short_by(LUNARI_PER_MORALE_POINT, purse),
        "morale_bought_today": day is not None and commander.morale_bought_on_id == day.pk,
        "armies": selectors.commander_armies(commander=commander),
        "escape_units": [row.unit for row in unit_rows if row.retinue_of == commander
                         and row.unit.strength is not None and row.unit.state != Unit.State.KILLED],
        "may_escape": commander.is_player_character and may_act_for(membership, commander.player_id),
    }


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
