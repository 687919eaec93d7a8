"""The lunari ledger: double entry, immutable entries, balances that are sums, purses never below zero."""

import re

import pytest
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.test import RequestFactory

from campaign.campaigns import selectors as campaigns_selectors
from campaign.demo import load_demo
from campaign.economy import ledger as economy_ledger
from campaign.economy import selectors as economy_selectors
from campaign.economy.ledger import LedgerImbalance
from campaign.models import (
    Account,
    AuditEntry,
    Commander,
    EscrowHold,
    FundingRequest,
    ImmutableLedgerError,
    LedgerEntry,
    LedgerTransaction,
    Unit,
)
from tests.campaign.factories import CommanderFactory, UnitFactory

pytestmark = pytest.mark.django_db


def assert_books_balance():
    """Every transaction sums to zero and every cached balance equals the sum of its entries."""
    for txn in LedgerTransaction.objects.all():
        assert txn.entries.aggregate(s=Sum("amount"))["s"] == 0, txn
    for account in Account.objects.all():
        assert account.balance == economy_ledger.ledger_balance(account=account), account


@pytest.fixture
def amira(campaign):
    return CommanderFactory(campaign=campaign, name="Amira", lunari=100)


@pytest.fixture
def bastian(campaign):
    return CommanderFactory(campaign=campaign, name="Bastian", lunari=20)


def purse(commander) -> int:
    return Account.objects.get(commander=commander).balance


def test_a_grant_comes_from_the_bank_and_is_audited(campaign, gm, amira):
    txn = economy_ledger.ledger_grant(commander=amira, amount=50, reason="Loot from the ford", actor=gm)
    assert purse(amira) == 150
    bank = Account.objects.get(campaign=campaign, kind=Account.Kind.BANK)
    assert bank.balance == -150  # the bank is the source: minus what the GMs put into play
    assert sorted(txn.entries.values_list("amount", flat=True)) == [-50, 50]
    assert txn.kind == "grant"
    assert txn.reason == "Loot from the ford"
    assert txn.actor == gm
    entry = AuditEntry.objects.get(action="ledger.grant", actor=gm)
    assert entry.actor == gm
    assert entry.data["amount"] == 50
    assert_books_balance()


def test_a_fine_returns_to_the_bank_and_cannot_overdraw(gm, amira):
    economy_ledger.ledger_fine(commander=amira, amount=30, reason="Looting a temple", actor=gm)
    assert purse(amira) == 70
    refusal = "Not enough lunari: the fine is 80, Amira has 70. Fine at most 70."
    with pytest.raises(ValidationError, match=re.escape(refusal)):
        economy_ledger.ledger_fine(commander=amira, amount=80, reason="Again", actor=gm)
    assert purse(amira) == 70
    assert AuditEntry.objects.filter(action="ledger.fine").count() == 1
    assert_books_balance()


def test_grants_and_fines_need_a_reason_and_a_positive_amount(gm, amira):
    with pytest.raises(ValidationError, match="Give a reason"):
        economy_ledger.ledger_grant(commander=amira, amount=5, reason="  ", actor=gm)
    for amount in (0, -5, 2.5, True):
        with pytest.raises(ValidationError, match="whole number of lunari above 0"):
            economy_ledger.ledger_grant(commander=amira, amount=amount, reason="x", actor=gm)


def test_transfer_between_purses(amira, bastian, player):
    economy_ledger.ledger_transfer(from_commander=amira, to_commander=bastian, amount=60, reason="Pay the scouts",
                                   actor=player)
    assert (purse(amira), purse(bastian)) == (40, 80)
    with pytest.raises(ValidationError, match=re.escape("Not enough lunari: sending 50 needs 50, Amira has 40.")):
        economy_ledger.ledger_transfer(from_commander=amira, to_commander=bastian, amount=50, reason="More", actor=None)
    with pytest.raises(ValidationError, match="same purse"):
        economy_ledger.ledger_transfer(from_commander=amira, to_commander=amira, amount=5, reason="x", actor=None)
    other = CommanderFactory(lunari=10)
    with pytest.raises(ValidationError, match="same campaign"):
        economy_ledger.ledger_transfer(from_commander=amira, to_commander=other, amount=5, reason="x", actor=None)
    assert_books_balance()


