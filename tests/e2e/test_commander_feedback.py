"""Feedback where the eye is (#17 item 1): on the commander page, after Recruit, Train and Ask the result (the
message, and the new purse when lunari moved) appears right after the control that was used, inside the
viewport and below the sticky top bar, with the focus on it, at phone and desktop widths; spending asks first,
naming the price."""

import pytest

from campaign.demo import DEMO_LOGINS, load_demo
from campaign.models import Commander
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _in_view_below_the_bar(page, locator) -> None:
    box = locator.bounding_box()
    bar = page.locator("header.topbar").bounding_box()
    height = page.viewport_size["height"]
    assert box is not None
    assert bar["height"] <= box["y"], (box, bar)
    assert box["y"] + box["height"] <= height, (box, height)


def _act(page, click, *, expect_confirm: str | None = None):
    """Click, accept the price question (checking it names the price), and return the result shown."""
    asked: list[str] = []

    def answer(dialog):
        asked.append(dialog.message)
        dialog.accept()

    result = page.get_by_test_id("result")
    earlier = result.element_handle() if result.count() else None
    page.once("dialog", answer)
    click()
    if earlier is not None:  # the previous action's result goes with the body it was shown in
        page.wait_for_function("element => !element.isConnected", arg=earlier, timeout=15_000)
    result.wait_for(timeout=15_000)
    if expect_confirm is not None:
        assert len(asked) == 1
        assert expect_confirm in asked[0]
    assert page.evaluate("document.activeElement.dataset.testid") == "result"
    _in_view_below_the_bar(page, result)
    return result


@pytest.mark.parametrize("width", [390, 1280])
def test_recruit_train_and_ask_show_their_result_beside_the_control(live_server, new_page, width):
    campaign, _ = load_demo()
    amira_login = DEMO_LOGINS[1]
    amira = Commander.objects.get(campaign=campaign, player__username=amira_login.username)
    page = new_page(width=width)
    log_in(page, live_server.url, amira_login.username, amira_login.password)
    page.goto(f"{live_server.url}/c/{campaign.slug}/commanders/{amira.pk}/")
    before = int(page.get_by_test_id("purse-balance").inner_text())

    cavalry = page.get_by_test_id("offer").filter(has_text="Light Cavalry").get_by_role("button")
    result = _act(page, cavalry.click, expect_confirm="Recruit Light Cavalry for 30 lunari?")
    assert "Light Cavalry joined" in result.inner_text()
    assert f"Purse {before - 30} lunari" in " ".join(result.inner_text().split())
    assert page.get_by_test_id("purse-balance").inner_text() == str(before - 30)
    assert page.get_by_test_id("unit").filter(has_text="Light Cavalry").count() == 1
    screenshot(page, f"feedback-recruited-{width}")

    archers = page.get_by_test_id("unit").filter(has_text="Archers").first
    result = _act(page, archers.get_by_test_id("train").click, expect_confirm="for 30 lunari")
    assert "Archers trained to Strength 3" in result.inner_text()
    screenshot(page, f"feedback-trained-{width}")

    page.locator("#funding select[name=funder]").select_option(label="Bastian of the Marches")
    page.locator("#funding input[name=amount]").fill("20")
    page.locator("#funding input[name=reason]").fill("Fodder for the cavalry")
    result = _act(page, page.locator("#funding").get_by_role("button", name="Ask").click)
    assert "Asked Bastian of the Marches for 20 lunari." in result.inner_text()
    assert "Purse" not in result.inner_text()  # asking moves no lunari
    screenshot(page, f"feedback-asked-{width}")
