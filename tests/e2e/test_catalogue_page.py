"""The unit catalogue on a phone (390 px): a player reads the cards; the GM uploads artwork for a default type,
which becomes the campaign's own version with a thumbnail, and edits a type. Screenshots go to test-artifacts/."""

import io

import pytest
from PIL import Image, ImageDraw

from campaign.demo import DEMO_LOGINS, load_demo
from campaign.models import UnitType
from tests.e2e.conftest import ARTIFACTS, log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def banner_png(path) -> None:
    """A small picture to upload: a shield on a field."""
    image = Image.new("RGB", (480, 480), (122, 46, 31))
    draw = ImageDraw.Draw(image)
    draw.polygon([(240, 60), (400, 130), (370, 330), (240, 430), (110, 330), (80, 130)], fill=(230, 200, 120))
    draw.rectangle((225, 110, 255, 380), fill=(122, 46, 31))
    draw.rectangle((140, 200, 340, 230), fill=(122, 46, 31))
    out = io.BytesIO()
    image.save(out, format="PNG")
    path.write_bytes(out.getvalue())


def test_catalogue_on_a_phone(live_server, new_page, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    campaign, _ = load_demo()
    gm_login, player_login = DEMO_LOGINS[0], DEMO_LOGINS[1]
    upload = tmp_path / "banner.png"
    banner_png(upload)

    gm = new_page(width=390)
    log_in(gm, live_server.url, gm_login.username, gm_login.password)
    gm.goto(f"{live_server.url}/c/{campaign.slug}/")
    gm.get_by_test_id("catalogue-link").click()
    soldier = gm.get_by_test_id("unit-type").filter(has=gm.get_by_role("heading", name="Soldier", exact=True))
    soldier.locator("summary").click()
    soldier.locator("input[type=file]").set_input_files(str(upload))
    soldier.get_by_role("button", name="Upload").click()
    gm.wait_for_load_state("networkidle")
    assert "New artwork for Soldier." in gm.locator(".messages").inner_text()
    own = UnitType.objects.get(campaign=campaign, name="Soldier")
    card = gm.locator(f"#type-{own.pk}")
    assert card.get_by_test_id("artwork").evaluate("img => img.naturalWidth") == 256
    assert card.get_by_test_id("own-version").is_visible()
    assert card.bounding_box()["y"] >= gm.locator(".topbar").bounding_box()["height"]  # not under the top bar
    card.screenshot(path=str(ARTIFACTS / "catalogue-card-artwork.png"))
    assert gm.evaluate("document.documentElement.scrollWidth") <= 390  # nothing overflows the phone's width
    gm.evaluate("window.scrollTo(0, 0)")
    screenshot(gm, "catalogue-gm")

    card.get_by_test_id("edit-unit-type").click()
    gm.fill("textarea[name=effects]", '[{"when": "discard", "do": "add", "amount": 1, "to": "everyone"}]')
    gm.get_by_test_id("save-unit-type").click()
    assert "needs 'to' of own, enemy or either" in gm.get_by_test_id("unit-type-form").inner_text()
    screenshot(gm, "catalogue-edit-refused")
    gm.fill("textarea[name=effects]", '[{"when": "discard", "do": "add", "amount": 2, "to": "either"}]')
    gm.get_by_test_id("save-unit-type").click()
    gm.wait_for_load_state("networkidle")
    assert "Saved Soldier." in gm.locator(".messages").inner_text()
    own.refresh_from_db()
    assert own.effects[0]["amount"] == 2

    player = new_page(width=390)
    log_in(player, live_server.url, player_login.username, player_login.password)
    player.goto(f"{live_server.url}/c/{campaign.slug}/catalogue/")
    assert player.get_by_test_id("add-unit-type").count() == 0
    assert player.get_by_test_id("unit-type").count() == UnitType.objects.filter(campaign=None).count()
    assert player.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(player, "catalogue-player")