def test_payments_name_the_price_and_the_purse(bastian):
    unit = UnitFactory(commander=bastian)
    with pytest.raises(ValidationError, match=r"^\['Not enough lunari: recruiting costs 30, Bastian has 20.'\]$"):
        economy_ledger.ledger_pay_recruitment(payer=bastian, amount=30, unit=unit, reason="Spearmen", actor=None)
    txn = economy_ledger.ledger_pay_recruitment(payer=bastian, amount=20, unit=unit, reason="Spearmen", actor=None)
    assert txn.paid_for == unit
    assert purse(bastian) == 0
    recruiting = Account.objects.get(kind=Account.Kind.RECRUITING)
    assert recruiting.balance == 20


def test_morale_and_donations_are_movements_of_their_own(amira):
    economy_ledger.ledger_buy_morale(commander=amira, points=2, amount=10, actor=None)
    economy_ledger.ledger_donate(commander=amira, amount=15, reason="Wages of the fallen to the Temple", actor=None)
    assert purse(amira) == 75
    assert Account.objects.get(kind=Account.Kind.DONATIONS).balance == 15
    assert set(LedgerTransaction.objects.values_list("kind", flat=True)) >= {"morale", "donation"}
    assert_books_balance()


def test_a_reversal_posts_opposite_entries_and_is_audited(gm, amira, bastian):
    txn = economy_ledger.ledger_transfer(from_commander=amira, to_commander=bastian, amount=10, reason="Oops",
                                         actor=None)
    rev = economy_ledger.ledger_reverse(transaction_to_reverse=txn, reason="Sent to the wrong commander", actor=gm)
    assert (purse(amira), purse(bastian)) == (100, 20)
    assert rev.reverses == txn
    assert rev.kind == "reversal"
    assert sorted(rev.entries.values_list("amount", flat=True)) == [-10, 10]
    assert txn.entries.count() == 2  # the original is untouched
    assert AuditEntry.objects.get(action="ledger.reverse").data["reverses"] == txn.pk
    with pytest.raises(ValidationError, match="already reversed"):
        economy_ledger.ledger_reverse(transaction_to_reverse=txn, reason="Again", actor=gm)
    with pytest.raises(ValidationError, match="A reversal cannot be reversed"):
        economy_ledger.ledger_reverse(transaction_to_reverse=rev, reason="Undo", actor=gm)
    assert_books_balance()


def test_a_reversal_cannot_overdraw_a_purse(gm, amira, bastian):
    txn = economy_ledger.ledger_grant(commander=bastian, amount=50, reason="Prize", actor=gm)
    economy_ledger.ledger_transfer(from_commander=bastian, to_commander=amira, amount=70, reason="Spend it", actor=None)
    with pytest.raises(ValidationError, match="would take 50 from Bastian, who has 0"):
        economy_ledger.ledger_reverse(transaction_to_reverse=txn, reason="The prize was a mistake", actor=gm)
    assert_books_balance()


def test_entries_and_transactions_are_immutable(amira):
    txn = LedgerTransaction.objects.filter(kind="grant").first()
    entry = txn.entries.first()
    entry.amount = 1_000
    with pytest.raises(ImmutableLedgerError):
        entry.save()
    with pytest.raises(ImmutableLedgerError):
        entry.delete()
    with pytest.raises(ImmutableLedgerError):
        LedgerEntry.objects.filter(pk=entry.pk).update(amount=5)
    with pytest.raises(ImmutableLedgerError):
        LedgerEntry.objects.all().delete()
    txn.reason = "changed"
    with pytest.raises(ImmutableLedgerError):
        txn.save()
    with pytest.raises(ImmutableLedgerError):
        txn.delete()
    assert_books_balance()


def test_the_database_refuses_a_negative_purse_but_not_a_negative_bank(campaign, amira):
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(commander=amira).update(balance=-1)
    Account.objects.filter(campaign=campaign, kind=Account.Kind.BANK).update(balance=-10_000)


