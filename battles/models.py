"""A Battle of the campaign: two armies, where and when, how it was fought (live on the app or at a
real table and logged), its result, and when that result was written back to the campaign."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Battle(models.Model):
    """One Battle between an attacking and a defending army (seat 0 and seat 1 of the engine).

    `config` is the engine config built from the armies when the Battle started (its units, Morale,
    Influence, Base bonus): the record a logged result is checked against. A live Battle's `match`
    holds the seed and every action; `result` has the engine's result shape in both modes.
    Rows change only through battles.services.
    """

    class Mode(models.TextChoices):
        LIVE = "live", "Live on Muster"
        LOGGED = "logged", "Played at a table, logged"

    class Status(models.TextChoices):
        DUE = "due", "Being fought at a table"
        LIVE = "live", "Live"
        FINISHED = "finished", "Finished, result to confirm"
        APPLIED = "applied", "Applied to the campaign"
        CANCELLED = "cancelled", "Cancelled"

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="battles")
    event = models.ForeignKey("campaign.Event", on_delete=models.CASCADE, related_name="battles")
    day = models.ForeignKey("campaign.Day", on_delete=models.PROTECT, related_name="battles")
    attacker_army = models.ForeignKey("campaign.Army", null=True, on_delete=models.SET_NULL, related_name="+")
    defender_army = models.ForeignKey("campaign.Army", null=True, on_delete=models.SET_NULL, related_name="+")
    attacker = models.ForeignKey("campaign.Commander", on_delete=models.CASCADE, related_name="battles_attacking")
    defender = models.ForeignKey("campaign.Commander", on_delete=models.CASCADE, related_name="battles_defending")
    location = models.ForeignKey("campaign.Location", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+", help_text="Where the defender stands, if at a location.")
    due_battle = models.ForeignKey("campaign.DueBattle", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", help_text="The map's Battle due that this fights out.")
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    mode = models.CharField(max_length=8, choices=Mode.choices)
    match = models.OneToOneField("cardgames.Match", null=True, blank=True, on_delete=models.PROTECT,
                                 related_name="battle")
    status = models.CharField(max_length=10, choices=Status.choices)
    config = models.JSONField(help_text="The engine config the Battle started from.")
    result = models.JSONField(default=dict, blank=True)
    notes = models.TextField(blank=True, help_text="What happened at the table, in the logger's words.")
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", help_text="Who entered a table Battle's result.")
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~Q(attacker=models.F("defender")), name="battle_two_commanders"),
            models.CheckConstraint(condition=Q(mode="logged") | Q(match__isnull=False) | Q(status="cancelled"),
                                   name="battle_live_has_a_match"),
            models.CheckConstraint(condition=~Q(status="applied") | Q(applied_at__isnull=False),
                                   name="battle_applied_has_a_time"),
            models.UniqueConstraint(fields=["due_battle"], condition=~Q(status="cancelled"),
                                    name="battle_once_per_due_battle"),
        ]
        indexes = [models.Index(fields=["campaign", "status"])]

    def __str__(self) -> str:
        return f"{self.attacker} against {self.defender} ({self.get_status_display().lower()})"

    @property
    def commanders(self) -> tuple:
        """(attacker, defender): seat 0 and seat 1."""
        return self.attacker, self.defender

    @property
    def is_open(self) -> bool:
        """Still being fought: its commanders are in battle."""
        return self.status in (self.Status.DUE, self.Status.LIVE, self.Status.FINISHED)
