"""What a game master may reverse: an applied Battle result (or an outcome recorded on the map alone), a processed
hour, a closed Day. Each such write
leaves a Reversible row saying exactly what it changed, so a reversal restores it with correcting records."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from campaign.models.campaigns import Campaign, Event


class Reversible(models.Model):
    """One write a game master may reverse, most recent first, within the campaign's time window.

    `changed` holds each row the write changed, with the values of the changed fields before and after it:
    [{"model": "campaign.army", "pk": 3, "before": {"x": 1.0}, "after": {"x": 2.5}}]. `created` names the rows
    it created ({"campaign.duebattle": [7]}) and `transactions` the ledger transactions it posted. A reversal
    restores `before`, posts reversing ledger transactions (`reversal_transactions`) and says who, when and why;
    the row itself is never changed otherwise nor deleted. Rows change only through campaign.campaigns.reversals.
    """

    class Kind(models.TextChoices):
        BATTLE = "battle", "Battle result"
        OUTCOME = "outcome", "Battle outcome on the map"
        HOUR = "hour", "Hour of the clock"
        DAY = "day", "Day closed"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="reversibles")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="reversibles")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    target_id = models.PositiveBigIntegerField(help_text="The Battle, the Battle due, the hour's HourLog or the Day.")
    label = models.CharField(max_length=200, help_text="What it was, in words.")
    changed = models.JSONField(default=list)
    created = models.JSONField(default=dict)
    transactions = models.JSONField(default=list)
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    reversed_at = models.DateTimeField(null=True, blank=True)
    reversed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    reason = models.CharField(max_length=300, blank=True, help_text="Why it was reversed.")
    reversal_transactions = models.JSONField(default=list)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "target_id"], condition=Q(reversed_at__isnull=True),
                                    name="reversible_once_while_standing"),
            models.CheckConstraint(condition=Q(reversed_at__isnull=True) | ~Q(reason=""),
                                   name="reversal_has_a_reason"),
        ]
        indexes = [models.Index(fields=["campaign", "reversed_at"])]

    def __str__(self) -> str:
        return self.label

    @property
    def is_reversed(self) -> bool:
        return self.reversed_at is not None
