"""A game master's pages for commanders: create one, change its sheet or who plays it, retire it or bring it
back, and reverse a ledger entry with a reason. Thin: parse the form, call the service (which checks the
role), show its sentence.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from campaign.campaigns.permissions import NotAllowed
from campaign.campaigns.views import campaign_membership
from campaign.economy import ledger, services
from campaign.economy.forms import CommanderForm, LedgerReverseForm
from campaign.economy.views import _back, _commander
from campaign.models import LedgerTransaction
from campaign.web.forms import form_errors_sentence
from campaign.web.refusals import refusal_message, refusal_shown


@login_required
@require_POST
def commander_new(request: HttpRequest, slug: str) -> HttpResponse:
    campaign, _ = campaign_membership(request, slug)
    form = CommanderForm(request.POST, campaign=campaign)
    if not form.is_valid():
        messages.error(request, form_errors_sentence(form))
        return redirect("commander-list", slug)
    with refusal_shown(request):
        commander = services.commander_create(campaign=campaign, actor=request.user, **form.cleaned_data)
        messages.success(request, f"{commander} joins {campaign}, with {commander.morale} Morale and an empty "
                                  "purse.")
        return redirect("commander-detail", slug, commander.pk)
    return redirect("commander-list", slug)


@login_required
@require_POST
def commander_edit(request: HttpRequest, slug: str, commander_id: int) -> HttpResponse:
    campaign, _, commander = _commander(request, slug, commander_id)
    form = CommanderForm(request.POST, campaign=campaign)
    if not form.is_valid():
        messages.error(request, form_errors_sentence(form))
        return _back(commander, "sheet")
    with refusal_shown(request):
        commander = services.commander_update(commander=commander, actor=request.user, **form.cleaned_data)
        messages.success(request, f"{commander}'s sheet is saved.")
    return _back(commander, "sheet")


@login_required
@require_POST
def commander_retire(request: HttpRequest, slug: str, commander_id: int) -> HttpResponse:
    """Retire a commander from play (``retired=1``) or bring them back (``retired=0``)."""
    _, _, commander = _commander(request, slug, commander_id)
    retired = request.POST.get("retired") == "1"
    with refusal_shown(request):
        commander = services.commander_retire(commander=commander, actor=request.user, retired=retired)
        messages.success(request, f"{commander} is retired: on record, out of play." if retired
                         else f"{commander} is back in play.")
    return _back(commander, "sheet")


@login_required
@require_POST
def ledger_reverse(request: HttpRequest, slug: str, commander_id: int) -> HttpResponse:
    """Reverse one of the commander's ledger transactions: the opposite entries, pointing at it, with a reason."""
    campaign, membership, commander = _commander(request, slug, commander_id)
    form = LedgerReverseForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_errors_sentence(form))
        return _back(commander, "ledger")
    txn = get_object_or_404(LedgerTransaction.objects.filter(campaign=campaign, entries__account__commander=commander)
                            .distinct(), pk=form.cleaned_data["transaction"])
    if not membership.is_gm:
        refusal_message(request, NotAllowed("Only a game master may reverse a ledger entry."))
        return _back(commander, "ledger")
    with refusal_shown(request, ValidationError):
        ledger.ledger_reverse(transaction_to_reverse=txn, reason=form.cleaned_data["reason"], actor=request.user)
        messages.success(request, f"Reversed: {txn.reason}.")
    return _back(commander, "ledger")
