"""Recruiting offers of an Event, upkeep (Morale pledges, bills and their lines, arrears) and funding
requests between commanders.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from campaign.models.campaigns import Campaign, Day, Event
from campaign.models.catalogue import UnitType
from campaign.models.commanders import Commander, Unit
from campaign.models.ledger import LedgerTransaction


class EventRecruitOffer(models.Model):
    """A unit type that may be recruited at an Event: by paying, or after its quest is done (QuestCompletion)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="recruit_offers")
    unit_type = models.ForeignKey(UnitType, on_delete=models.PROTECT, related_name="offers")
    by_quest = models.BooleanField(default=False)
    gm_price = models.PositiveIntegerField(null=True, blank=True,
                                           help_text="The game master's price, required for Strengths outside 1-5.")
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["event", "unit_type__name"]
        constraints = [models.UniqueConstraint(fields=["event", "unit_type"], name="recruit_offer_once_per_event")]

    def __str__(self) -> str:
        return f"{self.unit_type} at {self.event.name}"


class QuestCompletion(models.Model):
    """A character did an offer's quest: their commander may recruit one unit of it at the quest price. Used
    once, by the unit it recruited; the quest must be done again for another."""

    offer = models.ForeignKey(EventRecruitOffer, on_delete=models.CASCADE, related_name="quest_completions")
    commander = models.ForeignKey(Commander, on_delete=models.CASCADE, related_name="quest_completions")
    character = models.CharField(max_length=120, help_text="Who did the quest (for the record).")
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    unit = models.OneToOneField(Unit, null=True, blank=True, on_delete=models.SET_NULL, related_name="quest",
                                help_text="The unit recruited with it; empty while it is unused.")

    class Meta:
        ordering = ["recorded_at", "id"]

    def __str__(self) -> str:
        return f"{self.character} did the quest for {self.offer.unit_type} ({self.commander})"


class UpkeepMoralePledge(models.Model):
    """Morale a commander will spend to lower this Day's upkeep, 5 lunari a point."""

    commander = models.ForeignKey(Commander, on_delete=models.CASCADE, related_name="morale_pledges")
    day = models.ForeignKey(Day, on_delete=models.CASCADE, related_name="morale_pledges")
    points = models.PositiveSmallIntegerField()
    at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["commander", "day"], name="morale_pledge_once_per_day")]

    def __str__(self) -> str:
        return f"{self.commander}: {self.points} Morale on {self.day}"


class UpkeepBill(models.Model):
    """A commander's upkeep for one Day, posted when the Day closes. One per commander and Day, so closing a Day
    twice charges once; a Day reopened by a game master keeps its bills, marked reversed."""

    commander = models.ForeignKey(Commander, on_delete=models.PROTECT, related_name="upkeep_bills")
    day = models.ForeignKey(Day, on_delete=models.PROTECT, related_name="upkeep_bills")
    gross = models.PositiveIntegerField()
    morale_spent = models.PositiveSmallIntegerField(default=0)
    morale_offset = models.PositiveIntegerField(default=0)
    amount_due = models.PositiveIntegerField()
    amount_paid = models.PositiveIntegerField(default=0)
    transaction = models.OneToOneField(LedgerTransaction, null=True, blank=True, on_delete=models.PROTECT,
                                       related_name="+")
    reversed = models.BooleanField(default=False, help_text="The Day was reopened: its payment was reversed.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["day", "commander"]
        constraints = [
            models.UniqueConstraint(fields=["commander", "day"], condition=Q(reversed=False),
                                    name="upkeep_bill_once_per_commander_and_day"),
            models.CheckConstraint(condition=Q(amount_paid__lte=models.F("amount_due")),
                                   name="upkeep_bill_not_overpaid"),
        ]

    def __str__(self) -> str:
        return f"Upkeep of {self.commander} for {self.day}: {self.amount_due}"


class UpkeepLine(models.Model):
    """One unit's share of an upkeep bill."""

    bill = models.ForeignKey(UpkeepBill, on_delete=models.CASCADE, related_name="lines")
    unit = models.ForeignKey(Unit, on_delete=models.CASCADE, related_name="upkeep_lines")
    counted_strength = models.PositiveSmallIntegerField()
    lunari = models.PositiveIntegerField()
    note = models.CharField(max_length=60, blank=True)

    class Meta:
        ordering = ["bill", "unit"]
        constraints = [models.UniqueConstraint(fields=["bill", "unit"], name="upkeep_line_once_per_unit")]

    def __str__(self) -> str:
        return f"Unit {self.unit_id}: {self.lunari} lunari"


class UpkeepArrears(models.Model):
    """Upkeep a commander could not pay: a debt shown to the game masters until they settle or forgive it.
    Never deleted."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        SETTLED = "settled", "Settled"
        FORGIVEN = "forgiven", "Forgiven"
        REVERSED = "reversed", "Reversed with its Day"

    bill = models.OneToOneField(UpkeepBill, on_delete=models.PROTECT, related_name="arrears")
    commander = models.ForeignKey(Commander, on_delete=models.PROTECT, related_name="arrears")
    amount = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    resolved_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=300, blank=True)
    transaction = models.OneToOneField(LedgerTransaction, null=True, blank=True, on_delete=models.PROTECT,
                                       related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["status", "-created_at"]
        verbose_name_plural = "upkeep arrears"
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="arrears_positive")]

    def __str__(self) -> str:
        return f"{self.commander} owes {self.amount} upkeep for {self.bill.day} ({self.get_status_display().lower()})"


class FundingRequest(models.Model):
    """A commander asks another for lunari, with a reason; the other accepts (the lunari move at once),
    or declines; the asker may withdraw it while it is pending."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="funding_requests")
    requester = models.ForeignKey(Commander, on_delete=models.PROTECT, related_name="funding_asked")
    funder = models.ForeignKey(Commander, on_delete=models.PROTECT, related_name="funding_received_requests")
    amount = models.PositiveIntegerField()
    reason = models.CharField(max_length=300)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    response = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    transaction = models.OneToOneField(LedgerTransaction, null=True, blank=True, on_delete=models.PROTECT,
                                       related_name="+")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="funding_request_positive"),
            models.CheckConstraint(condition=~Q(requester=models.F("funder")), name="funding_request_not_to_self"),
        ]

    def __str__(self) -> str:
        return f"{self.requester} asks {self.funder} for {self.amount} ({self.get_status_display().lower()})"
