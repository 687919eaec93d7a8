"""Encounters with stakes: held in escrow when the match starts, paid to the winner's commander once,
returned on a cancel or a draw, refused with a sentence when a purse cannot cover it; the books balance."""

import pytest
from django.core.exceptions import ValidationError
from django.db.models import Sum

from campaign.economy import ledger as economy_ledger
from campaign.models import Account, AuditEntry, EscrowHold, LedgerTransaction
from cardgames import selectors, services
from cardgames.models import AIPolicy, Match
from cardgames.services import SeatSpec
from cardgames.signals import match_finished
from tests.campaign.factories import CommanderFactory
from tests.cardgames.test_matches import play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def amira(campaign, player):
    return CommanderFactory(campaign=campaign, name="Amira", player=player, lunari=100)


@pytest.fixture
def bastian(campaign, rival):
    return CommanderFactory(campaign=campaign, name="Bastian", player=rival, lunari=25)


def purse(commander) -> int:
    return economy_ledger.ledger_purse_balance(commander=commander)


def escrow(campaign) -> int:
    return Account.objects.get(campaign=campaign, kind=Account.Kind.ESCROW).balance


def assert_books_balance(campaign):
    """Every transaction sums to zero, every cached balance is the sum of its entries, and so the
    campaign's accounts together hold nothing."""
    for txn in LedgerTransaction.objects.filter(campaign=campaign):
        assert txn.entries.aggregate(s=Sum("amount"))["s"] == 0, txn
    for account in Account.objects.filter(campaign=campaign):
        assert account.balance == economy_ledger.ledger_balance(account=account), account
    assert Account.objects.filter(campaign=campaign).aggregate(s=Sum("balance"))["s"] == 0


def wager(campaign, gm, player, rival, amira, bastian, stakes=(20, 20), seed=11):
    return services.match_create(campaign=campaign, game="command-dice", actor=gm, seed=seed,
                                 title="A wager in a tavern",
                                 seats=[SeatSpec("player1", player, commander=amira, stake=stakes[0]),
                                        SeatSpec("rival", rival, commander=bastian, stake=stakes[1])])


def test_stakes_are_held_in_escrow_when_the_match_starts(campaign, gm, player, rival, amira, bastian):
    match = wager(campaign, gm, player, rival, amira, bastian)
    assert (purse(amira), purse(bastian), escrow(campaign)) == (80, 5, 40)
    holds = [seat.escrow for seat in match.seats.all()]
    assert [(h.commander, h.amount, h.status) for h in holds] == [
        (amira, 20, EscrowHold.Status.HELD), (bastian, 20, EscrowHold.Status.HELD)]
    assert holds[0].reason == "Stake on A wager in a tavern"
    stakes = selectors.match_stakes(match=match)
    assert (stakes.pot, stakes.status, stakes.paid_to) == (40, "held", None)
    assert AuditEntry.objects.get(action="match.create").data["stakes"] == [20, 20]
    assert_books_balance(campaign)


def test_a_stake_a_purse_cannot_cover_is_refused_and_nothing_starts(campaign, gm, player, rival, amira, bastian):
    with pytest.raises(ValidationError) as refused:
        wager(campaign, gm, player, rival, amira, bastian, stakes=(40, 40))
    assert refused.value.messages == ["Not enough lunari: the stake is 40, Bastian has 25."]
    assert not Match.objects.exists()
    assert (purse(amira), purse(bastian)) == (100, 25)  # Amira's hold was rolled back with the match
    assert not EscrowHold.objects.exists()
    assert_books_balance(campaign)


def test_the_final_move_pays_the_winner_and_a_retry_or_the_signal_pays_nothing_more(
        campaign, gm, player, rival, amira, bastian, django_capture_on_commit_callbacks):
    match = wager(campaign, gm, player, rival, amira, bastian, stakes=(20, 10))
    with django_capture_on_commit_callbacks(execute=True):
        match = play_out(match, [player, rival])
    winner, loser = (amira, bastian) if match.result["winner"] == 0 else (bastian, amira)
    lost = 10 if loser == bastian else 20
    start = {amira: 100, bastian: 25}
    assert purse(winner) == start[winner] + lost
    assert purse(loser) == start[loser] - lost
    assert escrow(campaign) == 0
    match_finished.send(sender=Match, match=match)  # delivered again: nothing more moves
    assert services.match_stakes_settle(match=match) == []
    assert (purse(winner), purse(loser), escrow(campaign)) == (start[winner] + lost, start[loser] - lost, 0)
    releases = LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.ESCROW_RELEASE)
    assert sorted(releases.values_list("reason", flat=True)) == [  # two lines in the winner's ledger, told apart
        f"A wager in a tavern: won {loser}'s stake", f"A wager in a tavern: won, {winner}'s own stake back"]
    assert set(EscrowHold.objects.values_list("released_to", flat=True)) == {winner.pk}
    assert AuditEntry.objects.filter(action="match.stakes").count() == 1
    stakes = selectors.match_stakes(match=match)
    assert (stakes.status, stakes.paid_to) == ("paid", winner)
    assert_books_balance(campaign)


def test_a_cancelled_match_returns_each_stake(campaign, gm, player, rival, amira, bastian):
    match = wager(campaign, gm, player, rival, amira, bastian)
    services.match_cancel(match=match, actor=gm)
    assert (purse(amira), purse(bastian), escrow(campaign)) == (100, 25, 0)
    assert list(LedgerTransaction.objects.filter(kind=LedgerTransaction.Kind.ESCROW_RELEASE).order_by("pk")
                .values_list("reason", flat=True)) == ["A wager in a tavern: cancelled, Amira's stake returned",
                                                        "A wager in a tavern: cancelled, Bastian's stake returned"]
    assert [h.released_to for h in EscrowHold.objects.order_by("pk")] == [amira, bastian]
    assert selectors.match_stakes(match=match).status == "returned"
    assert services.match_stakes_settle(match=match) == []
    assert_books_balance(campaign)


