"""A real campaign from nothing, on phones, with no Django admin and no shell: a new user signs up and creates a
campaign, loads the unit catalogue, invites two players who join from their own browsers, gives each a commander
and lunari, sets up an Event with a map and a recruit list; the players recruit and train; the GM runs an hour;
the players fight a challenge; the GM closes the Day and the upkeep is in the ledger. Screenshots are kept."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.utils import timezone
from PIL import Image

from campaign.models import Commander, Day, Event, Membership, Unit
from cardgames.models import Match
from tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = 390
PASSWORD = "lantern-harbour-77"


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE, page.url


def _said(page) -> str:
    return page.locator(".messages").inner_text()


def _sign_up(page, username: str) -> None:
    page.fill("[data-testid=sign-up-form] input[name=username]", username)
    page.fill("[data-testid=sign-up-form] input[name=password]", PASSWORD)
    page.click("[data-testid=sign-up-form] button[type=submit]")
    page.wait_for_load_state("networkidle")


def _submit(page, form) -> None:
    form.locator("button[type=submit], button:not([type])").first.click()
    page.wait_for_load_state("networkidle")


def _map_picture(tmp_path) -> str:
    path = tmp_path / "salt-road.png"
    buffer = io.BytesIO()
    Image.new("RGB", (480, 360), (170, 190, 120)).save(buffer, format="PNG")
    path.write_bytes(buffer.getvalue())
    return str(path)


def test_a_campaign_from_nothing_to_a_closed_day(live_server, new_page, tmp_path):
    base = live_server.url
    gm = new_page(width=PHONE)
    gm.goto(f"{base}/accounts/login/")
    gm.get_by_test_id("sign-up-link").click()
    _sign_up(gm, "gwen")
    gm.get_by_test_id("campaign-new-link").click()
    gm.fill("input[name=name]", "The Salt Road")
    gm.click("button[type=submit].primary")
    gm.wait_for_load_state("networkidle")
    slug = gm.url.rstrip("/").rsplit("/", 1)[-1]
    home = f"{base}/c/{slug}"
    _fits(gm)
    screenshot(gm, "zero-1-campaign")

    gm.goto(f"{home}/catalogue/")
    gm.get_by_test_id("load-defaults").click()
    gm.wait_for_load_state("networkidle")
    assert "The default catalogue is loaded" in _said(gm)

    gm.goto(f"{home}/members/")
    _submit(gm, gm.get_by_test_id("invitation-form"))
    link = gm.get_by_test_id("invitation-link").input_value()
    players = {}
    for name in ("rowan", "sable"):
        page = new_page(width=PHONE)
        page.goto(link)
        _sign_up(page, name)
        assert page.get_by_test_id("my-role").inner_text() == "Player"
        players[name] = page
    assert Membership.objects.filter(campaign__slug=slug, role="player").count() == 2

    for name, title, power in (("rowan", "Rowan the Red", "Battlemage"), ("sable", "Sable of the Dunes", "Cleric")):
        gm.goto(f"{home}/commanders/")
        form = gm.get_by_test_id("commander-new")
        form.locator("input[name=name]").fill(title)
        form.locator("input[name=level]").fill("2")
        form.locator("select[name=power]").select_option(power)
        form.locator("select[name=player]").select_option(label=name)
        _submit(gm, form)
        assert f"{title} joins The Salt Road" in _said(gm)
    _fits(gm)
    screenshot(gm, "zero-2-commander")

    gm.goto(f"{home}/economy/")
    for title in ("Rowan the Red", "Sable of the Dunes"):
        gm.select_option("select[name=grant-commander]", label=title)
        gm.fill("input[name=grant-amount]", "200")
        gm.fill("input[name=grant-reason]", "Purse at the start of the campaign")
        _submit(gm, gm.locator("#grant form"))

    gm.goto(f"{home}/events/")
    form = gm.get_by_test_id("event-form")
    now = timezone.localtime()
    form.locator("input[name=name]").fill("Spring Muster")
    form.locator("input[name=starts_at]").fill((now - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"))
    form.locator("input[name=ends_at]").fill((now + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"))
    _submit(gm, form)
    event = Event.objects.get(campaign__slug=slug)

    gm.goto(f"{home}/map/edit/")
    gm.set_input_files("input[name=picture]", _map_picture(tmp_path))
    _submit(gm, gm.locator("form", has=gm.locator("input[name=picture]")))
    assert "The map picture is uploaded." in _said(gm)
    _fits(gm)
    screenshot(gm, "zero-3-map")

    gm.goto(f"{home}/recruiting/?event={event.pk}")
    form = gm.get_by_test_id("offer-add")
    form.locator("select[name=unit_type]").select_option(label="Spearmen (Strength 2)")
    _submit(gm, form)
    assert "Spearmen is on the list, at 30 lunari." in _said(gm)
    _fits(gm)
    screenshot(gm, "zero-4-recruit-list")

    gm.goto(f"{home}/clock/")
    gm.get_by_role("button", name="Start").click()
    gm.wait_for_load_state("networkidle")
    gm.get_by_test_id("advance-hour").click()
    gm.wait_for_load_state("networkidle")
    assert list(event.hour_logs.values_list("hour", flat=True)) == [1]
    _fits(gm)
    screenshot(gm, "zero-5-clock")

    for name, page in players.items():
        commander = Commander.objects.get(player__username=name)
        page.goto(f"{home}/commanders/{commander.pk}/")
        page.on("dialog", lambda dialog: dialog.accept())  # spending asks first, naming the price
        page.get_by_test_id("offer").filter(has_text="Spearmen").get_by_role("button").click()
        page.get_by_test_id("result").filter(has_text="Spearmen joined").wait_for()
        page.get_by_test_id("unit").filter(has_text="Spearmen").get_by_test_id("train").click()
        page.get_by_test_id("result").filter(has_text="trained to Strength 3").wait_for()
        _fits(page)
    screenshot(players["rowan"], "zero-6-trained")
    assert Unit.objects.filter(strength=3, trainings=1).count() == 2

    rowan, sable = players["rowan"], players["sable"]
    rowan.goto(f"{home}/matches/")
    form = rowan.get_by_test_id("challenge-form")
    form.get_by_label("Challenge").select_option(label="Sable of the Dunes")
    form.get_by_label("Game").select_option("command-dice")
    form.get_by_label("Stake (lunari)").fill("10")
    form.get_by_role("button", name="Send the challenge").click()
    rowan.wait_for_load_state("networkidle")
    sable.goto(f"{home}/matches/")
    sable.get_by_test_id("challenge-received").get_by_role("button", name="Accept").click()
    sable.wait_for_url("**/matches/*/")
    assert "held in escrow" in sable.get_by_test_id("stakes").inner_text()
    _fits(sable)
    screenshot(sable, "zero-7-challenge-table")
    assert Match.objects.filter(campaign__slug=slug, game="command-dice").count() == 1

    gm.goto(f"{home}/clock/")
    gm.get_by_test_id("review-close-day").click()
    _fits(gm)
    gm.get_by_test_id("close-day").click()
    gm.wait_for_load_state("networkidle")
    assert Day.objects.get(event=event, number=1).status == Day.Status.CLOSED
    screenshot(gm, "zero-8-day-closed")
    rowan.goto(f"{home}/commanders/{Commander.objects.get(player__username='rowan').pk}/")
    history = rowan.get_by_test_id("ledger").inner_text()
    assert "Purse at the start of the campaign" in history
    assert "Training" in history
