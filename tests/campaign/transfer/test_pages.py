"""The GM's pages: download the export, import one (the server's staff), start a new season; players may not."""

from __future__ import annotations

import html
import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from campaign.models import AuditEntry, Campaign, Membership
from tests.campaign.factories import UserFactory
from tests.campaign.transfer.emptying import empty_instance

pytestmark = pytest.mark.django_db


def test_the_gm_downloads_the_export_and_a_player_may_not(client, campaign, gm, player):
    client.force_login(gm)
    assert 'data-testid="export-button"' in client.get("/c/river-valley/").content.decode()
    response = client.post("/c/river-valley/export/")
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"].startswith('attachment; filename="river-valley-')
    assert "muster-export.json" in zipfile.ZipFile(io.BytesIO(response.getvalue())).namelist()
    assert AuditEntry.objects.filter(campaign=campaign, action="campaign.export", actor=gm).count() == 1
    for _ in range(2):  # a phone's retry with the form's key gets the zip again, not an empty remembered answer
        again = client.post("/c/river-valley/export/", {"idempotency_key": "export-retry-01"})
        assert "muster-export.json" in zipfile.ZipFile(io.BytesIO(again.getvalue())).namelist()
    client.force_login(player)
    assert client.post("/c/river-valley/export/").status_code == 403
    assert client.get("/c/river-valley/export/").status_code == 405


def test_staff_import_an_export_and_become_its_gm(client, campaign, gm, media_root):
    client.force_login(gm)
    exported = client.post("/c/river-valley/export/").getvalue()
    empty_instance()
    admin = UserFactory(username="admin", is_staff=True)
    client.force_login(admin)
    assert 'data-testid="campaign-import-link"' in client.get("/").content.decode()
    refused = client.post("/campaigns/import/", {"export": SimpleUploadedFile("x.zip", b"junk")}, follow=True)
    assert "This file is not a readable zip" in refused.content.decode()
    response = client.post("/campaigns/import/", {"export": SimpleUploadedFile("river.zip", exported)})
    assert response.status_code == 302
    assert response["Location"] == "/c/river-valley/"
    imported = Campaign.objects.get(slug="river-valley")
    assert Membership.objects.get(campaign=imported, user=admin).role == "gm"
    assert Membership.objects.get(campaign=imported, user__username="gm1").role == "gm"


def test_only_staff_may_import(client, gm):
    client.force_login(gm)
    page = client.get("/campaigns/import/")
    assert page.status_code == 403
    assert "Only the server's staff may import a campaign" in html.unescape(page.content.decode())


def test_the_gm_starts_a_new_season_from_the_page(client, campaign, gm, player):
    client.force_login(player)
    refused = client.get("/c/river-valley/new-season/")
    assert refused.status_code == 403
    assert "may do that (start new season)" in refused.content.decode()
    client.force_login(gm)
    form = client.get("/c/river-valley/new-season/").content.decode()
    assert 'value="River Valley, next season"' in form
    response = client.post("/c/river-valley/new-season/", {"name": "River Valley II", "slug": "river-valley-ii",
                                                          "carry_purses": "on"})
    assert response["Location"] == "/c/river-valley-ii/"
    again = client.post("/c/river-valley/new-season/", {"name": "River Valley II", "slug": "river-valley-ii"})
    assert again["Location"] == "/c/river-valley-ii/"
    assert Campaign.objects.filter(slug__startswith="river-valley-ii").count() == 1
    taken = client.post("/c/river-valley/new-season/", {"name": "Clash", "slug": "river-valley"}, follow=True)
    assert "/c/river-valley/ is taken by another campaign" in taken.content.decode()
