"""The printed map (campaign.map.map_print): what the sheet draws for whom (never an army hidden from the viewer),
the PNG and PDF files, the page's print form and the export's page and API answers."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime

import pytest
from PIL import Image
from rest_framework.test import APIClient

from campaign.map import armies, hour, orders
from campaign.map.map_at_hour import map_at_hour
from campaign.map.map_print import DPI, PAGE, map_sheet, sheet_file
from campaign.models import Membership, MoveOrder
from tests.campaign.map.conftest import HIDDEN

pytestmark = pytest.mark.django_db

DRAWN_AT = datetime(2025, 5, 1, 14, 5, tzinfo=UTC)
PNG = "/c/river-valley/map/export.png"
PDF = "/c/river-valley/map/export.pdf"


def _sheet(campaign, user, scene, at_hour=None):
    membership = Membership.objects.get(campaign=campaign, user=user)
    return map_sheet(scene=map_at_hour(tactical_map=scene["map"], membership=membership, hour=at_hour),
                     membership=membership, drawn_at=DRAWN_AT)


def _texts(sheet) -> list[str]:
    return [text.text for text in sheet.texts]


def _marked(sheet, point) -> bool:
    """Whether any mark of the sheet lies on this point of the page (within a marker's reach)."""
    return any(abs(p[0] - point[0]) < 25 and abs(p[1] - point[1]) < 25 for shape in sheet.shapes for p in shape.points)


def _page_point(sheet, scene, x, y):
    left, top, right, _ = sheet.box
    scale = (right - left) / scene["map"].width_inches
    return (left + x * scale, top + y * scale)


def test_a_players_sheet_draws_their_armies_and_reveals_and_never_a_hidden_army(campaign, scene, player, gm):
    orders.army_order_move(army=scene["hidden"], kind=MoveOrder.Kind.POINT, x=40, y=30, actor=gm)
    for at_hour in (None, 3):
        sheet = _sheet(campaign, player, scene, at_hour)
        texts = " | ".join(_texts(sheet))
        assert "Ford Guard" in texts
        assert "Banner Host (seen hour 0)" in texts
        assert HIDDEN not in texts
        assert "Emir" in texts  # the revealed army's commander, in the legend
        for x, y in ((30, 30), (40, 30), (34, 30)):  # where it stands, where it marches, and on its way
            assert not _marked(sheet, _page_point(sheet, scene, x, y))
    gms = _sheet(campaign, gm, scene, 3)
    assert HIDDEN in " | ".join(_texts(gms))
    assert _marked(gms, _page_point(gms, scene, 39, 30))


def test_a_hidden_army_changes_nothing_on_a_players_page(campaign, scene, player, gm):
    """Pixel for pixel: the player's page is the same wherever the hidden army stands, or marches."""
    membership = Membership.objects.get(campaign=campaign, user=player)

    def page() -> bytes:
        scene_now = map_at_hour(tactical_map=scene["map"], membership=membership)
        return sheet_file(map_sheet(scene=scene_now, membership=membership, drawn_at=DRAWN_AT), format="PNG",
                          dpi=(DPI, DPI))

    first = page()
    armies.army_place(army=scene["hidden"], tactical_map=scene["map"], x=6, y=6, actor=gm)
    orders.army_order_move(army=scene["hidden"], kind=MoveOrder.Kind.POINT, x=20, y=20, actor=gm)
    assert page() == first
    armies.army_place(army=scene["mine"], tactical_map=scene["map"], x=7, y=9, actor=gm)
    assert page() != first  # and the page does show what the player sees move


def test_the_title_says_whose_map_which_hour_and_day_and_for_whom(campaign, scene, player, event):
    orders.army_order_move(army=scene["mine"], kind=MoveOrder.Kind.POINT, x=5, y=20, actor=player)
    hour.event_hour_process(event=event, hour=1)
    texts = _texts(_sheet(campaign, player, scene, 4))
    assert "River Valley · Tactical map" in texts
    assert "Spring Muster · Hour 4 · Day 1 · 3 hours ahead of hour 1" in texts
    assert "Drawn for player1 (player: own armies and what was revealed) · 01 May 2025, 14:05" in texts
    assert "hour 5" in texts  # where Ford Guard's route ends: the hour it arrives
    assert "Spring Muster · Hour 0 · Day 1 · as recorded" in _texts(_sheet(campaign, player, scene, 0))


def test_battles_due_are_marked(campaign, scene, player, gm, event):
    armies.army_place(army=scene["hidden"], tactical_map=scene["map"], x=5.5, y=5, actor=gm)
    hour.event_hour_process(event=event, hour=1)
    texts = _texts(_sheet(campaign, player, scene))
    assert "Battle due, hour 1" in texts
    assert "2 armies · 1 Battle due" in texts
    assert HIDDEN not in " | ".join(texts)


def test_thousands_of_armies_close_together_are_drawn_as_groups_with_their_count(campaign, scene, gm):
    from tests.campaign.map_fixtures import make_army

    for i in range(6):
        make_army(scene["map"], commander=scene["mine"].commander, at=(5 + i * 0.1, 5), units=1, name=f"Band {i}")
    texts = _texts(_sheet(campaign, gm, scene))
    assert "7 armies" in texts
    assert "7" in texts
    assert not {f"Band {i}" for i in range(6)} & set(texts)


def _pdf_pages(pdf: bytes) -> list[tuple[float, float]]:
    return [(float(w), float(h)) for w, h in re.findall(rb"/MediaBox \[ ?0 0 ([\d.]+) ([\d.]+) ?\]", pdf)]


def test_a_member_downloads_the_png_and_the_a4_pdf(client, scene, player):
    client.force_login(player)
    png = client.get(PNG, {"hour": "2"})
    assert png.status_code == 200
    assert png["Content-Type"] == "image/png"
    assert png["Content-Disposition"] == 'attachment; filename="river-valley-map-hour-2.png"'
    image = Image.open(io.BytesIO(png.content))
    image.load()
    assert (image.format, image.size) == ("PNG", PAGE)
    assert image.info["dpi"] == pytest.approx((DPI, DPI), abs=0.05)  # kept in dots per metre
    pdf = client.get(PDF)
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    [(width, height)] = _pdf_pages(pdf.content)
    assert (round(width * 25.4 / 72), round(height * 25.4 / 72)) == (297, 210)  # A4 landscape, in millimetres
    assert Image.open(io.BytesIO(pdf.content.split(b"stream\n", 1)[1])).size == PAGE  # the page's picture


def test_the_export_is_for_members_only(client, scene, outsider, campaign):
    assert client.get(PNG).status_code == 302  # to the login page
    client.force_login(outsider)
    assert client.get(PNG).status_code == 404
    assert client.get(PDF).status_code == 404


def test_an_hour_that_cannot_be_drawn_answers_its_sentence_and_the_form(client, scene, player):
    client.force_login(player)
    for asked, sentence in (("99", "Hour 99 is too far ahead"), ("soon", "Give the hour as a whole number")):
        answer = client.get(PDF, {"hour": asked})
        assert answer.status_code == 400
        assert answer["Content-Type"].startswith("text/html")
        text = answer.content.decode()
        assert sentence in text
        assert f'name="hour" inputmode="numeric" min="0" max="48" value="{asked}"' in text


def test_the_maps_picture_is_the_ground_of_the_page(campaign, scene, player, media_root):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from campaign.map import picture
    from campaign.map import services as map_services

    plain = _sheet(campaign, player, scene)
    assert plain.picture is None
    map_services.tactical_map_set_picture(tactical_map=scene["map"], actor=None, upload=SimpleUploadedFile(
        "valley.png", picture.valley_picture(), content_type="image/png"))
    sheet = _sheet(campaign, player, scene)
    left, top, right, bottom = sheet.box
    assert sheet.picture is not None
    assert sheet.picture.size == (right - left, bottom - top)
    x, y = _page_point(sheet, scene, 22.5, 30)
    river = sheet.picture.getpixel((round(x - left), round(y - top)))
    assert river[2] > river[0] + 40  # blue water, lightened a little


def test_a_campaign_without_a_map_has_none_to_export(client, player, scene):
    client.force_login(player)
    scene["map"].delete()
    assert client.get(PNG).status_code == 404


def test_the_map_page_offers_the_print_form_with_the_hours_orders_arrive(client, scene, player):
    orders.army_order_move(army=scene["mine"], kind=MoveOrder.Kind.POINT, x=5, y=20, actor=player)
    client.force_login(player)
    page = client.get("/c/river-valley/map/").content.decode()
    assert 'data-testid="map-export"' in page
    assert f'formaction="{PNG}"' in page
    assert f'<a href="{PDF}?hour=5">hour 5</a>' in page


def test_the_api_gives_the_same_files_and_refuses_alike(scene, player, outsider):
    api = APIClient()
    api.force_authenticate(player)
    url = f"/api/maps/{scene['map'].pk}/export/"
    pdf = api.get(url, {"hour": 1, "file": "pdf"})
    assert (pdf.status_code, pdf["Content-Type"]) == (200, "application/pdf")
    png = api.get(url)
    assert Image.open(io.BytesIO(png.content)).size == PAGE
    assert api.get(url, {"file": "gif"}).json() == {"detail": "Ask for file=png or file=pdf."}
    refused = api.get(url, {"hour": 999})
    assert refused.status_code == 400
    assert refused.json()["detail"].startswith("Hour 999 is too far ahead")
    api.force_authenticate(outsider)
    assert api.get(url).status_code == 404
