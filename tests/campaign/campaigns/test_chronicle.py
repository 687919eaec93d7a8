"""The chronicle (#15 item 4): each kind of item in words, on the campaign's page, a commander's page and each
user's Atom feed; fog of war holds in all three (another commander's hidden army, units and lunari stay
unsaid), a game master reads everything, the feed answers only its owner's current token, and the number of
queries does not grow with the number of items."""

from __future__ import annotations

import re
from html import unescape
from types import SimpleNamespace

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles.models import Battle
from campaign.economy import funding, ledger
from campaign.economy import services as economy_services
from campaign.map import hour, orders
from campaign.map import services as map_services
from campaign.models import FeedToken, Membership, MoveOrder, Role
from cardgames.models import Match, MatchSeat
from tests.campaign.factories import CommanderFactory, EventRecruitOfferFactory, UnitTypeFactory, UserFactory
from tests.campaign.map_fixtures import make_army, make_map

pytestmark = pytest.mark.django_db
URL = "/c/river-valley/chronicle/"

MINE = [  # what Amira's player reads, and the game master too
    "The game masters granted Amira 200 lunari: Starting purse.",
    "Amira recruited Spearmen for 30 lunari.",
    "Amira trained Spearmen to Strength 3, for 30 lunari.",
    "Amira&#x27;s Archers was Killed.",
    "Amira attacked Bastian at Old Mill: Amira won, Bastian routed.",
    "Bastian won a game of Command Dice battle against Amira.",
    "The game masters granted Amira 40 lunari: Scouting reward.",
    "Vanguard (Amira) arrived at (11.0, 2.0) at hour 3 of Spring Muster.",
    "Old Mill passed to Bastian at hour 4 of Spring Muster.",
]
THEIRS = [  # what only Bastian's player (and the game master) reads
    "Hidden Host (Bastian) arrived at Old Mill at hour 2 of Spring Muster.",
    "Hidden Host (Bastian) captured Old Mill at hour 4 of Spring Muster.",
    "The game masters granted Bastian 77 lunari: Secret purse.",
    "Cyrus paid Bastian 25 lunari, as asked: Siege engines.",
    "Bastian recruited Spearmen for 30 lunari.",
    "The game masters granted Bastian 200 lunari: Starting purse.",
]
GM_READS = [s for s in MINE if not s.startswith("Old Mill passed")] + THEIRS + [
    "The game masters granted Cyrus 200 lunari: Starting purse."]
HIDDEN = ["Hidden Host", "77 lunari", "Secret purse", "Siege engines", "Cyrus", "Bastian recruited"]


def _advance(event, hours: int = 1) -> None:
    for _ in range(hours):
        event.refresh_from_db()
        hour.event_hour_process(event=event, hour=event.current_hour + 1)


@pytest.fixture
def story(campaign, event, day, gm, player):
    """Amira (player1) and Bastian (player2) each recruit; Amira trains and loses a unit; the game masters grant
    each of them lunari; Cyrus (run by the game masters) funds Bastian; Amira's Vanguard marches in the open
    while Bastian's Hidden Host arrives at Old Mill and takes it; they fight a Battle and a game of Command Dice."""
    rival = UserFactory(username="player2")
    Membership.objects.create(campaign=campaign, user=rival, role=Role.PLAYER)
    amira = CommanderFactory(campaign=campaign, name="Amira", player=player, lunari=200)
    bastian = CommanderFactory(campaign=campaign, name="Bastian", player=rival, lunari=200)
    cyrus = CommanderFactory(campaign=campaign, name="Cyrus", lunari=200)
    spearmen = UnitTypeFactory(name="Spearmen", strength=2)
    EventRecruitOfferFactory(event=event, unit_type=spearmen)
    recruit = economy_services.unit_recruit(commander=amira, unit_type=spearmen, event=event, paid_by=amira,
                                            actor=player)
    economy_services.unit_recruit(commander=bastian, unit_type=spearmen, event=event, paid_by=bastian, actor=rival)
    economy_services.unit_train(unit=recruit, event=event, paid_by=amira, actor=player)
    ledger.ledger_grant(commander=amira, amount=40, reason="Scouting reward", actor=gm)
    ledger.ledger_grant(commander=bastian, amount=77, reason="Secret purse", actor=gm)
    asked = funding.funding_request_create(requester=bastian, funder=cyrus, amount=25, reason="Siege engines",
                                           actor=rival)
    funding.funding_request_accept(request=asked, actor=gm)

    board = make_map(campaign)
    mill = map_services.location_create(tactical_map=board, name="Old Mill", size="camp", x=36, y=30, actor=None)
    vanguard = make_army(board, commander=amira, at=(2, 2), name="Vanguard")
    host = make_army(board, commander=bastian, at=(30, 30), name="Hidden Host")
    orders.army_order_move(army=vanguard, kind=MoveOrder.Kind.POINT, x=11, y=2, actor=player)
    orders.army_order_move(army=host, kind=MoveOrder.Kind.LOCATION, location=mill, actor=rival)
    _advance(event, 3)
    orders.army_order_move(army=host, kind=MoveOrder.Kind.CAPTURE, location=mill, actor=rival)
    _advance(event)
    mill.refresh_from_db()
    assert mill.holder_id == bastian.pk

    fallen = vanguard.units.first()
    fallen.unit_type.name = "Archers"
    fallen.unit_type.save()
    economy_services.unit_kill(unit=fallen, actor=gm)
    now = timezone.now()
    Battle.objects.create(campaign=campaign, event=event, day=day, attacker=amira, defender=bastian,
                          attacker_army=vanguard, defender_army=host, location=mill, mode=Battle.Mode.LOGGED,
                          status=Battle.Status.APPLIED, config={}, result={"winner": 0, "routed": 1},
                          finished_at=now, applied_at=now)
    match = Match.objects.create(campaign=campaign, event=event, game="command-dice", seed=1,
                                 status=Match.Status.FINISHED, result={"winner": 1}, finished_at=now)
    MatchSeat.objects.create(match=match, seat=0, name="player1", user=player, commander=amira)
    MatchSeat.objects.create(match=match, seat=1, name="player2", user=rival, commander=bastian)
    return SimpleNamespace(amira=amira, bastian=bastian, cyrus=cyrus, rival=rival, battle=Battle.objects.get(),
                           match=match)


