"""The game masters' economy page: every purse, grants and fines, arrears, and the way to close the Day (its
review page, campaign.map.clock_views.day_close_review).
Thin: parse a form, check the role, call a service, show its sentence as a message.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from campaign.campaigns import selectors as campaigns_selectors
from campaign.campaigns.permissions import Action, require
from campaign.campaigns.views import campaign_membership
from campaign.economy import ledger, selectors, upkeep
from campaign.economy.forms import (
    ArrearsForgiveForm,
    ArrearsSettleForm,
    LunariForm,
)
from campaign.models import (
    Campaign,
    Commander,
    UpkeepArrears,
)
from campaign.web.forms import form_errors_sentence
from campaign.web.refusals import refusal_shown

# --- the game masters' economy ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PurseRow:
    commander: Commander
    balance: int
    forecast: int
    arrears: int


@login_required
def economy(request: HttpRequest, slug: str) -> HttpResponse:
    """Every purse, the open upkeep debts, today's forecast, grants and fines, and closing the Day."""
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.ACT_FOR_ANY)
    event, day = campaigns_selectors.event_and_day_today(campaign=campaign)
    forecasts = selectors.upkeep_forecasts(day=day) if day else {}
    arrears = list(selectors.arrears_open(campaign=campaign))
    owed: dict[int, int] = {}
    for debt in arrears:
        owed[debt.commander_id] = owed.get(debt.commander_id, 0) + debt.amount
    commanders = list(selectors.commanders_of_campaign(campaign=campaign).order_by("name"))
    rows = [PurseRow(commander=c, balance=c.purse.balance if hasattr(c, "purse") else 0,
                     forecast=forecasts[c.pk].total if c.pk in forecasts else 0, arrears=owed.get(c.pk, 0))
            for c in commanders]
    return render(request, "campaign/economy/economy.html", {
        "campaign": campaign, "event": event, "day": day, "rows": rows, "arrears": arrears,
        "forecast_total": sum(r.forecast for r in rows), "commanders": commanders,
        "grant_form": LunariForm(campaign=campaign, prefix="grant"),
        "fine_form": LunariForm(campaign=campaign, prefix="fine"),
    })


def _gm(request: HttpRequest, slug: str, action: Action = Action.ACT_FOR_ANY) -> Campaign:
    campaign, membership = campaign_membership(request, slug)
    require(membership, action)
    return campaign


@login_required
@require_POST
def economy_lunari(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """A grant (from the bank) or a fine (back to it), with the reason the ledger keeps."""
    campaign = _gm(request, slug)
    if kind not in ("grant", "fine"):
        raise Http404("No such movement.")
    form = LunariForm(request.POST, campaign=campaign, prefix=kind)
    if not form.is_valid():
        messages.error(request, form_errors_sentence(form))
        return redirect("economy", slug=slug)
    post = ledger.ledger_grant if kind == "grant" else ledger.ledger_fine
    commander, amount = form.cleaned_data["commander"], form.cleaned_data["amount"]
    with refusal_shown(request, ValidationError):
        post(commander=commander, amount=amount, reason=form.cleaned_data["reason"], actor=request.user)
        done = f"Granted {amount} lunari to {commander}." if kind == "grant" else f"Fined {commander} {amount} lunari."
        messages.success(request, done)
    return redirect("economy", slug=slug)


@login_required
@require_POST
def arrears_decide(request: HttpRequest, slug: str, arrears_id: int, decision: str) -> HttpResponse:
    """Settle an upkeep debt from a purse, or forgive it with a reason."""
    campaign = _gm(request, slug)
    debt = get_object_or_404(UpkeepArrears.objects.select_related("commander"), pk=arrears_id,
                             commander__campaign=campaign)
    if decision == "settle":
        form = ArrearsSettleForm(request.POST, campaign=campaign)
    elif decision == "forgive":
        form = ArrearsForgiveForm(request.POST)
    else:
        raise Http404("No such decision.")
    if not form.is_valid():
        messages.error(request, form_errors_sentence(form))
        return redirect("economy", slug=slug)
    with refusal_shown(request):
        if decision == "settle":
            upkeep.upkeep_arrears_settle(arrears=debt, paid_by=form.cleaned_data["paid_by"], actor=request.user)
        else:
            upkeep.upkeep_arrears_forgive(arrears=debt, note=form.cleaned_data["note"], actor=request.user)
        verb = "settled" if decision == "settle" else "forgiven"
        messages.success(request, f"{debt.commander}'s debt of {debt.amount} lunari is {verb}.")
    return redirect("economy", slug=slug)
