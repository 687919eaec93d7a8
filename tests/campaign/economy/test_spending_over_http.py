"""Fifty phones spend from one purse at the same moment, through a real multi-threaded server on PostgreSQL
(recruiting and training, which lock offers, units, commanders and purses): no 5xx and no deadlock, no purse
below zero, every transaction sums to zero and every cached balance equals the sum of its entries."""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from django.db.models import Sum

from campaign.economy import ledger
from campaign.models import Account, LedgerTransaction, Unit
from tests.campaign.factories import (
    CampaignFactory,
    CommanderFactory,
    EventFactory,
    EventRecruitOfferFactory,
    MembershipFactory,
    UnitFactory,
    UnitTypeFactory,
    UserFactory,
    open_day,
)

SPENDS = 50
START = 400


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_fifty_simultaneous_spends_on_one_purse_over_http(live_server):
    from rest_framework.authtoken.models import Token

    campaign = CampaignFactory(name="Contested", slug="contested")
    player = UserFactory(username="spender")
    MembershipFactory(campaign=campaign, user=player, role="player")
    commander = CommanderFactory(campaign=campaign, player=player, lunari=START)
    event = EventFactory(campaign=campaign)
    open_day(event)
    soldier = UnitTypeFactory(name="Soldier", strength=1)
    offers = [EventRecruitOfferFactory(event=event, unit_type=soldier),
              EventRecruitOfferFactory(event=event, unit_type=UnitTypeFactory(name="Spearmen", strength=2))]
    units = [UnitFactory(commander=commander, unit_type=soldier) for _ in range(6)]
    token = Token.objects.create(user=player).key
    barrier = threading.Barrier(SPENDS)

    def spend(n: int) -> int:
        session = requests.Session()
        session.headers["Authorization"] = f"Token {token}"
        barrier.wait(timeout=30)
        if n % 5 == 0:
            url = f"{live_server.url}/api/units/{units[n % len(units)].pk}/train/"
            return session.post(url, json={}, timeout=60).status_code
        url = f"{live_server.url}/api/commanders/{commander.pk}/recruit/"
        return session.post(url, json={"offer": offers[n % 2].pk}, timeout=60).status_code

    with ThreadPoolExecutor(max_workers=SPENDS) as pool:
        statuses = Counter(pool.map(spend, range(SPENDS)))

    assert not [s for s in statuses if s >= 500], statuses
    assert set(statuses) <= {201, 400}, statuses
    assert statuses[201] >= 1
    purse = Account.objects.get(commander=commander)
    assert purse.balance >= 0
    assert purse.balance == ledger.ledger_balance(account=purse)
    for account in Account.objects.filter(campaign=campaign):
        assert account.balance == ledger.ledger_balance(account=account)
    for txn in LedgerTransaction.objects.filter(campaign=campaign).prefetch_related("entries"):
        assert sum(entry.amount for entry in txn.entries.all()) == 0
    assert Account.objects.filter(campaign=campaign).aggregate(s=Sum("balance"))["s"] == 0
    recruited = Unit.objects.filter(commander=commander).count() - len(units)
    spent = START - purse.balance
    assert spent == sum(-e.amount for e in purse.entries.filter(amount__lt=0))
    assert recruited + sum(u.training_history.count() for u in units) == statuses[201]
