"""The lunari ledger: the only module that moves lunari.

Double entry: every movement is one LedgerTransaction whose LedgerEntry rows sum to zero. Entries are
never changed or deleted; a correction is a reversal that posts the opposite entries. An account's
balance is the sum of its entries; `Account.balance` caches that sum and is written in the same
database transaction as the entries, under a row lock taken with select_for_update in primary-key
order (so two movements over the same accounts queue instead of deadlocking or losing an update).
Purses and escrow can never go below zero: each function refuses first with a sentence, and the
database's check constraint refuses anything that slips past.

One function per kind of movement. Each takes keyword arguments and the acting user (None for a
scheduled job) and returns what it wrote. Movements a game master makes by hand (grant, fine,
reversal) also write an audit row; the others are audited by the service that asked for them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import Sum

from campaign.bulk import copy_rows, insert_objects, update_rows
from campaign.live.push import announce_many, commander_topic
from campaign.locking import lock
from campaign.models import (
    Account,
    Campaign,
    Commander,
    EscrowHold,
    LedgerEntry,
    LedgerTransaction,
    UpkeepArrears,
    UpkeepBill,
)

Kind = LedgerTransaction.Kind
NEVER_NEGATIVE = frozenset({Account.Kind.PURSE, Account.Kind.ESCROW})
Legs = Sequence[tuple[Account, int]]


class LedgerImbalance(AssertionError):
    """A transaction whose entries do not sum to zero: a bug, never a person's mistake."""


# --- accounts -----------------------------------------------------------------------------------------


def ledger_system_account(*, campaign: Campaign | int, kind: str) -> Account:
    """The campaign's one account of a system kind (bank, recruiting, ...), created on first use."""
    if kind == Account.Kind.PURSE:
        raise ValueError("A purse belongs to a commander: use ledger_purse.")
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    account = Account.objects.filter(campaign_id=campaign_id, kind=kind, commander__isnull=True).order_by("pk").first()
    if account:
        return account
    try:
        with transaction.atomic():
            return Account.objects.create(campaign_id=campaign_id, kind=kind)
    except IntegrityError:  # another request created it first
        return Account.objects.get(campaign_id=campaign_id, kind=kind, commander__isnull=True)


def ledger_purse(*, commander: Commander) -> Account:
    """The commander's purse, created on first use."""
    account = Account.objects.filter(commander=commander).first()
    if account:
        return account
    try:
        with transaction.atomic():
            return Account.objects.create(campaign_id=commander.campaign_id, kind=Account.Kind.PURSE,
                                          commander=commander)
    except IntegrityError:
        return Account.objects.get(commander=commander)


def ledger_purses_ensure(*, commander_ids: Iterable[int]) -> dict[int, int]:
    """Purse account ids by commander id, creating the missing ones in bulk (two or three queries)."""
    ids = set(commander_ids)
    purses = Account.objects.filter(commander_id__in=ids).order_by().values_list("commander_id", "pk")
    found = dict(purses)
    missing = ids - set(found)
    if missing:
        campaigns = dict(Commander.objects.filter(pk__in=missing).order_by().values_list("pk", "campaign_id"))
        Account.objects.bulk_create(
            [Account(campaign_id=campaigns[cid], kind=Account.Kind.PURSE, commander_id=cid) for cid in missing],
            ignore_conflicts=True,
        )
        found = dict(purses.all())
    return found


def ledger_balance(*, account: Account) -> int:
    """The true balance: the sum of the account's entries (the cached column must agree)."""
    return account.entries.aggregate(total=Sum("amount"))["total"] or 0


def ledger_purse_balance(*, commander: Commander) -> int:
    return Account.objects.filter(commander=commander).values_list("balance", flat=True).first() or 0


# --- posting ---------------------------------------------------------------------------------------------


def _lock(account_ids: Iterable[int]) -> dict[int, Account]:
    """Lock the accounts once, in primary-key order, and return them fresh from the database."""
    return {a.pk: a for a in lock(Account.objects).filter(pk__in=set(account_ids))}


def _owner(account: Account) -> str:
    return str(account.commander) if account.commander_id else account.get_kind_display()


def _default_refusal(account: Account, needed: int) -> str:
    return f"Not enough lunari: this needs {needed}, {_owner(account)} has {account.balance}."


@dataclass(frozen=True)
class _Posting:
    campaign_id: int
    kind: str
    reason: str
    legs: tuple[tuple[int, int], ...]  # (account id, amount)
    paid_for: models.Model | None = None
    reverses_id: int | None = None


