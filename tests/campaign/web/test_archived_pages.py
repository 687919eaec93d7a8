"""An archived campaign is read only on every page: each page a game master or a player opens (every route of
the URLconf under /c/<slug>/, filled from the demo campaign, with its matches and Battles) says so once, and
holds no control whose write would be refused; only what an archived campaign still allows stays (unarchive,
export, a new season from it), with what writes nothing of the campaign (logging out, the odds of a Skirmish,
one's own chronicle feed address)."""

from __future__ import annotations

from datetime import timedelta
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.urls import Resolver404, resolve
from django.utils import timezone

from battles.demo import load_demo_battles
from campaign.campaigns.services import campaign_set_archived, invitation_create
from campaign.demo import DEMO_LOGINS, load_demo
from cardgames.demo import load_demo_matches
from tests.page_routes import parameter_values, routes, urls

pytestmark = pytest.mark.django_db

STILL_ALLOWED = {"campaign-archive", "campaign-export", "campaign-new-season", "logout", "battle-skirmish-odds",
                 "chronicle-feed-link"}
BANNER = 'data-testid="archived-banner"'


class _Writes(HTMLParser):
    """The targets of what a page would post: a form's method="post" (its action, or the page itself), an hx-post
    on any element."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.page, self.targets = page, []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form" and (found.get("method") or "").lower() == "post":
            self.targets.append(found.get("action") or self.page)
        if found.get("hx-post") is not None:
            self.targets.append(found["hx-post"] or self.page)


def _url_name(target: str) -> str:
    try:
        return resolve(urlsplit(target).path).url_name or target
    except Resolver404:
        return target


@pytest.fixture
def archived_demo():
    campaign, _ = load_demo()
    load_demo_matches(campaign=campaign)
    load_demo_battles(campaign=campaign)
    gm = User.objects.get(username="gm")
    invitation_create(campaign=campaign, actor=gm, expires_at=timezone.now() + timedelta(days=7))
    campaign_set_archived(campaign=campaign, archived=True, actor=gm)
    campaign.refresh_from_db()
    return campaign


@pytest.mark.parametrize("login", DEMO_LOGINS[:2], ids=lambda login: login.role)
def test_every_page_of_an_archived_campaign_is_read_only(client, archived_demo, login):
    user = User.objects.get(username=login.username)
    client.force_login(user)
    values = parameter_values(archived_demo, user)
    refused_controls, unsaid, pages = [], [], []
    for route, name in routes():
        if not route.startswith("c/<slug:slug>/"):
            continue
        for path in urls(route, values):
            answer = client.get(path)
            if answer.status_code != 200 or not answer["Content-Type"].startswith("text/html"):
                continue  # an action (405), a file, a redirect, a page this person may not open
            html = answer.content.decode()
            if "<main" in html:
                pages.append(name)
                unsaid += [path] if html.count(BANNER) != 1 else []
            writes = _Writes(path)
            writes.feed(html)
            refused_controls += [f"{path} ({name}) posts to {_url_name(target)}" for target in writes.targets
                                 if _url_name(target) not in STILL_ALLOWED]
    assert refused_controls == [], "controls an archived campaign refuses:\n" + "\n".join(refused_controls)
    assert unsaid == [], "pages that do not say once that the campaign is read only"
    assert {"campaign-detail", "commander-detail", "map", "match-list", "match-play", "battle-detail",
            "chronicle"} <= set(pages)
    if login.role == "gm":
        assert {"clock", "economy", "members", "events", "map-edit", "recruit-list", "catalogue"} <= set(pages)
        detail = client.get(f"/c/{archived_demo.slug}/").content.decode()
        assert 'data-testid="unarchive-button"' in detail
        assert 'data-testid="archive-button"' not in detail


def test_the_pages_offer_the_writes_again_once_unarchived(client, archived_demo):
    gm = User.objects.get(username="gm")
    campaign_set_archived(campaign=archived_demo, archived=False, actor=gm)
    client.force_login(gm)
    clock = client.get(f"/c/{archived_demo.slug}/clock/").content.decode()
    assert BANNER not in clock
    assert 'data-testid="advance-hour"' in clock
    amira = archived_demo.commanders.get(player__username="amira")
    client.force_login(User.objects.get(username="amira"))
    page = client.get(f"/c/{archived_demo.slug}/commanders/{amira.pk}/").content.decode()
    assert 'data-testid="pledge-submit"' in page


def test_an_archived_campaigns_clock_says_it_stands_still(client, archived_demo):
    """The tick passes archived campaigns by (campaign.map.clock), so a running Event's console says so rather
    than "Running"."""
    client.force_login(User.objects.get(username="gm"))
    clock = client.get(f"/c/{archived_demo.slug}/clock/").content.decode()
    assert 'data-testid="clock-stands-still"' in clock
    assert ">Running<" not in clock


def test_an_archived_campaign_without_a_map_says_so_to_its_game_master(client, campaign, gm):
    """Its map page would send a game master to the editor to draw one, which an archived campaign refuses."""
    campaign_set_archived(campaign=campaign, archived=True, actor=gm)
    client.force_login(gm)
    answer = client.get(f"/c/{campaign.slug}/map/")
    assert answer.status_code == 200
    assert "archived without a map" in answer.content.decode()
