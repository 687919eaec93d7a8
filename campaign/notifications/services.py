"""Writes of notifications: telling a user (once per happening), marking read, preferences, push subscriptions."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone

from campaign.models import Notification, NotificationPreference, PushSubscription
from config.celery import enqueue_on_commit


def notification_send(*, user_id: int, kind: str, text: str, url: str, dedupe_key: str,
                      campaign_id: int | None = None) -> Notification | None:
    """Tell a user, unless this happening was told already (`dedupe_key`); delivery by push and e-mail is queued
    after commit. Returns the new notification, or None when it was told before."""
    try:
        with transaction.atomic():
            notification = Notification.objects.create(user_id=user_id, kind=kind, text=text[:300], url=url,
                                                       dedupe_key=dedupe_key[:160], campaign_id=campaign_id)
    except IntegrityError:
        return None
    enqueue_on_commit("campaign.notification_deliver", notification.pk)
    return notification


def day_closed_notify(sender, day, **kwargs) -> None:
    """The day_closed signal's receiver: bills and arrears are told after the close commits."""
    enqueue_on_commit("campaign.notify_day_closed", day.pk)


def notifications_mark_read(*, user, notification_id: int | None = None) -> int:
    """Mark one of the user's notifications read, or all of them; returns how many changed."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if notification_id is not None:
        unread = unread.filter(pk=notification_id)
    return unread.update(read_at=timezone.now())


def notification_preference_for(*, user) -> NotificationPreference:
    return NotificationPreference.objects.get_or_create(user=user)[0]


def notification_preference_set(*, user, push: bool, email: bool, address: str | None = None
                                ) -> NotificationPreference:
    """The user's choices, and the e-mail address to send to when `address` is given ("" forgets it). Refuses
    (ValidationError) an address that is not one, and e-mail chosen with no address, changing nothing."""
    address = user.email if address is None else address.strip()
    if address:
        validate_email(address)
    if email and not address:
        raise ValidationError("Give an e-mail address to be told by e-mail.")
    with transaction.atomic():
        if address != user.email:
            user.email = address
            user.save(update_fields=["email"])
        preference = notification_preference_for(user=user)
        preference.push, preference.email = push, email
        preference.save(update_fields=["push", "email"])
    return preference


def push_subscription_save(*, user, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Remember where to push to this browser; a browser that subscribes again (or for another user on the same
    phone) keeps one row, now the latest user's."""
    subscription, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth})
    return subscription


def push_subscription_delete(*, user, endpoint: str) -> int:
    return PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()[0]
