"""Campaigns, their live Events and in-game Days, who plays in them, and the audit trail."""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from campaign.economy_rules import COMMANDER_POWERS, TACTICIAN_CHOICES, starting_morale


class Role(models.TextChoices):
    GM = "gm", "Game master"
    PLAYER = "player", "Player"


class Campaign(models.Model):
    """A campaign: the long game that holds Events, commanders and the map."""

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True)
    description = models.TextField(blank=True)
    house_rules = models.JSONField(default=dict, blank=True,
                                   help_text="Per-campaign readings of the rules (RULINGS.md defaults apply).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    """One live game (a weekend or a session). Its clock turns real minutes into in-game hours."""

    class Status(models.TextChoices):
        PLANNED = "planned", "Planned"
        RUNNING = "running", "Running"
        PAUSED = "paused", "Paused"
        CLOSED = "closed", "Closed"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(max_length=120)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    minutes_per_hour = models.PositiveIntegerField(
        default=60, validators=[MinValueValidator(1), MaxValueValidator(24 * 60)],
        help_text="How many real minutes make one in-game hour.",
    )
    current_hour = models.PositiveIntegerField(default=0, help_text="In-game hours processed so far.")
    clock_started_at = models.DateTimeField(
        null=True, blank=True, help_text="When the clock last started or resumed, moved later by time spent paused.")
    clock_paused_at = models.DateTimeField(null=True, blank=True, help_text="When the clock was paused.")
    clock_base_hour = models.PositiveIntegerField(
        default=0, help_text="The hour the clock stood at when it started; an hour advanced by hand adds one.")

    class Meta:
        ordering = ["starts_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(ends_at__gt=models.F("starts_at")), name="event_ends_after_start"),
            models.CheckConstraint(condition=Q(minutes_per_hour__gte=1), name="event_minutes_per_hour_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.campaign})"


class Day(models.Model):
    """An in-game Day of an Event. Upkeep is charged and Morale refreshed when it closes."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="days")
    number = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    opened_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="day_number_unique_per_event"),
            models.UniqueConstraint(fields=["event"], condition=Q(status="open"), name="one_open_day_per_event"),
        ]

    def __str__(self) -> str:
        return f"Day {self.number} of {self.event.name}"


class Membership(models.Model):
    """A user's role in one campaign: game master (everything there) or player (their own things)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "role", "user__username"]
        constraints = [models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} in {self.campaign}"

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM


class AuditEntry(models.Model):
    """An immutable row for every change a person (or a scheduled job) made to a campaign."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    action = models.CharField(max_length=60)
    target = models.CharField(max_length=200, blank=True)
    data = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor or 'system'}: {self.action} {self.target}"


class Heartbeat(models.Model):
    """When a background process (the Celery worker via beat) last reported in, so a GM sees it is alive."""

    name = models.CharField(max_length=60, unique=True)
    seen_at = models.DateTimeField()
    beats = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.name} at {self.seen_at:%H:%M:%S}"


# ---------------------------------------------------------------------------------------------
# The economy: commanders, the unit catalogue, units and armies, the lunari ledger, recruiting,
# training, upkeep, Morale and funding requests. Rows change only through campaign.services and
# campaign.ledger; the ledger's entries never change at all.
# ---------------------------------------------------------------------------------------------

POWER_CHOICES = [(power, power) for power in COMMANDER_POWERS]
TACTICIAN_CHOICE_CHOICES = [(power, power) for power in TACTICIAN_CHOICES]


class UnitRole(models.TextChoices):
    AGGRESSOR = "Aggressor", "Aggressor"
    GUARDIAN = "Guardian", "Guardian"
    HEALER = "Healer", "Healer"
    SAVANT = "Savant", "Savant"
    EQUIPMENT = "Equipment", "Equipment"
    RITUAL = "Ritual", "Ritual"


class UnitPath(models.TextChoices):
    STEEL = "Steel", "Steel"
    MAGIC = "Magic", "Magic"
    FAITH = "Faith", "Faith"
    NATURE = "Nature", "Nature"
    MIND = "Mind", "Mind"


