"""Funding requests: a commander asks another for lunari; accepted means transferred, at once."""

import re

import pytest
from django.core.exceptions import ValidationError

from campaign.campaigns.permissions import NotAllowed
from campaign.economy import funding
from campaign.economy import selectors as economy_selectors
from campaign.models import Account, AuditEntry, FundingRequest, LedgerTransaction
from tests.campaign.factories import CommanderFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def amira(campaign, player):
    return CommanderFactory(campaign=campaign, name="Amira", player=player, lunari=30)


@pytest.fixture
def bastian(campaign):
    user = MembershipFactory(campaign=campaign, user=UserFactory(username="bastian")).user
    return CommanderFactory(campaign=campaign, name="Bastian", player=user, lunari=100)


def purse(commander) -> int:
    return Account.objects.get(commander=commander).balance


def test_accepting_moves_the_lunari(player, amira, bastian):
    request = funding.funding_request_create(requester=amira, funder=bastian, amount=40,
                                             reason="Upkeep for the ford garrison", actor=player)
    assert request.status == FundingRequest.Status.PENDING
    assert list(economy_selectors.funding_requests_pending_for(commander=bastian)) == [request]
    funding.funding_request_accept(request=request, actor=bastian.player, response="For the Sultan")
    request.refresh_from_db()
    assert request.status == FundingRequest.Status.ACCEPTED
    assert request.decided_by == bastian.player
    assert (purse(amira), purse(bastian)) == (70, 60)
    txn = LedgerTransaction.objects.get(kind="transfer")
    assert request.transaction == txn
    assert txn.paid_for == request
    assert set(AuditEntry.objects.filter(action__startswith="funding.").values_list("action", flat=True)) == {
        "funding.request", "funding.accepted"}


def test_both_sides_see_the_history(player, amira, bastian):
    first = funding.funding_request_create(requester=amira, funder=bastian, amount=10, reason="a", actor=player)
    second = funding.funding_request_create(requester=bastian, funder=amira, amount=5, reason="b", actor=None)
    funding.funding_request_decline(request=first, actor=bastian.player, response="Not this Day")
    assert set(economy_selectors.funding_requests_for(commander=amira)) == {first, second}
    assert set(economy_selectors.funding_requests_for(commander=bastian)) == {first, second}
    first.refresh_from_db()
    assert (first.status, first.response) == ("declined", "Not this Day")


def test_an_accept_the_funder_cannot_afford_changes_nothing(player, amira, bastian):
    request = funding.funding_request_create(requester=bastian, funder=amira, amount=50, reason="x", actor=None)
    with pytest.raises(ValidationError, match=re.escape("Not enough lunari: sending 50 needs 50, Amira has 30.")):
        funding.funding_request_accept(request=request, actor=player)
    request.refresh_from_db()
    assert request.status == FundingRequest.Status.PENDING
    assert (purse(amira), purse(bastian)) == (30, 100)


def test_only_the_funder_answers_and_only_the_asker_withdraws(player, amira, bastian):
    request = funding.funding_request_create(requester=amira, funder=bastian, amount=10, reason="x", actor=player)
    with pytest.raises(NotAllowed):
        funding.funding_request_accept(request=request, actor=player)
    with pytest.raises(NotAllowed):
        funding.funding_request_withdraw(request=request, actor=bastian.player)
    funding.funding_request_withdraw(request=request, actor=player)
    with pytest.raises(ValidationError, match="already withdrawn"):
        funding.funding_request_accept(request=request, actor=bastian.player)
    with pytest.raises(NotAllowed):
        funding.funding_request_create(requester=bastian, funder=amira, amount=5, reason="x", actor=player)


def test_a_request_needs_another_commander_an_amount_and_a_reason(player, amira, bastian):
    with pytest.raises(ValidationError, match="cannot fund yourself"):
        funding.funding_request_create(requester=amira, funder=amira, amount=5, reason="x", actor=None)
    with pytest.raises(ValidationError, match="above 0"):
        funding.funding_request_create(requester=amira, funder=bastian, amount=0, reason="x", actor=None)
    with pytest.raises(ValidationError, match="what the lunari are for"):
        funding.funding_request_create(requester=amira, funder=bastian, amount=5, reason=" ", actor=None)
    with pytest.raises(ValidationError, match="same campaign"):
        funding.funding_request_create(requester=amira, funder=CommanderFactory(), amount=5, reason="x", actor=None)
