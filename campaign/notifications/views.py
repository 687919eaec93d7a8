"""Pages: my notifications (unread first marked), marking read, how I want to be told, and the push subscription
the browser sends (the Push API's subscription as JSON)."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.functional import SimpleLazyObject
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from campaign.models import Notification
from campaign.notifications import selectors, services
from campaign.web.page_cache import page_depends, page_version
from campaign.web.refusals import refusal_sentence

SUBSCRIPTION_SENTENCE = ("Send the browser's push subscription as JSON: {\"endpoint\": \"https://…\", \"keys\": "
                         "{\"p256dh\": \"…\", \"auth\": \"…\"}}.")


@login_required
def notification_list(request: HttpRequest) -> HttpResponse:
    return render(request, "campaign/notifications/list.html",
                  {"notifications": selectors.notifications_for(user=request.user)})


@login_required
@require_POST
def notification_read(request: HttpRequest, notification_id: int) -> HttpResponse:
    """Mark one read and open what it is about."""
    notification = get_object_or_404(Notification, pk=notification_id, user=request.user)
    services.notifications_mark_read(user=request.user, notification_id=notification.pk)
    safe = url_has_allowed_host_and_scheme(notification.url, allowed_hosts=None)
    return redirect(notification.url if notification.url and safe else "notifications")


@login_required
@require_POST
def notification_read_all(request: HttpRequest) -> HttpResponse:
    count = services.notifications_mark_read(user=request.user)
    messages.success(request, f"{count} notification{'s' if count != 1 else ''} marked read.")
    return redirect("notifications")


@login_required
def notification_settings(request: HttpRequest) -> HttpResponse:
    preference = services.notification_preference_for(user=request.user)
    if request.method == "POST":
        try:
            preference = services.notification_preference_set(
                user=request.user, push="push" in request.POST, email="email" in request.POST,
                address=request.POST.get("address"))
        except ValidationError as exc:
            messages.error(request, f"{refusal_sentence(exc)} Nothing was changed: write it as name@example.org.")
            return redirect("notification-settings")
        messages.success(request, "Saved: " + ", ".join(
            word for word, on in (("in the app", True), ("by push", preference.push),
                                  ("by e-mail", preference.email)) if on) + ".")
        return redirect("notification-settings")
    return render(request, "campaign/notifications/settings.html", {
        "preference": preference, "vapid_public_key": settings.VAPID_PUBLIC_KEY,
        "subscriptions": request.user.push_subscriptions.count()})


@login_required
@require_POST
def push_subscription(request: HttpRequest) -> JsonResponse:
    """Save (or with {"unsubscribe": true}, forget) this browser's push subscription."""
    try:
        body = json.loads(request.body or b"{}")
        endpoint, keys = body["endpoint"], body.get("keys") or {}
        if not isinstance(endpoint, str) or not endpoint.startswith(("https://", "http://")):
            raise ValueError
    except (ValueError, KeyError, TypeError):
        return JsonResponse({"detail": SUBSCRIPTION_SENTENCE}, status=400)
    if body.get("unsubscribe"):
        services.push_subscription_delete(user=request.user, endpoint=endpoint)
        return JsonResponse({"detail": "This browser will not be pushed to any more."})
    if len(endpoint) > 600 or not all(isinstance(keys.get(name), str) and keys[name] for name in ("p256dh", "auth")):
        return JsonResponse({"detail": SUBSCRIPTION_SENTENCE}, status=400)
    services.push_subscription_save(user=request.user, endpoint=endpoint, p256dh=keys["p256dh"][:200],
                                    auth=keys["auth"][:100])
    return JsonResponse({"detail": "This browser will be pushed to."}, status=201)


def unread_count(request: HttpRequest) -> dict:
    """Context processor: the unread count shown in every page's header, counted (and named as what the page
    shows, for campaign.web.page_cache) only when a template shows it: a remembered page's body
    (campaign.campaigns.fragments) is rendered with the context processors too, and counting there would cost a
    query nobody reads."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    def count() -> int:  # read with the remembered page's other versions when it was found stale
        unread = page_version(request, "unread", user.pk)
        page_depends(request, "unread", user.pk, version=unread)
        return int(unread)

    return {"unread_notifications": SimpleLazyObject(count)}