def _check_sums(legs: Iterable[tuple[int, int]]) -> None:
    legs = list(legs)
    if sum(amount for _, amount in legs) != 0:
        raise LedgerImbalance(f"Ledger entries must sum to zero, these sum to {sum(a for _, a in legs)}: {legs}")
    if any(amount == 0 for _, amount in legs):
        raise LedgerImbalance("A ledger entry of 0 lunari says nothing: leave it out.")


def _post_many(postings: Sequence[_Posting], *, actor: User | None,
               refusal: Callable[[Account, int], str] = _default_refusal,
               locked: dict[int, Account] | None = None) -> list[LedgerTransaction]:
    """Write several transactions at once: one lock query, bulk inserts, one balance update. `locked`: the
    accounts the caller has just locked with `_lock` (as read then), so they are not locked and read twice.

    Must run inside transaction.atomic. Raises ValidationError (and writes nothing) when a purse or
    the escrow would go below zero.
    """
    if not postings:
        return []
    for posting in postings:
        _check_sums(posting.legs)
    deltas: dict[int, int] = defaultdict(int)
    for posting in postings:
        for account_id, amount in posting.legs:
            deltas[account_id] += amount
    locked = {pk: locked[pk] for pk in deltas if pk in locked} if locked is not None else _lock(deltas)
    if len(locked) != len(deltas):
        raise ValidationError("A ledger account is missing: reload the page and try again.")
    # Check each account against the running balance in posting order, so a refusal names the real shortfall.
    running = {pk: account.balance for pk, account in locked.items()}
    for posting in postings:
        for account_id, amount in posting.legs:
            running[account_id] += amount
            account = locked[account_id]
            if account.kind in NEVER_NEGATIVE and running[account_id] < 0:
                raise ValidationError(refusal(account, -amount))
    actor_id = actor.pk if actor is not None and actor.pk else None
    content_types = ContentType.objects.get_for_models(*{type(p.paid_for) for p in postings if p.paid_for})
    transactions = [
        LedgerTransaction(
            campaign_id=p.campaign_id, kind=p.kind, reason=p.reason[:300], actor_id=actor_id,
            paid_for_type_id=content_types[type(p.paid_for)].pk if p.paid_for is not None else None,
            paid_for_id=p.paid_for.pk if p.paid_for is not None else None, reverses_id=p.reverses_id,
        )
        for p in postings
    ]
    insert_objects(transactions, ("campaign_id", "kind", "reason", "actor_id", "at", "paid_for_type_id", "paid_for_id",
                                  "reverses_id"))
    copy_rows(LedgerEntry, ("transaction_id", "account_id", "amount"), (
        (txn.pk, account_id, amount)
        for txn, posting in zip(transactions, postings, strict=True)
        for account_id, amount in posting.legs
    ))
    update_rows(Account, ("balance",), [(pk, account.balance + deltas[pk]) for pk, account in locked.items()
                                        if deltas[pk]])
    # A purse's page and its player's other pages show its balance.
    announce_many([commander_topic(account.commander_id) for pk, account in locked.items()
                   if account.commander_id is not None and deltas[pk]], transactions[-1].pk)
    return transactions


def _post(*, campaign_id: int, kind: str, reason: str, legs: Legs, actor: User | None,
          paid_for: models.Model | None = None, reverses_id: int | None = None,
          refusal: Callable[[Account, int], str] = _default_refusal) -> LedgerTransaction:
    posting = _Posting(campaign_id=campaign_id, kind=kind, reason=reason,
                       legs=tuple((account.pk, amount) for account, amount in legs),
                       paid_for=paid_for, reverses_id=reverses_id)
    return _post_many([posting], actor=actor, refusal=refusal)[0]


def _positive(amount: int, what: str = "amount") -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise ValidationError(f"The {what} must be a whole number of lunari above 0.")


def _reason(reason: str) -> str:
    if not reason or not reason.strip():
        raise ValidationError("Give a reason: the ledger records why lunari moved.")
    return reason.strip()


def _audit(*, campaign_id: int, actor, action: str, target: object, data: dict) -> None:
    from campaign.campaigns.audit import audit_record  # services import this module; import late to avoid a cycle

    audit_record(campaign=Campaign(pk=campaign_id), actor=actor, action=action, target=target, data=data)


def _same_campaign(*commanders: Commander) -> int:
    campaigns = {c.campaign_id for c in commanders}
    if len(campaigns) != 1:
        raise ValidationError("Lunari can only move between commanders of the same campaign.")
    return campaigns.pop()


# --- one function per kind of movement --------------------------------------------------------------------