def _sentences(html: str) -> list[str]:
    return [re.sub(r"\s+", " ", s).strip() for s in re.findall(r'data-testid="chronicle-entry"[^>]*><div>(.*?)</div>',
                                                               html, re.S)]


def _feed_url(client, user) -> str:
    client.force_login(user)
    client.post(f"{URL}feed-link/", {"current": ""})
    return f"{URL}feed/{FeedToken.objects.get(user=user).token}/"


def test_the_game_master_reads_every_kind_of_item_in_words(client, gm, story):
    client.force_login(gm)
    said = _sentences(client.get(URL).content.decode())
    assert sorted(said) == sorted(GM_READS)  # the capture in full: which army took Old Mill
    assert said[0].startswith("Bastian won a game")  # newest first


def test_a_player_reads_their_own_and_what_is_public_never_another_commanders_army_or_lunari(client, player, story):
    client.force_login(player)
    html = client.get(URL).content.decode()
    said = _sentences(html)
    assert sorted(said) == sorted(MINE)
    for secret in HIDDEN:
        assert secret not in html
    assert f'href="/c/river-valley/battles/{story.battle.pk}/replay/"' in html
    assert f'href="/c/river-valley/matches/{story.match.pk}/replay/"' in html
    assert f'href="/c/river-valley/commanders/{story.amira.pk}/"' in html


def test_the_feed_carries_exactly_what_its_owner_may_read(client, gm, player, story):
    xml = client.get(_feed_url(client, player)).content.decode()
    client.logout()
    assert xml.startswith('<?xml')
    assert 'xmlns="http://www.w3.org/2005/Atom"' in xml
    titles = re.findall(r"<title>(.*?)</title>", xml)[1:]
    assert sorted(titles) == sorted(unescape(s) for s in MINE)
    for secret in HIDDEN:
        assert secret not in xml
    assert f'href="http://testserver/c/river-valley/battles/{story.battle.pk}/replay/"' in xml
    assert f"<id>muster-chronicle:battle:{story.battle.pk}</id>" in xml
    gm_xml = client.get(_feed_url(client, gm)).content.decode()
    client.logout()
    assert sorted(re.findall(r"<title>(.*?)</title>", gm_xml)[1:]) == sorted(unescape(s) for s in GM_READS)


def test_the_feed_refuses_a_wrong_or_reset_token_and_a_campaign_its_owner_is_not_in(client, player, outsider,
                                                                                    story):
    url = _feed_url(client, player)
    client.logout()
    assert client.get(url).status_code == 200
    assert client.get(f"{URL}feed/not-the-token/").status_code == 404
    assert client.get(url.replace("river-valley", "elsewhere")).status_code == 404
    old = FeedToken.objects.get(user=player).token
    client.force_login(player)
    client.post(f"{URL}feed-link/", {"current": old})
    new = FeedToken.objects.get(user=player).token
    client.post(f"{URL}feed-link/", {"current": old})  # a phone retrying the same reset
    assert FeedToken.objects.get(user=player).token == new != old
    client.logout()
    assert client.get(url).status_code == 404
    assert client.get(f"{URL}feed/{new}/").status_code == 200


def test_the_page_shows_the_feed_address_and_offers_a_new_one(client, player, story):
    client.force_login(player)
    assert 'data-testid="feed-url"' not in client.get(URL).content.decode()
    client.post(f"{URL}feed-link/", {"current": ""})
    html = client.get(URL).content.decode()
    assert f"http://testserver{URL}feed/{FeedToken.objects.get(user=player).token}/" in html


