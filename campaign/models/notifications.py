"""Notifications: what a user is told (in the app always; by Web Push and e-mail as they choose), each at most
once, and the browsers that asked to be pushed to."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Notification(models.Model):
    """One thing a user is told. `dedupe_key` names the happening (a Battle, an hour's arrival, a bill), so the
    same happening told twice is one row: a retried task or a repeated trigger tells nobody twice."""

    class Kind(models.TextChoices):
        BATTLE_DUE = "battle_due", "A Battle coming due"
        ARMY_ARRIVED = "army_arrived", "An army arriving"
        ARMY_BLOCKED = "army_blocked", "An army blocked"
        YOUR_MOVE = "your_move", "Your move in a table"
        CHALLENGE = "challenge", "A challenge to you"
        FUNDING_REQUEST = "funding_request", "A funding request to you"
        ARREARS = "arrears", "Arrears"
        DAY_CLOSED = "day_closed", "A Day closed with your bill"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, null=True, blank=True,
                                 related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    text = models.CharField(max_length=300)
    url = models.CharField(max_length=300, blank=True)
    dedupe_key = models.CharField(max_length=160, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    pushed_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "read_at"], name="notification_user_unread")]

    def __str__(self) -> str:
        return self.text


class NotificationPreference(models.Model):
    """How a user wants to be told besides the list in the app (always on): Web Push and e-mail."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="notification_preference")
    push = models.BooleanField(default=True, help_text="Push to the browsers where I allowed it.")
    email = models.BooleanField(default=False, help_text="Send an e-mail to my address.")

    def __str__(self) -> str:
        return f"{self.user}: push {self.push}, e-mail {self.email}"


class PushSubscription(models.Model):
    """A browser's Web Push subscription (its push service endpoint and keys), as the Push API gave it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=600, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user} at {self.endpoint[:40]}"