class Commander(models.Model):
    """A commander of armies: a player character (with a player) or a non-player commander the GMs run."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="commanders")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="commanders",
                               help_text="Empty for a non-player commander run by the game masters.")
    name = models.CharField(max_length=120)
    level = models.PositiveSmallIntegerField(default=1)
    power = models.CharField(max_length=20, choices=POWER_CHOICES)
    tactician_choice = models.CharField(
        max_length=20, choices=TACTICIAN_CHOICE_CHOICES, blank=True,
        help_text="A Tactician's usual pick from the Guardian row or the Steel column (chosen again each Battle).",
    )
    morale = models.PositiveSmallIntegerField(default=4, help_text="Current Morale.")
    influence = models.PositiveSmallIntegerField(default=0, help_text="Influence (player characters).")
    in_battle = models.BooleanField(default=False, help_text="Set while a Battle is running: no Morale buying.")
    morale_bought_on = models.ForeignKey(Day, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                         help_text="The Day on which Morale was last bought (once per Day).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="commander_name_unique_per_campaign"),
            models.CheckConstraint(condition=Q(tactician_choice="") | Q(power="Tactician"),
                                   name="commander_tactician_choice_only_for_tactician"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def starting_morale(self) -> int:
        """4 + floor(level / 2)."""
        return starting_morale(self.level)

    @property
    def is_player_character(self) -> bool:
        return self.player_id is not None


class Item(models.Model):
    """An item card a commander holds. Weapon cards can be destroyed to pay for training."""

    class Kind(models.TextChoices):
        WEAPON = "weapon", "Weapon"
        ARMOUR = "armour", "Armour"
        TRINKET = "trinket", "Trinket"
        OTHER = "other", "Other"

    commander = models.ForeignKey(Commander, on_delete=models.CASCADE, related_name="items")
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.OTHER)
    destroyed_at = models.DateTimeField(null=True, blank=True)
    destroyed_for = models.ForeignKey("UnitTraining", null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="weapon_cards")

    class Meta:
        ordering = ["commander", "name", "id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_kind_display()})"


def _artwork_path(instance: UnitType, filename: str) -> str:
    scope = f"c{instance.campaign_id}" if instance.campaign_id else "default"
    return f"units/{scope}/{filename}"


class UnitType(models.Model):
    """A card in the unit catalogue: the global default (no campaign) or a campaign's own version.

    A campaign sees its own types and every default type it has not replaced by name.
    """

    campaign = models.ForeignKey(Campaign, null=True, blank=True, on_delete=models.CASCADE, related_name="unit_types")
    name = models.CharField(max_length=120)
    strength = models.PositiveSmallIntegerField(null=True, blank=True, help_text='Empty for Strength "-".')
    role = models.CharField(max_length=10, choices=UnitRole.choices, blank=True)
    path = models.CharField(max_length=10, choices=UnitPath.choices, blank=True)
    traits = models.JSONField(default=list, blank=True)
    text = models.TextField(blank=True)
    effects = models.JSONField(default=list, blank=True)
    quest = models.BooleanField(default=False, help_text="Usually recruited by completing a quest.")
    trains_to = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="trained_from")
    third_training = models.TextField(blank=True, help_text="What a unit of this type gains on its third training.")
    artwork = models.ImageField(upload_to=_artwork_path, blank=True)
    artwork_thumbnail = models.ImageField(upload_to=_artwork_path, blank=True)

    class Meta:
        ordering = ["name", "campaign_id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="unit_type_name_unique_per_campaign"),
            models.UniqueConstraint(fields=["name"], condition=Q(campaign__isnull=True),
                                    name="unit_type_name_unique_in_defaults"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def strength_display(self) -> str:
        return "-" if self.strength is None else str(self.strength)

    @property
    def is_undead(self) -> bool:
        return "Undead" in (self.traits or [])


class Army(models.Model):
    """A commander's named group of units (the map position and orders belong to the map)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="armies")
    commander = models.ForeignKey(Commander, on_delete=models.CASCADE, related_name="armies")
    name = models.CharField(max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)
    map = models.ForeignKey("TacticalMap", null=True, blank=True, on_delete=models.SET_NULL, related_name="armies",
                            help_text="Empty while the army is in reserve, off the map.")
    x = models.FloatField(default=0.0, help_text="Inches from the map's left edge.")
    y = models.FloatField(default=0.0, help_text="Inches from the map's top edge.")

    class Meta:
        ordering = ["commander", "name"]
        verbose_name_plural = "armies"
        constraints = [models.UniqueConstraint(fields=["commander", "name"], name="army_name_unique_per_commander")]

    def __str__(self) -> str:
        return f"{self.name} ({self.commander})"


