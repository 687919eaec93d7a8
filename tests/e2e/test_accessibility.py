"""WCAG 2.2 AA on every page (#17 item 6): axe-core (vendored) runs on every page of the demo campaign, signed
out, as the GM and as a player, at phone (390 px) and desktop (1280 px) widths, in light and dark colour
schemes, and finds nothing. The pages come from the URLconf, so a page added later is checked without
editing this test: every route is visited, and one that is not a page (an action answering GET with 405, a
file, an htmx fragment, a redirect) is told apart by its answer. A route whose parameters this test cannot
fill fails, naming it. Screenshots of each page land in var/screenshots/."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from battles.demo import load_demo_battles
from campaign.campaigns.services import invitation_create
from campaign.demo import DEMO_LOGINS, load_demo
from cardgames.demo import load_demo_matches
from tests.e2e.conftest import log_in
from tests.page_routes import parameter_values, routes, urls

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "static" / "vendor" / "axe-core" / "axe.min.js"
SCREENSHOTS = ROOT / "var" / "screenshots"
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
WIDTHS = (390, 1280)
SCHEMES = ("light", "dark")
# Routes a GET cannot show without a particular POST first, each with the reason.
SKIPPED: dict[str, str] = {}


def _what_it_is(page, url: str) -> str:
    """'page', or why the answer is not one: an action, a file, a fragment, a redirect, refused."""
    answer = page.request.get(url, max_redirects=0)
    kind = answer.headers.get("content-type", "")
    if answer.status == 405:
        return "an action (GET answers 405)"
    if answer.status in (301, 302, 303):
        return f"a redirect to {answer.headers.get('location')}"
    if answer.status in (403, 404):
        return f"refused ({answer.status})"
    assert answer.status == 200, f"GET {url} answered {answer.status}"
    if not kind.startswith("text/html"):
        return f"a file ({kind})"
    if "<main" not in answer.text():
        return "an htmx fragment of a page"
    return "page"


def _axe_violations(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    return page.evaluate("""async (tags) => {
        const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
        return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' | ' + n.failureSummary.split('\\n')[1])}));
    }""", WCAG_22_AA)


def _check_pages(browser, base_url: str, who: str, password: str | None, values, kinds: dict[str, set[str]]
                 ) -> list[str]:
    """Every route for one person at every width and colour scheme: the violations in words; what each route
    turned out to be is added to `kinds`."""
    found = []
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 844})
        page = context.new_page()
        if password is not None:
            log_in(page, base_url, who, password)
        for route, name in routes():
            if name in SKIPPED:
                continue
            for path in urls(route, values):
                kind = _what_it_is(page, base_url + path)
                kinds.setdefault(name, set()).add(kind)
                if kind != "page":
                    continue
                page.goto(base_url + path)
                page.wait_for_load_state("networkidle")
                for scheme in SCHEMES:
                    page.emulate_media(color_scheme=scheme)
                    shot = SCREENSHOTS / f"{who}-{name}-{path.strip('/').replace('/', '_')}-{width}-{scheme}.png"
                    page.screenshot(path=str(shot))
                    for violation in _axe_violations(page):
                        found.append(f"{path} ({name}) as {who}, {width} px, {scheme}: {violation['id']} "
                                     f"[{violation['impact']}] {violation['help']}: {violation['nodes']}")
        context.close()
    return found


def test_every_page_passes_axe_for_everyone_at_every_width_and_scheme(live_server, browser):
    from django.contrib.auth.models import User

    campaign, _ = load_demo()
    load_demo_matches(campaign=campaign)
    load_demo_battles(campaign=campaign)
    # The demo has no invitation link: one makes the join and members pages show theirs.
    invitation_create(campaign=campaign, actor=User.objects.get(username="gm"),
                      expires_at=timezone.now() + timedelta(days=7))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    violations: list[str] = []
    kinds: dict[str, set[str]] = {}
    for who, password in [(None, None), *((login.username, login.password) for login in DEMO_LOGINS[:2])]:
        user = User.objects.get(username=who) if who else None
        violations += _check_pages(browser, live_server.url, who or "anonymous", password,
                                   parameter_values(campaign, user), kinds)
    never_shown = {name: sorted(seen) for name, seen in kinds.items() if all(k.startswith("refused") for k in seen)}
    assert never_shown == {}, "routes no one could open (give them demo values or a SKIPPED reason)"
    assert violations == [], f"{len(violations)} axe violations:\n" + "\n".join(violations)
    pages = {name for name, seen in kinds.items() if "page" in seen}
    assert {"login", "home", "campaign-detail", "commander-detail", "match-play", "battle-detail", "glossary"} <= pages