@transaction.atomic
def ledger_grant(*, commander: Commander, amount: int, reason: str, actor: User | None
                 ) -> LedgerTransaction:
    """A game master gives a commander lunari (from the bank)."""
    _positive(amount)
    reason = _reason(reason)
    bank = ledger_system_account(campaign=commander.campaign_id, kind=Account.Kind.BANK)
    purse = ledger_purse(commander=commander)
    txn = _post(campaign_id=commander.campaign_id, kind=Kind.GRANT, reason=reason,
                legs=[(bank, -amount), (purse, amount)], actor=actor)
    _audit(campaign_id=commander.campaign_id, actor=actor, action="ledger.grant", target=commander,
           data={"amount": amount, "reason": reason, "transaction": txn.pk})
    return txn


@transaction.atomic
def ledger_bank_stake(*, commander: Commander, amount: int, won: bool, reason: str, actor: User | None
                      ) -> LedgerTransaction:
    """The bank's side of a practice game against an AI (house rule card_ai_stakes): it pays the commander
    `amount` when they won, and takes their stake when the AI won."""
    _positive(amount)
    bank = ledger_system_account(campaign=commander.campaign_id, kind=Account.Kind.BANK)
    purse = ledger_purse(commander=commander)
    legs = [(bank, -amount), (purse, amount)] if won else [(purse, -amount), (bank, amount)]
    txn = _post(campaign_id=commander.campaign_id, kind=Kind.BANK_STAKE, reason=_reason(reason), legs=legs,
                actor=actor, refusal=lambda acc, _n: f"Not enough lunari: the stake is {amount}, {commander} has "
                                                     f"{acc.balance}.")
    _audit(campaign_id=commander.campaign_id, actor=actor, action="ledger.bank_stake", target=commander,
           data={"amount": amount, "won": won, "transaction": txn.pk})
    return txn


@transaction.atomic
def ledger_fine(*, commander: Commander, amount: int, reason: str, actor: User | None
                ) -> LedgerTransaction:
    """A game master takes lunari from a commander (back to the bank)."""
    _positive(amount)
    reason = _reason(reason)
    bank = ledger_system_account(campaign=commander.campaign_id, kind=Account.Kind.BANK)
    purse = ledger_purse(commander=commander)
    txn = _post(campaign_id=commander.campaign_id, kind=Kind.FINE, reason=reason,
                legs=[(purse, -amount), (bank, amount)], actor=actor,
                refusal=lambda acc, _n: f"Not enough lunari: the fine is {amount}, {commander} has {acc.balance}. "
                                        f"Fine at most {acc.balance}.")
    _audit(campaign_id=commander.campaign_id, actor=actor, action="ledger.fine", target=commander,
           data={"amount": amount, "reason": reason, "transaction": txn.pk})
    return txn


@transaction.atomic
def ledger_transfer(*, from_commander: Commander, to_commander: Commander, amount: int, reason: str,
                    actor: User | None, paid_for: models.Model | None = None) -> LedgerTransaction:
    """One commander gives another lunari."""
    _positive(amount)
    reason = _reason(reason)
    campaign_id = _same_campaign(from_commander, to_commander)
    if from_commander.pk == to_commander.pk:
        raise ValidationError("Pick another commander: lunari cannot be sent to the same purse.")
    source, target = ledger_purse(commander=from_commander), ledger_purse(commander=to_commander)
    return _post(campaign_id=campaign_id, kind=Kind.TRANSFER, reason=reason,
                 legs=[(source, -amount), (target, amount)], actor=actor, paid_for=paid_for,
                 refusal=lambda acc, _n: f"Not enough lunari: sending {amount} needs {amount}, "
                                         f"{from_commander} has {acc.balance}.")


def _pay_to_system(*, payer: Commander, amount: int, system_kind: str, kind: str, reason: str, what: str,
                   paid_for: models.Model | None, actor) -> LedgerTransaction:
    _positive(amount)
    sink = ledger_system_account(campaign=payer.campaign_id, kind=system_kind)
    purse = ledger_purse(commander=payer)
    return _post(campaign_id=payer.campaign_id, kind=kind, reason=reason, legs=[(purse, -amount), (sink, amount)],
                 actor=actor, paid_for=paid_for,
                 refusal=lambda acc, _n: f"Not enough lunari: {what} costs {amount}, {payer} has {acc.balance}.")


@transaction.atomic
def ledger_pay_recruitment(*, payer: Commander, amount: int, unit: models.Model, reason: str,
                           actor: User | None) -> LedgerTransaction:
    """The payer's purse pays a unit's recruitment."""
    return _pay_to_system(payer=payer, amount=amount, system_kind=Account.Kind.RECRUITING, kind=Kind.RECRUITMENT,
                          reason=reason, what="recruiting", paid_for=unit, actor=actor)