def test_filters_by_kind_and_day(client, gm, story, event, day):
    client.force_login(gm)
    assert _sentences(client.get(f"{URL}?kind=capture").content.decode()) == [
        "Hidden Host (Bastian) captured Old Mill at hour 4 of Spring Muster."]
    assert _sentences(client.get(f"{URL}?kind=funding").content.decode()) == [
        "Cyrus paid Bastian 25 lunari, as asked: Siege engines.",
        "The game masters granted Bastian 77 lunari: Secret purse.",
        "The game masters granted Amira 40 lunari: Scouting reward.",
        "The game masters granted Cyrus 200 lunari: Starting purse.",
        "The game masters granted Bastian 200 lunari: Starting purse.",
        "The game masters granted Amira 200 lunari: Starting purse."]
    type(day).objects.filter(pk=day.pk).update(status="closed", closed_at=timezone.now())
    assert len(_sentences(client.get(f"{URL}?day={day.pk}").content.decode())) == len(GM_READS)
    later = type(day).objects.create(event=event, number=2)
    assert _sentences(client.get(f"{URL}?day={later.pk}").content.decode()) == []


def test_a_commanders_chronicle_is_theirs_and_only_their_player_and_the_gm_open_it(client, gm, player, story):
    mine = f"/c/river-valley/commanders/{story.amira.pk}/chronicle/"
    theirs = f"/c/river-valley/commanders/{story.bastian.pk}/chronicle/"
    client.force_login(player)
    said = _sentences(client.get(mine).content.decode())
    assert sorted(said) == sorted(s for s in MINE if "Amira" in s)
    assert client.get(theirs).status_code == 404
    client.force_login(gm)
    assert "Cyrus paid Bastian 25 lunari, as asked: Siege engines." in _sentences(
        client.get(theirs).content.decode())


def test_the_campaign_and_commander_pages_link_to_the_chronicle(client, player, story):
    client.force_login(player)
    assert f'href="{URL}"' in client.get("/c/river-valley/").content.decode()
    page = client.get(f"/c/river-valley/commanders/{story.amira.pk}/").content.decode()
    assert f'href="/c/river-valley/commanders/{story.amira.pk}/chronicle/"' in page


def test_an_encounter_without_a_winner_is_a_draw(client, gm, campaign, event, player):
    match = Match.objects.create(campaign=campaign, event=event, game="unity", seed=1, status=Match.Status.FINISHED,
                                 result={"winner": None}, finished_at=timezone.now())
    MatchSeat.objects.create(match=match, seat=0, name="player1", user=player)
    MatchSeat.objects.create(match=match, seat=1, name="AI", ai="greedy")
    MatchSeat.objects.create(match=match, seat=2, name="gm1", user=gm)
    client.force_login(player)
    assert _sentences(client.get(URL).content.decode()) == ["player1, AI and gm1 played Unity to a draw."]


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_the_number_of_queries_does_not_grow_with_the_items(client, gm, player, story):
    for who in (gm, player):
        client.force_login(who)
        caches["shared"].clear()  # each time as for a new phone: session and user read from the database
        page_before, feed_before = _queries(client, URL), _queries(client, _feed_url(client, who))
        for n in range(12):
            ledger.ledger_grant(commander=story.amira, amount=n + 1, reason=f"Prize {n}", actor=gm)
            ledger.ledger_grant(commander=story.bastian, amount=n + 1, reason=f"Prize {n}", actor=gm)
        client.force_login(who)
        caches["shared"].clear()
        assert (_queries(client, URL), _queries(client, _feed_url(client, who))) == (page_before, feed_before)


def test_funding_between_two_players_is_told_to_both_the_link_only_to_the_page_one_may_open(client, player, story):
    asked = funding.funding_request_create(requester=story.bastian, funder=story.amira, amount=12, reason="Horses",
                                           actor=story.rival)
    funding.funding_request_accept(request=asked, actor=player)
    for user, link_shown in ((player, False), (story.rival, True)):
        client.force_login(user)
        html = client.get(f"{URL}?kind=funding").content.decode()
        assert "Amira paid Bastian 12 lunari, as asked: Horses." in _sentences(html)
        assert (f'href="/c/river-valley/commanders/{story.bastian.pk}/"' in html) is link_shown


def test_the_entries_are_remembered_per_viewer_until_the_campaign_changes(client, gm, player, story):
    client.force_login(gm)
    cold = _queries(client, URL)
    assert _queries(client, URL) < cold  # the same viewer again, nothing changed: the entries are not rebuilt
    ledger.ledger_grant(commander=story.bastian, amount=9, reason="Late bounty", actor=gm)
    assert "The game masters granted Bastian 9 lunari: Late bounty." in _sentences(client.get(URL).content.decode())
    client.force_login(player)  # another viewer never reads what the game master's page remembered
    said = _sentences(client.get(URL).content.decode())
    assert sorted(said) == sorted(MINE)
    assert not any(hidden in " ".join(said) for hidden in [*HIDDEN, "Late bounty"])
