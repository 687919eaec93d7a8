"""The ledger's rows: accounts, balanced transactions of immutable entries, escrow holds. Only
campaign.economy.ledger writes them; the database refuses a negative purse.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q

from campaign.models.campaigns import Campaign
from campaign.models.commanders import Commander


class Account(models.Model):
    """A ledger account. Its balance is the sum of its entries; `balance` caches that sum and is kept in
    the same transaction as every entry.

    Purses (a commander's lunari) and escrow (stakes held for a game) may never go below zero: the
    database refuses it. The other system accounts are the other sides of the game's economy and may:
    the bank is where grants come from and fines go, so its balance is minus the lunari the GMs have
    put into play; recruiting, training and upkeep collect what was paid (a reversal may take it back);
    donations collect wages of the dead given to temples.
    """

    class Kind(models.TextChoices):
        PURSE = "purse", "Commander's purse"
        BANK = "bank", "Bank"
        RECRUITING = "recruiting", "Recruiting"
        TRAINING = "training", "Training"
        UPKEEP = "upkeep", "Upkeep"
        DONATIONS = "donations", "Donations"
        ESCROW = "escrow", "Escrow"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="accounts")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    commander = models.OneToOneField(Commander, null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="purse")
    balance = models.BigIntegerField(default=0, help_text="Cached sum of this account's entries.")

    class Meta:
        ordering = ["campaign", "kind", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind="purse", commander__isnull=False) | (
                ~Q(kind="purse") & Q(commander__isnull=True)), name="account_purse_iff_commander"),
            models.UniqueConstraint(fields=["campaign", "kind"], condition=Q(commander__isnull=True),
                                    name="account_one_system_account_per_kind"),
            models.CheckConstraint(condition=~Q(kind__in=["purse", "escrow"]) | Q(balance__gte=0),
                                   name="account_purse_and_escrow_never_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.commander}'s purse" if self.commander_id else f"{self.get_kind_display()} ({self.campaign})"


class LedgerTransaction(models.Model):
    """One movement of lunari: who, when, why, what it paid for. Its entries sum to zero.
    A correction is a reversing transaction pointing at the one it reverses, never an edit."""

    class Kind(models.TextChoices):
        GRANT = "grant", "Grant"
        FINE = "fine", "Fine"
        TRANSFER = "transfer", "Transfer"
        RECRUITMENT = "recruitment", "Recruitment"
        TRAINING = "training", "Training"
        UPKEEP = "upkeep", "Upkeep"
        ARREARS = "arrears", "Arrears settled"
        MORALE = "morale", "Morale bought"
        DONATION = "donation", "Donation"
        ESCROW_HOLD = "escrow_hold", "Stake held"
        ESCROW_RELEASE = "escrow_release", "Stake released"
        BANK_STAKE = "bank_stake", "Stake against the bank"
        REVERSAL = "reversal", "Reversal"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ledger_transactions")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    reason = models.CharField(max_length=300)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    paid_for_type = models.ForeignKey(ContentType, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    paid_for_id = models.PositiveBigIntegerField(null=True, blank=True)
    paid_for = GenericForeignKey("paid_for_type", "paid_for_id")
    reverses = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="reversed_by")

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["paid_for_type", "paid_for_id"])]
        constraints = [
            models.CheckConstraint(condition=Q(kind="reversal") | Q(reverses__isnull=True),
                                   name="ledger_only_reversals_reverse"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_kind_display()}: {self.reason}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ImmutableLedgerError("Ledger transactions cannot be changed: post a reversal instead.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableLedgerError("Ledger transactions cannot be deleted: post a reversal instead.")


class ImmutableLedgerError(Exception):
    """Someone tried to change or delete what the ledger has written."""


class LedgerEntryQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise ImmutableLedgerError("Ledger entries cannot be changed: post a reversal instead.")

    def delete(self):
        raise ImmutableLedgerError("Ledger entries cannot be deleted: post a reversal instead.")


class LedgerEntry(models.Model):
    """One leg of a transaction: an amount into (positive) or out of (negative) one account. Immutable."""

    transaction = models.ForeignKey(LedgerTransaction, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries")
    amount = models.BigIntegerField()

    objects = LedgerEntryQuerySet.as_manager()

    class Meta:
        ordering = ["transaction", "id"]
        verbose_name_plural = "ledger entries"
        constraints = [models.CheckConstraint(condition=~Q(amount=0), name="ledger_entry_amount_nonzero")]

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.account}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ImmutableLedgerError("Ledger entries cannot be changed: post a reversal instead.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableLedgerError("Ledger entries cannot be deleted: post a reversal instead.")


class EscrowHold(models.Model):
    """Lunari a commander staked (e.g. on a card game), held until released to a winner or back."""

    class Status(models.TextChoices):
        HELD = "held", "Held"
        RELEASED = "released", "Released"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="escrow_holds")
    commander = models.ForeignKey(Commander, on_delete=models.PROTECT, related_name="escrow_holds")
    amount = models.PositiveIntegerField()
    reason = models.CharField(max_length=300)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.HELD)
    released_to = models.ForeignKey(Commander, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    hold_transaction = models.OneToOneField(LedgerTransaction, on_delete=models.PROTECT, related_name="+")
    release_transaction = models.OneToOneField(LedgerTransaction, null=True, blank=True, on_delete=models.PROTECT,
                                               related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="escrow_hold_positive")]

    def __str__(self) -> str:
        return f"{self.amount} lunari of {self.commander} ({self.get_status_display().lower()})"
