"""Funding requests: one commander asks another for lunari; the funder accepts (the ledger transfers),
declines, or the requester withdraws.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaign.campaigns.audit import audit_record
from campaign.campaigns.permissions import require_acting_for
from campaign.economy import ledger
from campaign.economy.checks import same_campaign
from campaign.locking import lock
from campaign.models import (
    Commander,
    FundingRequest,
)
from config.celery import enqueue_on_commit


@transaction.atomic
def funding_request_create(*, requester: Commander, funder: Commander, amount: int, reason: str,
                           actor: User | None) -> FundingRequest:
    """A commander asks another for lunari."""
    require_acting_for(actor=actor, commander=requester)
    campaign_id = same_campaign(requester, funder, message="Ask a commander of the same campaign.")
    if requester.pk == funder.pk:
        raise ValidationError({"funder": "Ask another commander: you cannot fund yourself."})
    if not isinstance(amount, int) or amount <= 0:
        raise ValidationError({"amount": "Ask for a whole number of lunari above 0."})
    if not (reason or "").strip():
        raise ValidationError({"reason": "Say what the lunari are for."})
    request = FundingRequest.objects.create(campaign_id=campaign_id, requester=requester, funder=funder,
                                            amount=amount, reason=reason.strip()[:300])
    audit_record(campaign=requester.campaign, actor=actor, action="funding.request", target=request,
                 data={"amount": amount, "funder": funder.pk})
    enqueue_on_commit("campaign.notify_funding_request", request.pk)
    return request


def _pending_request(request: FundingRequest) -> FundingRequest:
    request = (lock(FundingRequest.objects).select_related("requester", "funder", "campaign")
               .get(pk=request.pk))
    if request.status != FundingRequest.Status.PENDING:
        raise ValidationError(f"This request was already {request.get_status_display().lower()}.")
    return request


def _decide(request: FundingRequest, status: str, actor, response: str) -> FundingRequest:
    request.status, request.decided_by, request.decided_at = status, actor, timezone.now()
    request.response = (response or "").strip()[:300]
    request.save(update_fields=["status", "decided_by", "decided_at", "response", "transaction"])
    audit_record(campaign=request.campaign, actor=actor, action=f"funding.{status}", target=request,
                 data={"amount": request.amount, "transaction": request.transaction_id})
    return request


@transaction.atomic
def funding_request_accept(*, request: FundingRequest, actor: User | None, response: str = ""
                           ) -> FundingRequest:
    """The funder agrees: the lunari move in the same transaction."""
    request = _pending_request(request)
    require_acting_for(actor=actor, commander=request.funder)
    request.transaction = ledger.ledger_transfer(
        from_commander=request.funder, to_commander=request.requester, amount=request.amount, actor=actor,
        reason=f"Funding for {request.requester}: {request.reason}", paid_for=request)
    return _decide(request, FundingRequest.Status.ACCEPTED, actor, response)


@transaction.atomic
def funding_request_decline(*, request: FundingRequest, actor: User | None, response: str = ""
                            ) -> FundingRequest:
    request = _pending_request(request)
    require_acting_for(actor=actor, commander=request.funder)
    return _decide(request, FundingRequest.Status.DECLINED, actor, response)


@transaction.atomic
def funding_request_withdraw(*, request: FundingRequest, actor: User | None) -> FundingRequest:
    request = _pending_request(request)
    require_acting_for(actor=actor, commander=request.requester)
    return _decide(request, FundingRequest.Status.WITHDRAWN, actor, "")
