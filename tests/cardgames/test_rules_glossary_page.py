"""The rules glossary page (#17 item 4): for anyone signed in (no campaign needed), one section per game with
every term at its own anchor and its source named, filtered by ?q= without JavaScript, reached from the top bar
and from every table, whose help links land on anchors the page has."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from cardgames import rules_help
from cardgames.registry import ENGINES

pytestmark = pytest.mark.django_db

URL = reverse("glossary")


def page_for(client, user, query: str | None = None) -> str:
    client.force_login(user)
    response = client.get(URL, {"q": query} if query is not None else {})
    assert response.status_code == 200
    return response.content.decode()


def terms_on(page: str) -> dict[str, bool]:
    """Each term's anchor on the page -> whether it is shown (not hidden by the filter)."""
    return {anchor: not hidden for anchor, hidden in
            re.findall(r'<div class="glossary-term" id="([^"]+)" data-glossary-term( hidden)?>', page)}


def test_signing_in_is_all_it_takes(client, outsider):
    assert client.get(URL).status_code == 302
    assert client.get(URL)["Location"].startswith(reverse("login"))
    page = page_for(client, outsider)  # a member of another campaign, or of none, reads the same rules
    assert 'data-testid="rules-link"' in page


def test_one_section_per_game_every_term_at_its_anchor_with_its_source(client, outsider):
    page = page_for(client, outsider)
    sections = re.findall(r'<section class="card glossary-game" id="([^"]+)"', page)
    assert sections == list(rules_help.PAGE_ORDER)
    assert sorted(sections) == sorted(ENGINES)
    shown = terms_on(page)
    assert all(shown.values())
    expected = [rules_help.anchor(game, term) for game in rules_help.PAGE_ORDER for term in rules_help.glossary(game)]
    assert list(shown) == expected, "every term once, at its anchor"
    morale = re.search(r'id="army-combat-morale"[^>]*>\s*<dt>Morale</dt>\s*<dd>(.*?)</dd>', page, re.S).group(1)
    term = rules_help.terms_by_key("army-combat")["term:morale"]
    assert html.unescape(morale) == f'{term.text} <cite class="muted small">army-combat.txt</cite>'
    assert f"{len(expected)} terms in 5 games." in page


def test_the_filter_shows_only_the_terms_with_every_word_asked_and_hides_games_without_one(client, outsider):
    page = page_for(client, outsider, "  spend   MORALE ")
    shown = {anchor for anchor, on in terms_on(page).items() if on}
    assert "army-combat-cleric" in shown
    assert "army-combat-healer" in shown
    assert "army-combat-battle" not in shown
    expected = {rules_help.anchor(game, term) for game in ENGINES for term in rules_help.glossary(game)
                if rules_help.matches(term, ["spend", "morale"])}
    assert shown == expected
    assert f"{len(shown)} of " in page
    assert "terms match “spend MORALE”." in page
    assert 'data-testid="section-unity" data-glossary-section hidden' in page
    assert 'data-testid="section-army-combat" data-glossary-section>' in page
    assert '<li data-glossary-nav="unity" hidden>' in page, "no link to a game the filter hid"


def test_a_filter_that_finds_nothing_says_what_to_try(client, outsider):
    page = page_for(client, outsider, "<script>zzz")
    assert not any(terms_on(page).values())
    assert "0 of" in page
    assert "Try a shorter word." in page
    assert "<script>zzz" not in page


@pytest.fixture
def match(campaign, gm, player):
    from cardgames.models import AIPolicy
    from cardgames.services import SeatSpec, match_create

    return match_create(campaign=campaign, game="unholy-war", actor=gm, seed=3,
                        seats=[SeatSpec("player1", player), SeatSpec("Random AI", None, AIPolicy.RANDOM)])


def test_a_table_links_its_game_and_its_phase_to_anchors_the_rules_page_has(client, player, match):
    client.force_login(player)
    table = client.get(reverse("match-play", args=[match.campaign.slug, match.pk])).content.decode()
    links = set(re.findall(rf'href="{URL}#([^"]+)"', table))
    assert "unholy-war" in links
    assert any(link.startswith("unholy-war-") for link in links), "What now? links its phase"
    anchors = set(terms_on(page_for(client, player))) | set(ENGINES)
    assert links <= anchors
