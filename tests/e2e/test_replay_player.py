"""A player replays the demo's finished match on a phone: the page loaded once plays, slides to the end and jumps
to a step in the browser, with no request to the server while stepping."""

from pathlib import Path

import pytest

from campaign.demo import DEMO_LOGINS, load_demo
from cardgames.demo import load_demo_matches
from tests.e2e.conftest import log_in, screenshot

AXE = Path(__file__).resolve().parents[2] / "static/vendor/axe-core/axe.min.js"
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_plays_slides_and_jumps_through_a_replay_without_asking_the_server(live_server, new_page,
                                                                                     browser):
    campaign, _ = load_demo()
    practice = next(m for m in load_demo_matches(campaign=campaign) if m.title == "Practice against the AI")
    practice.refresh_from_db()
    total = practice.version
    amira = next(login for login in DEMO_LOGINS if login.username == "amira")
    page = new_page()
    log_in(page, live_server.url, amira.username, amira.password)
    page.goto(f"{live_server.url}/c/{campaign.slug}/matches/{practice.pk}/replay/")
    status, stage = page.get_by_test_id("replay-status"), page.locator("[data-replay-stage]")
    assert status.inner_text() == f"Step 0 of {total}"
    assert status.get_attribute("aria-live") == "polite"
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run('[data-replay]')).violations"
                          ".map(v => `${v.id}: ${v.help} ${v.nodes.map(n => n.html).join(' | ')}`)")
    assert found == [], found
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))

    page.get_by_test_id("replay-speed").select_option("4")
    page.get_by_test_id("replay-play").click()
    page.wait_for_function("document.querySelector('[data-replay-stage]').dataset.step !== '0'", timeout=5_000)
    page.get_by_test_id("replay-play").click()  # pause
    assert page.get_by_test_id("replay-play").inner_text() == "Play"

    page.get_by_test_id("replay-slider").fill(str(total))
    assert status.inner_text() == f"Step {total} of {total}"
    assert stage.get_by_test_id("phase").inner_text() == "The battle is over"
    screenshot(page, "replay-last-step")

    page.get_by_test_id("replay-jump").fill("5")
    page.get_by_test_id("replay-jump").press("Enter")
    assert status.inner_text() == f"Step 5 of {total}"
    assert stage.get_attribute("data-step") == "5"
    page.keyboard.press("Escape")
    page.locator("h1").click()
    page.keyboard.press("ArrowRight")
    assert status.inner_text() == f"Step 6 of {total}"
    assert requests == [], f"stepping asked the server: {requests}"

    for control in ("replay-play", "replay-speed", "replay-slider", "replay-jump"):
        box = page.get_by_test_id(control).bounding_box()
        assert box is not None, control
        assert box["height"] >= 24, control
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert stage.get_by_test_id("replay-nav").count() == 0  # the controls replace the links of each step
    page.goto(f"{page.url}?step=7")  # the no-JavaScript address of a step opens at that step
    assert page.get_by_test_id("replay-status").inner_text() == f"Step 7 of {total}"

    plain = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    old_phone = plain.new_page()
    log_in(old_phone, live_server.url, amira.username, amira.password)
    old_phone.goto(f"{live_server.url}/c/{campaign.slug}/matches/{practice.pk}/replay/?step=3")
    assert not old_phone.get_by_test_id("replay-play").is_visible()  # nothing that needs JavaScript shows
    old_phone.get_by_test_id("forward").click()  # the links of each step load the next one
    assert old_phone.get_by_test_id("step").inner_text() == f"Step 4 of {total}"
    plain.close()
