"""Printable unit cards: an A4 PDF, nine cards to a page, for the owning player or a GM only."""

import io
import re

import pytest
from PIL import Image

from campaign.catalogue.unit_cards import MARGIN, PADDING, unit_card_pages, unit_cards_pdf
from tests.campaign.factories import CommanderFactory, UnitFactory, UnitTypeFactory

pytestmark = pytest.mark.django_db

PAGE = re.compile(rb"/Type\s*/Page(?!s)")


def pages(pdf: bytes) -> int:
    return len(PAGE.findall(pdf))


@pytest.mark.parametrize(("units", "expected"), [(0, 1), (1, 1), (9, 1), (10, 2), (19, 3)])
def test_one_page_per_nine_cards(mine, units, expected):
    unit_type = UnitTypeFactory(name="Spearmen", traits=["Reach"], text="Reach: strikes first in a Skirmish.")
    cards = [UnitFactory(commander=mine, unit_type=unit_type) for _ in range(units)]
    pdf = unit_cards_pdf(commander=mine, units=cards)
    assert pdf.startswith(b"%PDF")
    assert pages(pdf) == expected


def test_cards_draw_the_artwork_thumbnail_and_survive_missing_art_and_long_text(mine, tmp_path, settings):
    from django.core.files.base import ContentFile

    settings.MEDIA_ROOT = tmp_path
    buffer = io.BytesIO()
    Image.new("RGB", (120, 80), (200, 30, 30)).save(buffer, format="PNG")
    banner = UnitTypeFactory(name="War Banner", strength=None, role="Equipment", traits=[],
                             text="A very long special text that has to wrap over several lines. " * 12)
    banner.artwork_thumbnail.save("banner.png", ContentFile(buffer.getvalue()), save=True)
    gone = UnitTypeFactory(name="Lost Art")
    gone.artwork_thumbnail.name = "units/default/missing.png"
    named = UnitFactory(commander=mine, unit_type=UnitTypeFactory(name="Spearmen"), name="Wardens of the Ford")
    units = [UnitFactory(commander=mine, unit_type=banner), named, UnitFactory(commander=mine, unit_type=gone)]
    page = unit_card_pages(commander=mine, units=units)[0]
    art_top = MARGIN + PADDING + 64 + 8 + 40  # below the name and the Strength badge
    red = [page.getpixel((x, y)) for x in range(MARGIN, MARGIN + 370, 5) for y in range(art_top, art_top + 60, 5)]
    assert (200, 30, 30) in red
    assert pages(unit_cards_pdf(commander=mine, units=units)) == 1


def test_download_for_the_owner_and_a_gm_and_404_for_others(client, campaign, player, gm, mine):
    for _ in range(10):
        UnitFactory(commander=mine)
    cards = f"/c/{campaign.slug}/commanders/{mine.pk}/cards.pdf"
    client.force_login(player)
    response = client.get(cards)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert "attachment" in response["Content-Disposition"]
    assert pages(response.content) == 2
    client.force_login(gm)
    assert client.get(cards).status_code == 200
    other = CommanderFactory(campaign=campaign, player=gm, name="The GM's own")
    client.force_login(player)
    assert client.get(f"/c/{campaign.slug}/commanders/{other.pk}/cards.pdf").status_code == 404
