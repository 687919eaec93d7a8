"""Reversing a record from a page: the battle page (an applied result), the clock page (the last hour) and the
Day close pages (reopen the Day) post here with a reason and a ticked confirmation, and come back to where they
were. Thin: find the record in this campaign (else a 404), check the role, call the service, show its sentence."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from campaign.campaigns.permissions import Action, require
from campaign.campaigns.reversals import reversible_reverse
from campaign.campaigns.views import campaign_membership
from campaign.models import Reversible
from campaign.web.refusals import refusal_shown


@login_required
@require_POST
def reversal_reverse(request: HttpRequest, slug: str, reversible_id: int) -> HttpResponse:
    campaign, membership = campaign_membership(request, slug)
    require(membership, Action.ACT_FOR_ANY)
    record = get_object_or_404(Reversible, pk=reversible_id, campaign=campaign)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=False):
        back = reverse("campaign-detail", args=[slug])
    if not request.POST.get("confirm"):
        messages.error(request, f"Tick the box to confirm that {record.label} is to be reversed.")
        return redirect(back)
    with refusal_shown(request, ValidationError):
        record = reversible_reverse(record=record, actor=request.user, reason=request.POST.get("reason", ""))
        messages.success(request, f"Reversed: {record.label}. The ledger and the audit trail keep both the "
                                  "record and its reversal.")
    return redirect(back)