@transaction.atomic
def ledger_pay_training(*, payer: Commander, amount: int, training: models.Model, reason: str,
                        actor: User | None) -> LedgerTransaction:
    """The payer's purse pays one training of a unit."""
    return _pay_to_system(payer=payer, amount=amount, system_kind=Account.Kind.TRAINING, kind=Kind.TRAINING,
                          reason=reason, what="training", paid_for=training, actor=actor)


@transaction.atomic
def ledger_buy_morale(*, commander: Commander, points: int, amount: int, actor: User | None
                      ) -> LedgerTransaction:
    """The commander's purse pays the bank for Morale."""
    return _pay_to_system(payer=commander, amount=amount, system_kind=Account.Kind.BANK, kind=Kind.MORALE,
                          reason=f"{points} Morale", what=f"{points} Morale", paid_for=None, actor=actor)


@transaction.atomic
def ledger_donate(*, commander: Commander, amount: int, reason: str, actor: User | None,
                  unit: models.Model | None = None) -> LedgerTransaction:
    """Wages of the dead given to a temple or the relatives: the purse pays the donations account
    (`unit`: the Killed unit whose wages these are)."""
    return _pay_to_system(payer=commander, amount=amount, system_kind=Account.Kind.DONATIONS, kind=Kind.DONATION,
                          reason=_reason(reason), what="this donation", paid_for=unit, actor=actor)


@dataclass(frozen=True)
class UpkeepPayment:
    bill_id: int
    paid: int
    transaction: LedgerTransaction | None


@transaction.atomic
def ledger_pay_upkeep(*, bills: Sequence[UpkeepBill], reason: str, actor: User | None
                      ) -> list[UpkeepPayment]:
    """Each bill's commander pays its amount due from their purse, or as much of it as the purse holds
    (the caller records the rest as arrears). All purses are locked in one query, in primary-key order,
    and all payments written in bulk, so the queries do not grow with the number of bills."""
    bills = [bill for bill in bills if bill.amount_due > 0]
    if not bills:
        return []
    purse_ids = ledger_purses_ensure(commander_ids={bill.commander_id for bill in bills})
    locked = _lock(purse_ids.values())
    sinks = {cid: ledger_system_account(campaign=cid, kind=Account.Kind.UPKEEP).pk
             for cid in {account.campaign_id for account in locked.values()}}
    available = {pk: account.balance for pk, account in locked.items()}
    postings, pays = [], []
    for bill in sorted(bills, key=lambda b: b.pk):
        purse_id = purse_ids[bill.commander_id]
        paid = min(bill.amount_due, max(available[purse_id], 0))
        available[purse_id] -= paid
        pays.append((bill, paid))
        if paid:
            campaign_id = locked[purse_id].campaign_id
            postings.append(_Posting(campaign_id=campaign_id, kind=Kind.UPKEEP, reason=reason,
                                     legs=((purse_id, -paid), (sinks[campaign_id], paid)), paid_for=bill))
    transactions = iter(_post_many(postings, actor=actor, locked={**locked, **_lock(sinks.values())}))
    return [UpkeepPayment(bill_id=bill.pk, paid=paid, transaction=next(transactions) if paid else None)
            for bill, paid in pays]


@transaction.atomic
def ledger_pay_arrears(*, arrears: UpkeepArrears, payer: Commander, actor: User | None
                       ) -> LedgerTransaction:
    """Someone pays a commander's upkeep debt in full (into the upkeep account)."""
    return _pay_to_system(payer=payer, amount=arrears.amount, system_kind=Account.Kind.UPKEEP, kind=Kind.ARREARS,
                          reason=f"Upkeep debt of {arrears.commander} settled", what="settling this debt",
                          paid_for=arrears, actor=actor)


@transaction.atomic
def ledger_escrow_hold(*, commander: Commander, amount: int, reason: str, actor: User | None
                       ) -> EscrowHold:
    """Move a stake from the commander's purse into escrow until the game is decided."""
    _positive(amount, "stake")
    reason = _reason(reason)
    escrow = ledger_system_account(campaign=commander.campaign_id, kind=Account.Kind.ESCROW)
    purse = ledger_purse(commander=commander)
    txn = _post(campaign_id=commander.campaign_id, kind=Kind.ESCROW_HOLD, reason=reason,
                legs=[(purse, -amount), (escrow, amount)], actor=actor,
                refusal=lambda acc, _n: f"Not enough lunari: the stake is {amount}, {commander} has {acc.balance}.")
    return EscrowHold.objects.create(campaign_id=commander.campaign_id, commander=commander, amount=amount,
                                     reason=reason, hold_transaction=txn)