class Unit(models.Model):
    """A unit card a commander holds. Whether it is someone's retinue is read from the ledger, never stored."""

    class State(models.TextChoices):
        RESERVE = "reserve", "In reserve"
        IN_ARMY = "army", "In an army"
        KILLED = "killed", "Killed"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="units")
    commander = models.ForeignKey(Commander, on_delete=models.CASCADE, related_name="units")
    unit_type = models.ForeignKey(UnitType, on_delete=models.PROTECT, related_name="units")
    name = models.CharField(max_length=120, blank=True, help_text="A retinue's name, given by its owner.")
    strength = models.PositiveSmallIntegerField(null=True, blank=True, help_text='Empty for Strength "-".')
    trainings = models.PositiveSmallIntegerField(default=0)
    last_trained_event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    third_training_ability = models.TextField(blank=True, help_text="What the third training gave this unit.")
    state = models.CharField(max_length=10, choices=State.choices, default=State.RESERVE)
    army = models.ForeignKey(Army, null=True, blank=True, on_delete=models.SET_NULL, related_name="units")
    recruited_event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    recruited_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["commander", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(trainings__lte=3), name="unit_trained_at_most_three_times"),
            models.CheckConstraint(
                condition=(Q(state="army") & Q(army__isnull=False)) | (~Q(state="army") & Q(army__isnull=True)),
                name="unit_in_army_iff_state_army",
            ),
        ]
        indexes = [models.Index(fields=["army", "state"])]

    def __str__(self) -> str:
        label = f"{self.name} ({self.unit_type.name})" if self.name else self.unit_type.name
        return f"{label}, Strength {'-' if self.strength is None else self.strength}"


class UnitTraining(models.Model):
    """One training of a unit: +1 Strength, at most once per Event and three times in all."""

    unit = models.ForeignKey(Unit, on_delete=models.CASCADE, related_name="training_history")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    number = models.PositiveSmallIntegerField()
    strength_from = models.PositiveSmallIntegerField()
    strength_to = models.PositiveSmallIntegerField()
    type_from = models.ForeignKey(UnitType, on_delete=models.PROTECT, related_name="+")
    type_to = models.ForeignKey(UnitType, on_delete=models.PROTECT, related_name="+")
    price = models.PositiveIntegerField()
    weapon_offset = models.PositiveIntegerField(default=0)
    paid = models.PositiveIntegerField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["unit", "number"]
        constraints = [
            models.UniqueConstraint(fields=["unit", "event"], name="unit_trained_once_per_event"),
            models.UniqueConstraint(fields=["unit", "number"], name="unit_training_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1) & Q(number__lte=3), name="unit_training_number_1_to_3"),
        ]

    def __str__(self) -> str:
        return f"Training {self.number} of unit {self.unit_id}"


class ArmyDayActivity(models.Model):
    """An army was led on a Day (it moved, captured, defended or fought, or someone marked it): its
    commander pays upkeep for its units when the Day closes."""

    class Reason(models.TextChoices):
        MOVED = "moved", "Moved"
        CAPTURED = "captured", "Captured"
        DEFENDED = "defended", "Defended"
        FOUGHT = "fought", "Fought"
        MARKED_BY_GM = "marked_gm", "Marked by a game master"
        MARKED_BY_COMMANDER = "marked_commander", "Marked by its commander"

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="activity")
    day = models.ForeignKey(Day, on_delete=models.CASCADE, related_name="army_activity")
    reason = models.CharField(max_length=20, choices=Reason.choices)
    marked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["day", "army", "reason"]
        verbose_name_plural = "army day activity"
        constraints = [models.UniqueConstraint(fields=["army", "day", "reason"], name="army_activity_once_per_reason")]

    def __str__(self) -> str:
        return f"{self.army} {self.get_reason_display().lower()} on {self.day}"


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


