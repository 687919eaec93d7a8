"""Campaigns, their Events and Days, who plays in them (memberships, roles and invitations), the audit trail
and the workers' heartbeat.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q


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
    archived_at = models.DateTimeField(null=True, blank=True,
                                       help_text="When a game master archived it: read only, off the home page.")

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


class Invitation(models.Model):
    """A link a game master hands out: whoever follows it before it expires, is revoked or is used up joins the
    campaign with its role. The code is the secret, so it is long and random."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    code = models.CharField(max_length=64, unique=True)
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    max_uses = models.PositiveIntegerField(null=True, blank=True, help_text="Empty: as many as follow it in time.")
    uses = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.CheckConstraint(condition=Q(max_uses__isnull=True) | Q(max_uses__gte=1),
                                              name="invitation_max_uses_positive")]

    def __str__(self) -> str:
        return f"Invitation to {self.campaign} as {self.get_role_display().lower()}"


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
        indexes = [models.Index(fields=["campaign", "-id"], name="audit_newest_per_campaign")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor or 'system'}: {self.action} {self.target}"


class Heartbeat(models.Model):
    """When a background process (the Celery worker via beat) last reported in, so a GM sees it is alive."""

    name = models.CharField(max_length=60, unique=True)
    seen_at = models.DateTimeField()
    beats = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.name} at {self.seen_at:%H:%M:%S}"
