"""Unit types: the catalogue's entries (shared defaults and a campaign's own), with their artwork."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from campaign.models.campaigns import Campaign


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
    third_training_traits = models.JSONField(default=list, blank=True,
                                             help_text="Traits the third training gives, as the engine plays them.")
    third_training_effects = models.JSONField(default=list, blank=True,
                                              help_text="Effects the third training gives (battles/engine/effects.py).")
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
