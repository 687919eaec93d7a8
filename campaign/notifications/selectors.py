"""Reads of notifications."""

from __future__ import annotations

from django.db.models import QuerySet

from campaign.models import Notification

LIST_LENGTH = 100


def notifications_for(*, user) -> QuerySet[Notification]:
    return Notification.objects.filter(user=user)[:LIST_LENGTH]


def notifications_unread_count(*, user) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()
