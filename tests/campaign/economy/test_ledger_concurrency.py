"""Fifty threads spend from the same purses at once on PostgreSQL: the row locks keep the books right."""

import random
import threading
from collections import Counter

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Sum

from campaign.economy import ledger as economy_ledger
from campaign.models import Account, LedgerTransaction
from tests.campaign.factories import CampaignFactory, CommanderFactory

THREADS = 50
OPERATIONS = 12
START = 60


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_fifty_threads_spending_from_the_same_purses():
    campaign = CampaignFactory(name="Contested", slug="contested")
    commanders = [CommanderFactory(campaign=campaign, name=f"C{i}", lunari=START) for i in range(4)]
    ids = [c.pk for c in commanders]
    barrier = threading.Barrier(THREADS)
    moved: Counter = Counter()  # net lunari each purse gained from successful movements
    to_bank = Counter()
    refused = Counter()
    errors: list[BaseException] = []
    lock = threading.Lock()

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        try:
            barrier.wait(timeout=30)
            for _ in range(OPERATIONS):
                source, target = rng.sample(commanders, 2)
                amount = rng.randint(1, 25)
                try:
                    if rng.random() < 0.5:
                        economy_ledger.ledger_transfer(from_commander=source, to_commander=target, amount=amount,
                                                       reason="race", actor=None)
                        with lock:
                            moved[source.pk] -= amount
                            moved[target.pk] += amount
                    else:
                        economy_ledger.ledger_buy_morale(commander=source, points=1, amount=amount, actor=None)
                        with lock:
                            moved[source.pk] -= amount
                            to_bank["lunari"] += amount
                except ValidationError:
                    with lock:
                        refused["count"] += 1
        except BaseException as exc:  # surfaced in the main thread below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    assert not any(thread.is_alive() for thread in threads)

    purses = {a.commander_id: a for a in Account.objects.filter(commander_id__in=ids)}
    for cid in ids:
        account = purses[cid]
        assert account.balance >= 0
        assert account.balance == START + moved[cid]  # no lost update
        assert account.balance == economy_ledger.ledger_balance(account=account)
    bank = Account.objects.get(campaign=campaign, kind=Account.Kind.BANK)
    assert bank.balance == -START * len(ids) + to_bank["lunari"]
    assert bank.balance == economy_ledger.ledger_balance(account=bank)
    for txn in LedgerTransaction.objects.filter(campaign=campaign).prefetch_related("entries"):
        assert sum(entry.amount for entry in txn.entries.all()) == 0
    assert Account.objects.filter(campaign=campaign).aggregate(s=Sum("balance"))["s"] == 0
    assert refused["count"] > 0  # the purses really ran dry under contention
    assert LedgerTransaction.objects.filter(campaign=campaign).count() == (
        len(ids) + THREADS * OPERATIONS - refused["count"])
