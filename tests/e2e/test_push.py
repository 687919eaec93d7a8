"""Web Push as far as headless Chromium goes. Verified here: the app is installable (manifest, worker at /sw.js),
the settings page asks the browser for a subscription with the server's VAPID key (Chromium answers with its own
refusal, since it reaches no push service here, and the page says so in a sentence), a subscription handed to the
page's endpoint is kept, and a notification then reaches that endpoint encrypted for the browser's keys, where the
test decrypts it and hands it to the browser's service worker through the DevTools protocol (as Chromium's push
service would), whose `push` handler shows the notification. Not reached here: Chromium's own push service."""

import json

import http_ece
import pytest
from django.core.management import call_command

from campaign.notifications import services
from campaign.notifications.delivery import notification_deliver
from tests.campaign.factories import CampaignFactory, MembershipFactory, UserFactory
from tests.campaign.notifications.test_delivery import PushService, b64
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def vapid(settings, capsys):
    call_command("vapid_keys")
    keys = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = keys["VAPID_PUBLIC_KEY"], keys["VAPID_PRIVATE_KEY"]
    return keys


def test_a_notification_is_pushed_to_a_subscribed_browser(live_server, new_page, vapid):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    amira = UserFactory(username="amira")
    MembershipFactory(campaign=CampaignFactory(slug="border-wars"), user=amira)
    page = new_page()
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    log_in(page, live_server.url, "amira", "pass-word-123")
    manifest = page.request.get(f"{live_server.url}/manifest.webmanifest").json()
    assert (manifest["start_url"], manifest["display"]) == ("/", "standalone")
    page.goto(f"{live_server.url}/notifications/settings/")
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=15_000)
    page.get_by_test_id("push-subscribe").click()
    page.wait_for_function("document.querySelector('[data-testid=push-status]').textContent.length > 0",
                           timeout=15_000)
    said = page.get_by_test_id("push-status").inner_text()
    assert said == "This browser will be pushed to." or said.startswith("The browser could not subscribe ("), said

    service = PushService()
    try:
        private = ec.generate_private_key(ec.SECP256R1())
        public = private.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        auth = b"sixteen byte key"
        subscription = {"endpoint": f"{service.url}/push/amira", "keys": {"p256dh": b64(public), "auth": b64(auth)}}
        answer = page.evaluate("""async (subscription) => {
            const csrf = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
            const response = await fetch("/notifications/push/", {method: "POST", body: JSON.stringify(subscription),
                headers: {"Content-Type": "application/json", "X-CSRFToken": csrf}});
            return [response.status, (await response.json()).detail];
        }""", subscription)
        assert answer == [201, "This browser will be pushed to."]
        told = services.notification_send(user_id=amira.pk, kind="challenge", text="Bastian challenges Amira.",
                                          url="/c/border-wars/matches/", dedupe_key="challenge:e2e")
        assert notification_deliver(notification_id=told.pk)["pushed"] == 1
    finally:
        service.close()
    _, headers, body = service.received[-1]
    assert headers["content-encoding"] == "aes128gcm"
    decrypted = http_ece.decrypt(body, private_key=private, auth_secret=auth, version="aes128gcm")
    payload = json.loads(decrypted)
    assert payload["body"] == "Bastian challenges Amira."
    # The push service's last leg: what reached the local endpoint is handed to the browser's worker, as a push
    # service would, through the DevTools protocol; the worker's `push` handler shows it as a notification.
    devtools = page.context.new_cdp_session(page)
    registrations: list[str] = []
    devtools.on("ServiceWorker.workerRegistrationUpdated",
                lambda event: registrations.extend(r["registrationId"] for r in event["registrations"]
                                                   if r["scopeURL"].startswith(live_server.url)))
    devtools.send("ServiceWorker.enable")
    page.wait_for_timeout(500)
    assert registrations, "the worker's registration is known"
    devtools.send("ServiceWorker.deliverPushMessage", {"origin": live_server.url, "registrationId": registrations[0],
                                                       "data": decrypted.decode()})
    shown = []
    for _ in range(50):
        shown = page.evaluate("""async () => (await (await navigator.serviceWorker.ready).getNotifications())
            .map((n) => [n.title, n.body, n.data.url])""")
        if shown:
            break
        page.wait_for_timeout(200)
    assert shown == [[payload["title"], "Bastian challenges Amira.", "/c/border-wars/matches/"]]
    page.goto(f"{live_server.url}/notifications/")
    assert page.get_by_test_id("unread-count").inner_text() == "1"
    screenshot(page, "notifications-phone")