class EventRecruitOffer(models.Model):
    """A unit type that may be recruited at an Event: by paying, or after its quest is done."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="recruit_offers")
    unit_type = models.ForeignKey(UnitType, on_delete=models.PROTECT, related_name="offers")
    by_quest = models.BooleanField(default=False)
    quest_done = models.BooleanField(default=False)
    gm_price = models.PositiveIntegerField(null=True, blank=True,
                                           help_text="The game master's price, required for Strengths outside 1-5.")
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["event", "unit_type__name"]
        constraints = [models.UniqueConstraint(fields=["event", "unit_type"], name="recruit_offer_once_per_event")]

    def __str__(self) -> str:
        return f"{self.unit_type} at {self.event.name}"


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
    """A commander's upkeep for one Day, posted when the Day closes. One per commander and Day,
    so closing a Day twice charges once."""

    commander = models.ForeignKey(Commander, on_delete=models.PROTECT, related_name="upkeep_bills")
    day = models.ForeignKey(Day, on_delete=models.PROTECT, related_name="upkeep_bills")
    gross = models.PositiveIntegerField()
    morale_spent = models.PositiveSmallIntegerField(default=0)
    morale_offset = models.PositiveIntegerField(default=0)
    amount_due = models.PositiveIntegerField()
    amount_paid = models.PositiveIntegerField(default=0)
    transaction = models.OneToOneField(LedgerTransaction, null=True, blank=True, on_delete=models.PROTECT,
                                       related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["day", "commander"]
        constraints = [
            models.UniqueConstraint(fields=["commander", "day"], name="upkeep_bill_once_per_commander_and_day"),
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


# ---------------------------------------------------------------------------------------------
# The tactical map: the picture and its scale, terrain, locations and Bases, move orders, the
# event clock's hour log, Battles that came due, and what game masters revealed. Rows change only
# through campaign.map_services and campaign.clock.
# ---------------------------------------------------------------------------------------------


def _map_picture_path(instance: TacticalMap, filename: str) -> str:
    return f"maps/c{instance.campaign_id}/{filename}"


class TacticalMap(models.Model):
    """A campaign's tactical map: a picture and its scale in inches (height follows the picture's aspect ratio)."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="tactical_map")
    name = models.CharField(max_length=120, default="Tactical map")
    picture = models.ImageField(upload_to=_map_picture_path, blank=True, help_text="A web-sized copy.")
    thumbnail = models.ImageField(upload_to=_map_picture_path, blank=True)
    picture_width = models.PositiveIntegerField(default=0, help_text="Pixels of the web-sized copy.")
    picture_height = models.PositiveIntegerField(default=0)
    width_inches = models.FloatField(default=48.0, validators=[MinValueValidator(1.0)],
                                     help_text="Inches the picture's width stands for.")
    height_inches = models.FloatField(default=36.0, validators=[MinValueValidator(1.0)],
                                      help_text="Follows from the width and the picture's aspect ratio.")
    contact_inches = models.FloatField(default=1.0, validators=[MinValueValidator(0.1)],
                                       help_text="How close an army must come to an enemy for a Battle to be due.")

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(width_inches__gt=0) & Q(height_inches__gt=0),
                                              name="map_size_positive")]

    def __str__(self) -> str:
        return f"{self.name} ({self.campaign})"


class TerrainRegion(models.Model):
    """A terrain polygon in inches; especially challenging terrain has its own penalty (routing.TerrainKind)."""

    class Kind(models.TextChoices):
        OPEN = "open", "Open"
        DIFFICULT = "difficult", "Difficult"
        CHALLENGING = "challenging", "Especially challenging"
        IMPASSABLE = "impassable", "Impassable"

    map = models.ForeignKey(TacticalMap, on_delete=models.CASCADE, related_name="regions")
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    penalty = models.FloatField(default=0.0, help_text="Inches of speed lost inside (especially challenging only).")
    points = models.JSONField(help_text="Corners as [[x, y], ...] in inches.")
    svg_points: str
    """Not a field: the corners as an SVG points attribute, set by map_selectors.map_view on the regions it shows."""

    class Meta:
        ordering = ["map", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind="challenging", penalty__gt=0) | (~Q(kind="challenging")
                                                                                  & Q(penalty=0)),
                                   name="terrain_penalty_only_when_challenging"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_kind_display().lower()})"


