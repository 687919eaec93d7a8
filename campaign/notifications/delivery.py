"""Delivering one notification by Web Push (to every browser the user subscribed) and by e-mail, as the user
chose; each at most once (`pushed_at`, `emailed_at` are set under the row's lock, whatever the outcome: a push
service that is down loses that push, never sends it twice). The payload holds only the notification's text and
link, which were built for that user."""

from __future__ import annotations

import json
import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from campaign.locking import lock
from campaign.models import Notification, NotificationPreference, PushSubscription

log = logging.getLogger(__name__)
PUSH_TIMEOUT_SECONDS = 5
PUSH_TTL_SECONDS = 6 * 3600
GONE = (404, 410)  # the push service forgot this browser: so do we


def push_payload(notification: Notification) -> str:
    return json.dumps({"title": "Muster", "body": notification.text, "url": notification.url,
                       "tag": f"muster-{notification.kind}"})


def _push(notification: Notification) -> int:
    from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]
    from requests import RequestException

    sent = 0
    for subscription in PushSubscription.objects.filter(user_id=notification.user_id).order_by("pk"):
        try:
            webpush({"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh,
                                                                 "auth": subscription.auth}},
                    data=push_payload(notification), vapid_private_key=settings.VAPID_PRIVATE_KEY,
                    vapid_claims={"sub": settings.VAPID_SUBJECT}, timeout=PUSH_TIMEOUT_SECONDS, ttl=PUSH_TTL_SECONDS)
            sent += 1
        except WebPushException as exc:
            if exc.response is not None and exc.response.status_code in GONE:
                subscription.delete()
            log.warning("Push to %s refused: %s", subscription.endpoint[:60], exc)
        except (RequestException, ValueError) as exc:
            log.warning("Push to %s failed: %s", subscription.endpoint[:60], exc)
    return sent


def _email(notification: Notification) -> bool:
    link = f"{settings.SITE_URL}{notification.url}" if notification.url else settings.SITE_URL
    try:
        send_mail(subject=f"Muster: {notification.get_kind_display()}",
                  message=f"{notification.text}\n\n{link}\n\nChoose how Muster tells you things: "
                          f"{settings.SITE_URL}/notifications/settings/",
                  from_email=None, recipient_list=[notification.user.email])
    except OSError as exc:  # the mail server does not answer: logged, not retried (at most once)
        log.warning("E-mail for notification %s failed: %s", notification.pk, exc)
        return False
    return True


@transaction.atomic
def notification_deliver(*, notification_id: int) -> dict:
    """Push and mail one notification as its user chose; a second call sends nothing."""
    notification = lock(Notification.objects).select_related("user").filter(pk=notification_id).first()
    if notification is None:
        return {}
    preference = NotificationPreference.objects.filter(user_id=notification.user_id).first()
    wants_push = preference.push if preference else True
    wants_email = bool(preference and preference.email and notification.user.email)
    done = {"pushed": 0, "emailed": False}
    now, fields = timezone.now(), []
    if notification.pushed_at is None and wants_push and settings.VAPID_PRIVATE_KEY:
        done["pushed"] = _push(notification)
        notification.pushed_at = now
        fields.append("pushed_at")
    if notification.emailed_at is None and wants_email:
        done["emailed"] = _email(notification)
        notification.emailed_at = now
        fields.append("emailed_at")
    if fields:
        notification.save(update_fields=fields)
    return done