@transaction.atomic
def ledger_escrow_release(*, hold: EscrowHold, to_commander: Commander, actor: User | None,
                          reason: str = "") -> LedgerTransaction:
    """Pay a held stake out to the winner (or back to whoever staked it). A hold is released once."""
    hold = lock(EscrowHold.objects).get(pk=hold.pk)
    if hold.status != EscrowHold.Status.HELD:
        raise ValidationError("This stake was already released: nothing is left to pay out.")
    if to_commander.campaign_id != hold.campaign_id:
        raise ValidationError("A stake can only be paid to a commander of the same campaign.")
    escrow = ledger_system_account(campaign=hold.campaign_id, kind=Account.Kind.ESCROW)
    purse = ledger_purse(commander=to_commander)
    txn = _post(campaign_id=hold.campaign_id, kind=Kind.ESCROW_RELEASE,
                reason=reason.strip() or f"Stake of {hold.commander} paid to {to_commander}",
                legs=[(escrow, -hold.amount), (purse, hold.amount)], actor=actor, paid_for=hold)
    hold.status = EscrowHold.Status.RELEASED
    hold.released_to = to_commander
    hold.release_transaction = txn
    hold.save(update_fields=["status", "released_to", "release_transaction"])
    return txn


def _reversal_refusal(original: LedgerTransaction, reversed_ids: set[int]) -> str | None:
    if original.kind == Kind.REVERSAL:
        return "A reversal cannot be reversed: post the movement again instead."
    if original.kind in (Kind.ESCROW_HOLD, Kind.ESCROW_RELEASE):
        return "Stakes are corrected by releasing the hold to the right commander, not by reversal."
    if original.pk in reversed_ids:
        return f"Transaction #{original.pk} was already reversed."
    return None


def _reverse(originals: Sequence[LedgerTransaction], reason: str, actor: User | None) -> list[LedgerTransaction]:
    """Post the opposite entries of each (locked) original, pointing at it, in one batch."""
    reversed_ids = set(LedgerTransaction.objects.filter(reverses__in=originals).order_by()
                       .values_list("reverses_id", flat=True))
    for original in originals:
        if (refusal := _reversal_refusal(original, reversed_ids)) is not None:
            raise ValidationError(refusal)
    legs: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for txn_id, account_id, amount in LedgerEntry.objects.filter(transaction__in=originals).order_by("pk") \
            .values_list("transaction_id", "account_id", "amount"):
        legs[txn_id].append((account_id, -amount))
    return _post_many([_Posting(campaign_id=o.campaign_id, kind=Kind.REVERSAL, reason=reason,
                                legs=tuple(legs[o.pk]), reverses_id=o.pk) for o in originals], actor=actor,
                      refusal=lambda acc, n: f"This reversal would take {n} from {_owner(acc)}, who has "
                                             f"{acc.balance}: grant them lunari first or fine them less.")


@transaction.atomic
def ledger_reverse(*, transaction_to_reverse: LedgerTransaction, reason: str, actor: User | None
                   ) -> LedgerTransaction:
    """A game master's correction: post the opposite entries, pointing at the original. Nothing is edited.

    A transaction is reversed at most once; a reversal is not itself reversed (post the movement again);
    escrow movements are settled by releasing the hold instead.
    """
    reason = _reason(reason)
    original = lock(LedgerTransaction.objects).get(pk=transaction_to_reverse.pk)
    txn = _reverse([original], reason, actor)[0]
    _audit(campaign_id=original.campaign_id, actor=actor, action="ledger.reverse", target=f"transaction #{original.pk}",
           data={"reason": reason, "transaction": txn.pk, "reverses": original.pk})
    return txn


@transaction.atomic
def ledger_reverse_many(*, transaction_ids: Sequence[int], reason: str, actor: User | None
                        ) -> list[LedgerTransaction]:
    """Reverse several transactions at once, as ledger_reverse does each (the caller writes the audit row: a
    reopened Day reverses every upkeep payment of the Day). Queries do not grow with their number."""
    reason = _reason(reason)
    originals = list(lock(LedgerTransaction.objects).filter(pk__in=transaction_ids))
    if len(originals) != len(set(transaction_ids)):
        raise ValidationError("A ledger transaction to reverse is missing: reload the page and try again.")
    return _reverse(originals, reason, actor)