class Location(models.Model):
    """A camp, town or city: held by a commander or neutral, captured by Moves adding up to its threshold."""

    class Size(models.TextChoices):
        CAMP = "camp", "Camp"
        TOWN = "town", "Town"
        CITY = "city", "City"

    map = models.ForeignKey(TacticalMap, on_delete=models.CASCADE, related_name="locations")
    name = models.CharField(max_length=120)
    size = models.CharField(max_length=6, choices=Size.choices, default=Size.CAMP)
    x = models.FloatField()
    y = models.FloatField()
    capture_threshold = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    holder = models.ForeignKey(Commander, null=True, blank=True, on_delete=models.SET_NULL, related_name="held",
                               help_text="Empty: neutral.")
    capture_progress = models.PositiveIntegerField(default=0)
    capturing_army = models.ForeignKey(Army, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                       help_text="The army whose Capture the progress belongs to.")

    class Meta:
        ordering = ["map", "name"]
        constraints = [
            models.UniqueConstraint(fields=["map", "name"], name="location_name_unique_per_map"),
            models.CheckConstraint(condition=Q(capture_threshold__gte=1), name="location_threshold_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_size_display().lower()})"


class Base(models.Model):
    """A Base grants its defending commander extra Morale, spent first and gone for the Day once spent."""

    map = models.ForeignKey(TacticalMap, on_delete=models.CASCADE, related_name="bases")
    name = models.CharField(max_length=120)
    location = models.ForeignKey(Location, null=True, blank=True, on_delete=models.SET_NULL, related_name="bases")
    x = models.FloatField()
    y = models.FloatField()
    morale_bonus = models.PositiveSmallIntegerField(default=2)
    spent_on = models.ForeignKey(Day, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                 help_text="The Day its bonus was used up; refreshed when the Day closes.")

    class Meta:
        ordering = ["map", "name"]

    def __str__(self) -> str:
        return self.name


class MoveOrder(models.Model):
    """An army's order: go to a point, a location or a seen enemy army, or Capture the location it holds.

    The planned route is kept: `path` is what is still ahead (starting where the army stands), and
    `arrival_hour` the event hour the preview promised. One active order per army.
    """

    class Kind(models.TextChoices):
        POINT = "point", "Move to a point"
        LOCATION = "location", "Move to a location"
        ARMY = "army", "Move against an army"
        CAPTURE = "capture", "Capture the location"

    class Status(models.TextChoices):
        ACTIVE = "active", "Under way"
        ARRIVED = "arrived", "Arrived"
        CAPTURED = "captured", "Captured"
        CANCELLED = "cancelled", "Cancelled"
        BLOCKED = "blocked", "Blocked"
        INTERRUPTED = "interrupted", "Interrupted by a Battle"

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="move_orders")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="move_orders")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    target_x = models.FloatField()
    target_y = models.FloatField()
    target_location = models.ForeignKey(Location, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    target_army = models.ForeignKey(Army, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    path = models.JSONField(default=list, help_text="The route still ahead, [[x, y], ...], from where the army is.")
    waypoints = models.JSONField(default=list, help_text="Where the army stands after each Move, as planned.")
    ordered_hour = models.PositiveIntegerField(help_text="The event hour processed when the order was given.")
    arrival_hour = models.PositiveIntegerField(help_text="The event hour at whose end the army arrives.")
    done_hour = models.PositiveIntegerField(null=True, blank=True)
    given_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["army"], condition=Q(status="active"),
                                               name="one_active_order_per_army")]
        indexes = [models.Index(fields=["event", "status"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for army {self.army_id} ({self.get_status_display().lower()})"


class HourLog(models.Model):
    """One processed in-game hour of an Event. Unique per (event, hour): an hour is processed once."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="hour_logs")
    hour = models.PositiveIntegerField()
    processed_at = models.DateTimeField(auto_now_add=True)
    moved = models.PositiveIntegerField(default=0)
    entries = models.JSONField(default=list, help_text="What happened: arrivals, captures, Battles due, blocks.")

    class Meta:
        ordering = ["event", "-hour"]
        constraints = [models.UniqueConstraint(fields=["event", "hour"], name="hour_processed_once")]

    def __str__(self) -> str:
        return f"Hour {self.hour} of {self.event.name}"


class DueBattle(models.Model):
    """A Battle that came due at an hour: two armies met (at a location, `second` defends it)."""

    class Status(models.TextChoices):
        DUE = "due", "Due"
        FOUGHT = "fought", "Fought"
        CANCELLED = "cancelled", "Cancelled"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="due_battles")
    hour = models.PositiveIntegerField()
    first = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="+")
    location = models.ForeignKey(Location, null=True, blank=True, on_delete=models.SET_NULL, related_name="battles")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DUE)
    winner = models.ForeignKey(Army, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    routed = models.BooleanField(default=False)
    fought_hour = models.PositiveIntegerField(null=True, blank=True,
                                              help_text="The hour under way when the Battle ended.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "-hour", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "hour", "first", "second"], name="due_battle_once_per_hour"),
            models.CheckConstraint(condition=~Q(first=models.F("second")), name="due_battle_two_armies"),
        ]
        indexes = [models.Index(fields=["event", "status"])]

    def __str__(self) -> str:
        return f"Battle due at hour {self.hour}: army {self.first_id} v army {self.second_id}"


class Reveal(models.Model):
    """What a game master showed a commander's player of another army: where it was at an hour, or its size."""

    class What(models.TextChoices):
        POSITION = "position", "Position"
        SIZE = "size", "Size"

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="reveals")
    to_commander = models.ForeignKey(Commander, on_delete=models.CASCADE, related_name="reveals")
    what = models.CharField(max_length=10, choices=What.choices)
    hour = models.PositiveIntegerField(default=0, help_text="The event hour the position is as of.")
    x = models.FloatField(null=True, blank=True)
    y = models.FloatField(null=True, blank=True)
    miniatures = models.PositiveSmallIntegerField(null=True, blank=True)
    revealed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_what_display()} of army {self.army_id} to {self.to_commander}"
