"""Reads of notifications."""

from __future__ import annotations

from django.db import connection
from django.db.models import QuerySet

from campaign.models import Notification

LIST_LENGTH = 100


def notifications_for(*, user) -> QuerySet[Notification]:
    return Notification.objects.filter(user=user)[:LIST_LENGTH]


def unread_column() -> str:
    """The unread count in every page's header, as a scalar SQL expression naming the user once: a remembered
    page's version (campaign.web.page_cache), read with the page's other versions. Raw SQL, as it is asked on
    every answer from the cache and the ORM's compiling cost more than the database."""
    return (f"(SELECT count(*) FROM {connection.ops.quote_name(Notification._meta.db_table)} "  # noqa: S608
            "WHERE user_id = %s AND read_at IS NULL)")
