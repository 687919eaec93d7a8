"""Web Push and e-mail, each at most once, as the user chose. A local HTTP endpoint stands in for the push
service: it receives what a browser's push service would, and the test decrypts it with the browser's keys."""

from __future__ import annotations

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core import mail
from django.core.management import call_command
from django.test import override_settings

from campaign.models import PushSubscription
from campaign.notifications import services
from campaign.notifications.delivery import notification_deliver

pytestmark = pytest.mark.django_db


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class PushService:
    """Answers every POST with `status` and keeps what it was sent."""

    def __init__(self, status: int = 201):
        self.received: list[tuple[str, dict, bytes]] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def vapid(settings, capsys):
    call_command("vapid_keys")
    keys = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = keys["VAPID_PUBLIC_KEY"], keys["VAPID_PRIVATE_KEY"]
    settings.VAPID_SUBJECT = "mailto:gm@example.org"
    return keys


@pytest.fixture
def browser_keys():
    """What a browser keeps for its subscription: an ECDH key pair and an auth secret."""
    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(serialization.Encoding.X962,
                                               serialization.PublicFormat.UncompressedPoint)
    return private, b64(public), os.urandom(16)


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


def tell(user, key: str = "test:1"):
    return services.notification_send(user_id=user.pk, kind="your_move", text="Your move in Duel (Command Dice).",
                                      url="/c/river-valley/matches/1/", dedupe_key=key)


def test_a_push_reaches_the_subscribed_browser_encrypted_and_only_once(player, vapid, browser_keys, push_service):
    private, public, auth = browser_keys
    services.push_subscription_save(user=player, endpoint=f"{push_service.url}/push/amira", p256dh=public,
                                    auth=b64(auth))
    notification = tell(player)
    assert notification_deliver(notification_id=notification.pk)["pushed"] == 1
    assert notification_deliver(notification_id=notification.pk) == {"pushed": 0, "emailed": False}
    assert len(push_service.received) == 1
    path, headers, body = push_service.received[0]
    assert path == "/push/amira"
    assert headers["content-encoding"] == "aes128gcm"
    assert headers["authorization"].startswith("vapid t=")
    assert f"k={vapid['VAPID_PUBLIC_KEY']}" in headers["authorization"]
    assert b"Your move" not in body, "the payload travels encrypted"
    payload = json.loads(http_ece.decrypt(body, private_key=private, auth_secret=auth, version="aes128gcm"))
    assert payload == {"title": "Muster", "body": "Your move in Duel (Command Dice).",
                       "url": "/c/river-valley/matches/1/", "tag": "muster-your_move"}


def test_a_happening_told_twice_is_one_notification(player):
    assert tell(player) is not None
    assert tell(player) is None
    assert player.notifications.count() == 1


def test_a_browser_the_push_service_forgot_is_forgotten(player, vapid, browser_keys):
    gone = PushService(status=410)
    try:
        _, public, auth = browser_keys
        services.push_subscription_save(user=player, endpoint=f"{gone.url}/push/old", p256dh=public, auth=b64(auth))
        notification_deliver(notification_id=tell(player).pk)
    finally:
        gone.close()
    assert not PushSubscription.objects.exists()


def test_nothing_is_pushed_to_a_user_who_turned_push_off_or_without_keys(player, browser_keys, push_service,
                                                                         settings):
    _, public, auth = browser_keys
    services.push_subscription_save(user=player, endpoint=f"{push_service.url}/push/a", p256dh=public, auth=b64(auth))
    settings.VAPID_PRIVATE_KEY = ""
    notification_deliver(notification_id=tell(player, "k:1").pk)
    settings.VAPID_PRIVATE_KEY = "unused"
    services.notification_preference_set(user=player, push=False, email=False)
    notification_deliver(notification_id=tell(player, "k:2").pk)
    assert push_service.received == []


@override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend", SITE_URL="https://muster.example")
def test_an_email_goes_once_to_a_user_who_chose_it(player):
    player.email = "amira@example.org"
    player.save(update_fields=["email"])
    notification = tell(player)
    notification_deliver(notification_id=notification.pk)
    assert mail.outbox == [], "e-mail is off until the user turns it on"
    services.notification_preference_set(user=player, push=False, email=True)
    second = tell(player, "test:2")
    notification_deliver(notification_id=second.pk)
    notification_deliver(notification_id=second.pk)
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["amira@example.org"]
    assert "Your move in Duel" in mail.outbox[0].body
    assert "https://muster.example/c/river-valley/matches/1/" in mail.outbox[0].body