def test_a_draw_returns_each_stake(campaign, gm, player, rival, amira, bastian):
    """Command Dice always has a winner; a game that ends without one (result winner None) is a draw."""
    match = wager(campaign, gm, player, rival, amira, bastian)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, result={"winner": None})
    match.refresh_from_db()
    services.match_stakes_settle(match=match)
    assert services.match_stakes_settle(match=match) == []
    assert (purse(amira), purse(bastian), escrow(campaign)) == (100, 25, 0)
    assert selectors.match_stakes(match=match).status == "returned"
    assert_books_balance(campaign)


def test_stakes_stay_in_escrow_while_the_match_is_played(campaign, gm, player, rival, amira, bastian):
    match = wager(campaign, gm, player, rival, amira, bastian)
    with pytest.raises(ValidationError, match="still being played"):
        services.match_stakes_settle(match=match)
    assert escrow(campaign) == 40


def test_a_seat_stakes_only_for_its_own_players_commander(campaign, gm, player, rival, amira, bastian):
    def start(*seats):
        return services.match_create(campaign=campaign, game="command-dice", actor=gm, seats=list(seats))

    with pytest.raises(ValidationError, match="Pick the commander whose purse pays rival's stake"):
        start(SeatSpec("player1", player, commander=amira, stake=5), SeatSpec("rival", rival, stake=5))
    with pytest.raises(ValidationError, match="Bastian can only be played by their own player"):
        start(SeatSpec("player1", player, commander=bastian, stake=5), SeatSpec("rival", rival))
    with pytest.raises(ValidationError, match="Amira can only be played by their own player"):
        start(SeatSpec("player1", player), SeatSpec("AI", None, AIPolicy.RANDOM, commander=amira))
    with pytest.raises(ValidationError, match="every seat plays for a commander"):
        start(SeatSpec("player1", player, commander=amira, stake=5), SeatSpec("AI", None, AIPolicy.RANDOM))
    with pytest.raises(ValidationError, match="one side of a match only"):
        start(SeatSpec("player1", player, commander=amira), SeatSpec("player1 again", player, commander=amira))
    assert not Match.objects.exists()
    # Commanders without stakes: a duel between squads, nothing in escrow.
    duel = start(SeatSpec("player1", player, commander=amira), SeatSpec("rival", rival, commander=bastian))
    assert selectors.match_stakes(match=duel) is None
    assert not EscrowHold.objects.exists()


def test_the_gm_starts_a_staked_encounter_and_the_pages_and_api_show_the_stakes(
        client, campaign, gm, player, rival, amira, bastian):
    client.force_login(gm)
    page = client.get(f"/c/{campaign.slug}/matches/").content.decode()
    assert "Amira (player1)" in page
    refused = client.post(f"/c/{campaign.slug}/matches/", {
        "game": "command-dice", "title": "A duel between squads", "seat_0": f"user:{player.pk}",
        "commander_0": amira.pk, "stake_0": 30, "seat_1": f"user:{rival.pk}", "commander_1": bastian.pk,
        "stake_1": 30}, follow=True)
    assert "Not enough lunari: the stake is 30, Bastian has 25." in refused.content.decode()
    response = client.post(f"/c/{campaign.slug}/matches/", {
        "game": "command-dice", "title": "A duel between squads", "seat_0": f"user:{player.pk}",
        "commander_0": amira.pk, "stake_0": 25, "seat_1": f"user:{rival.pk}", "commander_1": bastian.pk,
        "stake_1": 25})
    match = Match.objects.get(title="A duel between squads")
    assert response.status_code == 302
    assert escrow(campaign) == 50
    listing = client.get(f"/c/{campaign.slug}/matches/").content.decode()
    assert "pot <strong>50 lunari</strong>" in listing
    assert "held in escrow" in listing
    client.force_login(player)
    play = client.get(f"/c/{campaign.slug}/matches/{match.pk}/").content.decode()
    assert 'data-testid="stakes"' in play
    assert "Amira 25, Bastian 25" in play

    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(player)
    data = api.get(f"/api/matches/{match.pk}/").json()
    assert data["stakes"] == {"pot": 50, "status": "held", "paid_to": None, "bank": 0}
    assert [(s["commander"], s["commander_name"], s["stake"]) for s in data["seats"]] == [
        (amira.pk, "Amira", 25), (bastian.pk, "Bastian", 25)]
    services.match_cancel(match=match, actor=gm)
    assert api.get(f"/api/matches/{match.pk}/").json()["stakes"]["status"] == "returned"


def test_the_demo_wager_has_twenty_lunari_a_side_in_escrow():
    from campaign.demo import load_demo
    from cardgames.demo import WAGER_STAKE, load_demo_matches

    campaign, _ = load_demo()
    load_demo_matches(campaign=campaign)
    load_demo_matches(campaign=campaign)
    wager_match = Match.objects.get(campaign=campaign, title="Wager at the Gilded Goat")
    seats = list(wager_match.seats.all())
    assert [(s.commander.player.username, s.stake, s.escrow.status) for s in seats] == [
        ("amira", WAGER_STAKE, EscrowHold.Status.HELD), ("bastian", WAGER_STAKE, EscrowHold.Status.HELD)]
    assert escrow(campaign) == 2 * WAGER_STAKE
