"""State-changing requests remembered by their idempotency key, so a phone's retry is answered, not applied twice."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class IdempotentRequest(models.Model):
    """One unsafe request a user sent with an `Idempotency-Key`: written in the transaction of the action itself,
    so the key exists exactly when the action's writes do, and a repeat gets the stored answer back."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=100)
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=500)
    status = models.PositiveSmallIntegerField(default=0)
    content_type = models.CharField(max_length=120, blank=True)
    body = models.BinaryField(blank=True, default=b"")
    location = models.CharField(max_length=500, blank=True)
    sentence = models.TextField(blank=True, help_text="What the action said to its user (its messages).")
    refused = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotent_request_user_key")]

    def __str__(self) -> str:
        return f"{self.method} {self.path} ({self.key})"
