"""Several game masters at once (campaign.claiming): one claims what is to be resolved, the others see who holds
it, and players cannot claim. The same scenario runs over both claimable kinds, a Battle due on the map
(campaign.map.claims, the clock console) and a card-game encounter (cardgames.claims, the encounters list and
the match page); then what belongs to one kind only: who is online at the console, and the matches' API."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.core.exceptions import ValidationError

from campaign.live.presence import presence_mark
from campaign.map import claims as battle_claims
from campaign.models import AuditEntry, DueBattle
from cardgames import claims as match_claims
from cardgames.models import Match
from cardgames.services import SeatSpec, match_create
from tests.campaign.factories import ArmyFactory, CommanderFactory, MembershipFactory, UserFactory
from tests.helpers import api_for

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Claimable:
    """A kind of thing to resolve: its services, its words, and the pages that show its claim (`{pk}` and
    `{campaign}` filled with the row's ids)."""

    noun: str
    audit: str
    claim: Callable
    release: Callable
    over: tuple[str, str]
    """(status of a row no longer open, the word its refusal uses)"""
    claim_url: str
    lands_on: str
    """where a claim made from the list or console comes back to"""
    gm_marks: tuple[str, ...]
    """what another game master sees there of a claim (links, buttons, the live topics)"""
    also_on: tuple[str, ...]
    """other pages that show the claim"""
    refused_from: tuple[dict, str]
    """(what the refused form posts, where it comes back to)"""
    player_page: str | None
    """a page a player sees the thing on: no claim button, no game masters' topics"""


BATTLE_DUE = Claimable(
    noun="Battle", audit="battle",
    claim=lambda row, actor: battle_claims.due_battle_claim(due_battle=row, actor=actor),
    release=lambda row, actor: battle_claims.due_battle_release(due_battle=row, actor=actor),
    over=(DueBattle.Status.FOUGHT, "fought"),
    claim_url="/c/river-valley/clock/battles/{pk}/claim/", lands_on="/c/river-valley/clock/",
    gm_marks=("/c/river-valley/battles/start/?due={pk}", 'data-testid="release-battle"',
              'data-live-topics="campaign.{campaign}.hour campaign.{campaign}.gm"'),
    also_on=(), refused_from=({}, "/c/river-valley/clock/"), player_page=None)

MATCH = Claimable(
    noun="match", audit="match",
    claim=lambda row, actor: match_claims.match_claim(match=row, actor=actor),
    release=lambda row, actor: match_claims.match_release(match=row, actor=actor),
    over=(Match.Status.FINISHED, "finished"),
    claim_url="/c/river-valley/matches/{pk}/claim/", lands_on="/c/river-valley/matches/",
    gm_marks=('data-testid="release-match"', 'data-live-topics="campaign.{campaign}.hour campaign.{campaign}.gm"'),
    also_on=("/c/river-valley/matches/{pk}/",), refused_from=({"back": "play"}, "/c/river-valley/matches/{pk}/"),
    player_page="/c/river-valley/matches/")


def _battle_due(campaign, event, gm, player) -> DueBattle:
    first, second = (ArmyFactory(commander=CommanderFactory(campaign=campaign, name=n), name=f"{n}'s host")
                     for n in ("Amira", "Bastian"))
    return DueBattle.objects.create(event=event, hour=2, first=first, second=second)


def _match(campaign, event, gm, player) -> Match:
    """A Command Dice match between two players of the campaign."""
    rival = MembershipFactory(campaign=campaign, user=UserFactory(username="rival")).user
    return match_create(campaign=campaign, game="command-dice", actor=gm, seed=11,
                        seats=[SeatSpec("player1", player), SeatSpec("rival", rival)])


@pytest.fixture(params=[(BATTLE_DUE, _battle_due), (MATCH, _match)], ids=["battle-due", "match"])
def claimable(request, campaign, event, gm, player) -> tuple[Claimable, DueBattle | Match]:
    kind, make = request.param
    return kind, make(campaign, event, gm, player)


@pytest.fixture
def second_gm(campaign):
    return MembershipFactory(campaign=campaign, user=UserFactory(username="gm2"), role="gm").user


def _url(template: str, row) -> str:
    return template.format(pk=row.pk, campaign=row.campaign_id if isinstance(row, Match) else row.event.campaign_id)


def test_a_claim_is_held_by_one_game_master_and_a_retry_changes_nothing(claimable, gm, second_gm):
    kind, row = claimable
    kind.claim(row, gm)
    kind.claim(row, gm)
    row.refresh_from_db()
    assert row.claimed_by == gm
    assert row.claimed_at is not None
    assert AuditEntry.objects.filter(action=f"{kind.audit}.claim").count() == 1, "a retried tap records nothing twice"
    with pytest.raises(ValidationError, match=f"gm1 is resolving this {kind.noun}: ask them, or release their claim"):
        kind.claim(row, second_gm)
    row.refresh_from_db()
    assert row.claimed_by == gm


def test_any_game_master_may_release_a_claim_and_then_take_it(claimable, gm, second_gm):
    kind, row = claimable
    kind.claim(row, gm)
    kind.release(row, second_gm)
    kind.release(row, second_gm)
    assert AuditEntry.objects.filter(action=f"{kind.audit}.release").count() == 1
    row.refresh_from_db()
    assert (row.claimed_by, row.claimed_at) == (None, None)
    kind.claim(row, second_gm)
    row.refresh_from_db()
    assert row.claimed_by == second_gm


def test_one_no_longer_open_cannot_be_claimed(claimable, gm):
    kind, row = claimable
    status, word = kind.over
    type(row).objects.filter(pk=row.pk).update(status=status)
    with pytest.raises(ValidationError, match=f"already {word}: nothing to claim"):
        kind.claim(row, gm)


def test_the_pages_show_the_claim_to_the_other_game_master(client, claimable, gm, second_gm):
    kind, row = claimable
    client.force_login(gm)
    answer = client.post(_url(kind.claim_url, row), follow=True)
    assert answer.redirect_chain[-1][0] == kind.lands_on
    assert "You are resolving" in answer.content.decode()
    client.force_login(second_gm)
    page = client.get(kind.lands_on).content.decode()
    assert "gm1 is resolving it" in page
    for mark in kind.gm_marks:
        assert _url(mark, row) in page
    for other in kind.also_on:
        assert "gm1 is resolving it" in client.get(_url(other, row)).content.decode()
    posted, back = kind.refused_from
    refused = client.post(_url(kind.claim_url, row), posted, follow=True)
    assert refused.redirect_chain[-1][0] == _url(back, row)
    assert f"gm1 is resolving this {kind.noun}: ask them, or release their claim first." in refused.content.decode()


def test_players_may_not_claim_nor_see_the_buttons(client, claimable, player):
    kind, row = claimable
    client.force_login(player)
    assert client.post(_url(kind.claim_url, row)).status_code == 403
    if kind.player_page:
        page = client.get(kind.player_page).content.decode()
        assert f'data-testid="claim-{kind.noun.lower()}"' not in page
        assert "data-live-topics" not in page
    row.refresh_from_db()
    assert row.claimed_by is None


# --- one kind only ------------------------------------------------------------------------------------------


def test_who_is_online_lists_the_game_masters_with_the_console_open_and_drops_the_silent(client, campaign, gm,
                                                                                        second_gm):
    presence_mark(campaign_id=campaign.pk, user_id=second_gm.pk)
    client.force_login(gm)
    assert "gm2" in client.get("/c/river-valley/clock/online/").content.decode()
    presence_mark(campaign_id=campaign.pk, user_id=second_gm.pk, online=False)
    assert "No game master online." in client.get("/c/river-valley/clock/online/").content.decode()


def test_presence_expires_without_a_heartbeat(campaign, gm):
    from campaign.live.presence import EXPIRY_SECONDS, presence_online

    assert presence_mark(campaign_id=campaign.pk, user_id=gm.pk, now=1000.0)
    assert not presence_mark(campaign_id=campaign.pk, user_id=gm.pk, now=1010.0), "a ping changes nobody's list"
    assert presence_online(campaign_id=campaign.pk, now=1010.0 + EXPIRY_SECONDS - 1) == {gm.pk}
    assert presence_online(campaign_id=campaign.pk, now=1010.0 + EXPIRY_SECONDS) == set()


def test_the_api_claims_and_releases_a_match_for_a_game_master_only(campaign, event, gm, second_gm, player):
    duel = _match(campaign, event, gm, player)
    claimed = api_for(gm).post(f"/api/matches/{duel.pk}/claim/")
    assert (claimed.status_code, claimed.json()["claimed_by"]) == (200, gm.pk)
    refused = api_for(second_gm).post(f"/api/matches/{duel.pk}/claim/")
    assert refused.status_code == 400
    assert "gm1 is resolving this match" in refused.json()["detail"]
    assert api_for(player).post(f"/api/matches/{duel.pk}/release/").status_code == 403
    released = api_for(second_gm).post(f"/api/matches/{duel.pk}/release/")
    assert (released.status_code, released.json()["claimed_by"]) == (200, None)
