"""The secret in a user's chronicle feed address: feed readers cannot sign in, so the address itself is the key."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class FeedToken(models.Model):
    """One per user, long and random; resetting it replaces it, and the old feed address stops answering."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="feed_token")
    token = models.CharField(max_length=64, unique=True)
    made_at = models.DateTimeField(auto_now=True, help_text="When the current token was made.")

    def __str__(self) -> str:
        return f"Chronicle feed of {self.user}"
