"""Commanders and what they command: items, armies, units, their trainings, and the armies a commander led
on a Day (upkeep charges those).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from campaign.economy.rules import COMMANDER_POWERS, TACTICIAN_CHOICES, starting_morale
from campaign.models.campaigns import Campaign, Day, Event
from campaign.models.catalogue import UnitType

POWER_CHOICES = [(power, power) for power in COMMANDER_POWERS]
TACTICIAN_CHOICE_CHOICES = [(power, power) for power in TACTICIAN_CHOICES]


class CommanderQuerySet(models.QuerySet):
    def active(self) -> CommanderQuerySet:
        """Commanders still in play (not retired)."""
        return self.filter(retired_at__isnull=True)


class Commander(models.Model):
    """A commander of armies: a player character (with a player) or a non-player commander the GMs run.
    A retired commander stays on record (ledger, Battles) but leaves play."""

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
    dervish_choice = models.CharField(max_length=12, blank=True,
                                      help_text="A Dervish's Path or Role for the Day named beside it.")
    dervish_day = models.ForeignKey(Day, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                    help_text="The Day the Dervish's choice holds for (chosen once per Day).")
    morale = models.PositiveSmallIntegerField(default=4, help_text="Current Morale.")
    influence = models.PositiveSmallIntegerField(default=0, help_text="Influence (player characters).")
    in_battle = models.BooleanField(default=False, help_text="Set while a Battle is running: no Morale buying.")
    morale_bought_on = models.ForeignKey(Day, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                         help_text="The Day on which Morale was last bought (once per Day).")
    created_at = models.DateTimeField(auto_now_add=True)
    retired_at = models.DateTimeField(null=True, blank=True, help_text="When a game master retired it from play.")

    objects = CommanderQuerySet.as_manager()

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
    gained_traits = models.JSONField(default=list, blank=True, help_text="Traits the third training gave it.")
    gained_effects = models.JSONField(default=list, blank=True, help_text="Effects the third training gave it.")
    state = models.CharField(max_length=10, choices=State.choices, default=State.RESERVE)
    army = models.ForeignKey(Army, null=True, blank=True, on_delete=models.SET_NULL, related_name="units")
    lent_to = models.ForeignKey(Commander, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="borrowed_units",
                                help_text="The commander who leads this unit while it is lent; empty: its own.")
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

    @property
    def leader_id(self) -> int:
        """Whose armies the unit serves in: the borrower's while it is lent, else its own commander's."""
        return self.lent_to_id or self.commander_id


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