def test_entries_that_do_not_sum_to_zero_are_a_bug_and_refused(amira):
    account = Account.objects.get(commander=amira)
    with pytest.raises(LedgerImbalance):
        economy_ledger._post(campaign_id=amira.campaign_id, kind="grant", reason="bad", legs=[(account, 5)], actor=None)
    with pytest.raises(LedgerImbalance):
        economy_ledger._post(campaign_id=amira.campaign_id, kind="grant", reason="bad",
                             legs=[(account, 0), (account, 0)],
                             actor=None)
    assert LedgerTransaction.objects.filter(reason="bad").count() == 0


def test_escrow_holds_a_stake_and_releases_it_once(campaign, amira, bastian):
    hold = economy_ledger.ledger_escrow_hold(commander=amira, amount=40, reason="Unholy War wager", actor=None)
    assert purse(amira) == 60
    assert Account.objects.get(campaign=campaign, kind=Account.Kind.ESCROW).balance == 40
    with pytest.raises(ValidationError, match="the stake is 30, Bastian has 20"):
        economy_ledger.ledger_escrow_hold(commander=bastian, amount=30, reason="Wager", actor=None)
    economy_ledger.ledger_escrow_release(hold=hold, to_commander=bastian, actor=None)
    hold.refresh_from_db()
    assert hold.status == EscrowHold.Status.RELEASED
    assert hold.released_to == bastian
    assert purse(bastian) == 60
    with pytest.raises(ValidationError, match="already released"):
        economy_ledger.ledger_escrow_release(hold=hold, to_commander=amira, actor=None)
    with pytest.raises(ValidationError, match="releasing the hold"):
        economy_ledger.ledger_reverse(transaction_to_reverse=hold.hold_transaction, reason="x", actor=None)
    assert Account.objects.get(campaign=campaign, kind=Account.Kind.ESCROW).balance == 0
    assert_books_balance()


def test_cached_balances_agree_with_the_sums_after_many_movements(gm, amira, bastian):
    for i in range(1, 15):
        economy_ledger.ledger_grant(commander=bastian, amount=i, reason="pay", actor=gm)
        economy_ledger.ledger_transfer(from_commander=bastian, to_commander=amira, amount=i, reason="pass on",
                                       actor=None)
        if i % 3 == 0:
            economy_ledger.ledger_fine(commander=amira, amount=i, reason="fine", actor=gm)
    assert_books_balance()
    total = Account.objects.aggregate(s=Sum("balance"))["s"]
    assert total == 0  # double entry: lunari are neither made nor lost


def test_the_admin_cannot_change_or_delete_the_ledger(gm):
    request = RequestFactory().get("/")
    request.user = gm
    for model in (LedgerEntry, LedgerTransaction, Account):
        model_admin = admin.site._registry[model]
        assert not model_admin.has_add_permission(request)
        assert not model_admin.has_change_permission(request)
        assert not model_admin.has_delete_permission(request)


def test_the_demo_economy_is_built_through_the_ledger():
    campaign, _ = load_demo()
    load_demo()
    commanders = {c.name: c for c in Commander.objects.filter(campaign=campaign)}
    assert len(commanders) == 3
    assert commanders["Emir Qasim"].player is None
    assert all(purse(c) > 0 for c in commanders.values())
    assert_books_balance()
    wardens = Unit.objects.get(campaign=campaign, name="Wardens of the Ford")
    assert wardens.trainings == 1
    assert economy_selectors.unit_retinue_owner(unit=wardens) == commanders["Amira bint Khalid"]
    day = campaigns_selectors.event_current_day(event=wardens.recruited_event)
    assert economy_selectors.led_armies(day=day).count() == 3
    assert economy_selectors.upkeep_forecasts(day=day)[commanders["Emir Qasim"].pk].gross == 15  # the Undead are free
    assert FundingRequest.objects.filter(campaign=campaign, status="pending").count() == 1
    assert economy_selectors.event_recruit_offers(event=wardens.recruited_event).count() == 10
