"""The installable app: the worker served from the root, the manifest and its icons, and pages marked with
their user (the worker keeps only those, in that user's cache)."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


def test_the_service_worker_is_served_from_the_root_and_always_revalidated(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript"
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    assert b"addEventListener(\"fetch\"" in b"".join(response.streaming_content)


def test_the_manifest_names_the_app_and_icons_that_exist(client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    body = manifest.json()
    assert (body["name"], body["start_url"], body["display"]) == ("Muster", "/", "standalone")
    for icon in body["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]
    assert {icon["sizes"] for icon in body["icons"]} >= {"192x192", "512x512"}


def test_a_signed_in_users_pages_name_their_user_and_stay_private(client, player):
    assert "Muster-User" not in client.get("/accounts/login/")
    client.force_login(player)
    page = client.get("/")
    assert page["Muster-User"] == str(player.pk)
    assert "private" in page["Cache-Control"]
    assert "Muster-User" not in client.get("/manifest.webmanifest")
