"""The notification pages: the unread count in every page's header, the list, marking read, the preferences and
the push subscription a browser sends."""

from __future__ import annotations

import json

import pytest

from campaign.models import Notification, PushSubscription
from campaign.notifications import services

pytestmark = pytest.mark.django_db


def tell(user, key: str, url: str = "/notifications/settings/"):
    return services.notification_send(user_id=user.pk, kind="arrears", text=f"Told {key}.", url=url, dedupe_key=key)


def test_the_header_counts_unread_and_reading_one_opens_what_it_is_about(client, player, outsider):
    first, _ = tell(player, "a"), tell(player, "b")
    tell(outsider, "c")
    client.force_login(player)
    page = client.get("/notifications/").content.decode()
    assert 'data-testid="unread-count" aria-label="2 unread">2<' in page
    assert "Told a." in page
    assert "Told b." in page
    assert "Told c." not in page
    opened = client.post(f"/notifications/{first.pk}/read/")
    assert opened["Location"] == "/notifications/settings/"
    assert 'aria-label="1 unread"' in client.get("/").content.decode()
    client.post("/notifications/read-all/")
    assert 'data-testid="unread-count"' not in client.get("/").content.decode()
    other = Notification.objects.get(user=outsider)
    assert client.post(f"/notifications/{other.pk}/read/").status_code == 404


def test_a_link_elsewhere_is_never_followed(client, player):
    unsafe = tell(player, "x", url="https://elsewhere.example/")
    client.force_login(player)
    assert client.post(f"/notifications/{unsafe.pk}/read/")["Location"] == "/notifications/"


def test_preferences_are_saved_with_the_address_to_mail(client, player):
    client.force_login(player)
    client.post("/notifications/settings/", {"email": "on", "address": " amira@example.org "})
    preference = services.notification_preference_for(user=player)
    assert (preference.push, preference.email) == (False, True)
    player.refresh_from_db()
    assert player.email == "amira@example.org"
    page = client.get("/notifications/settings/").content.decode()
    assert "Saved: in the app, by e-mail." in page
    assert 'value="amira@example.org"' in page


def test_a_wrong_address_or_e_mail_without_one_is_refused_and_changes_nothing(client, player):
    client.force_login(player)
    client.post("/notifications/settings/", {"push": "on", "address": "amira@example.org"})
    for form in ({"email": "on", "address": "not an address"}, {"email": "on", "address": ""}):
        answer = client.post("/notifications/settings/", form, follow=True).content.decode()
        assert "Nothing was changed: write it as name@example.org." in answer
        player.refresh_from_db()
        preference = services.notification_preference_for(user=player)
        assert (player.email, preference.push, preference.email) == ("amira@example.org", True, False)


def test_a_push_subscription_is_saved_forgotten_and_bad_ones_are_told_what_to_send(client, player):
    client.force_login(player)
    subscription = {"endpoint": "https://push.example/send/abc", "keys": {"p256dh": "BPk", "auth": "xyz"}}
    saved = client.post("/notifications/push/", json.dumps(subscription), content_type="application/json")
    assert saved.status_code == 201
    assert PushSubscription.objects.get().user == player
    bad = client.post("/notifications/push/", json.dumps({"endpoint": 3}), content_type="application/json")
    assert bad.status_code == 400
    assert "push subscription as JSON" in bad.json()["detail"]
    client.post("/notifications/push/", json.dumps({**subscription, "unsubscribe": True}),
                content_type="application/json")
    assert not PushSubscription.objects.exists()


def test_the_settings_page_says_when_the_server_has_no_push_keys(client, player, settings):
    settings.VAPID_PUBLIC_KEY = ""
    client.force_login(player)
    assert "This server has no push keys" in client.get("/notifications/settings/").content.decode()
