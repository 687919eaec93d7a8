"""The encounters page for players (their challenges, their games, the forms) and the API's challenges and
practice games: each player answers only for their own commander, others' challenges are not found."""

import pytest

from campaign.models import AuditEntry
from cardgames import challenges
from cardgames.models import Challenge, Match
from tests.campaign.factories import CommanderFactory
from tests.cardgames.test_stakes import escrow, purse

pytestmark = pytest.mark.django_db


@pytest.fixture
def amira(campaign, player):
    return CommanderFactory(campaign=campaign, name="Amira", player=player, lunari=100)


@pytest.fixture
def bastian(campaign, rival):
    return CommanderFactory(campaign=campaign, name="Bastian", player=rival, lunari=25)


@pytest.fixture
def sent(player, amira, bastian):
    return challenges.challenge_create(challenger=amira, challenged=bastian, game="command-dice", stake=10,
                                       actor=player)


def page(client, user, campaign) -> str:
    client.force_login(user)
    return client.get(f"/c/{campaign.slug}/matches/").content.decode()


def test_each_player_sees_their_side_of_a_challenge(client, campaign, player, rival, sent):
    mine = page(client, player, campaign)
    assert 'data-testid="challenge-sent"' in mine
    assert "Withdraw" in mine
    assert "Accept" not in mine
    theirs = page(client, rival, campaign)
    assert 'data-testid="challenge-received"' in theirs
    assert "Accept" in theirs
    assert "Decline" in theirs
    assert 'data-testid="challenge-form"' in theirs
    assert 'data-testid="practice-form"' in theirs


def test_a_gm_without_a_commander_keeps_the_start_form_only(client, campaign, gm, sent):
    body = page(client, gm, campaign)
    assert 'data-testid="start-form"' in body
    assert 'data-testid="challenges"' not in body


def test_challenging_and_accepting_on_the_pages(client, campaign, player, rival, amira, bastian):
    client.force_login(player)
    response = client.post(f"/c/{campaign.slug}/challenges/", {
        "challenger": amira.pk, "challenged": bastian.pk, "game": "unity", "stake": 5, "config": '{"hand_size": 6}'})
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert (challenge.game, challenge.stake, challenge.config) == ("unity", 5, {"hand_size": 6})
    assert "Hand size 6" in page(client, rival, campaign)
    response = client.post(f"/c/{campaign.slug}/challenges/{challenge.pk}/accept/")
    match = Match.objects.get()
    assert response.url == f"/c/{campaign.slug}/matches/{match.pk}/"
    assert client.post(f"/c/{campaign.slug}/challenges/{challenge.pk}/accept/").url == response.url  # a retry
    assert (purse(amira), purse(bastian), escrow(campaign)) == (95, 20, 10)
    assert 'data-testid="playing"' in page(client, player, campaign)


def test_a_refusal_on_the_pages_is_a_sentence(client, campaign, player, amira, bastian):
    client.force_login(player)
    response = client.post(f"/c/{campaign.slug}/challenges/", {"challenger": amira.pk, "challenged": bastian.pk,
                                                               "game": "command-dice", "stake": 500}, follow=True)
    assert "Not enough lunari: the stake is 500, Amira has 100. Stake at most 100." in response.content.decode()
    assert not Challenge.objects.exists()


def test_a_player_cannot_answer_for_someone_elses_commander_on_the_pages(client, campaign, player, outsider, sent):
    client.force_login(player)
    response = client.post(f"/c/{campaign.slug}/challenges/{sent.pk}/accept/", follow=True)
    assert "Only Bastian&#x27;s player or a game master may accept" in response.content.decode()
    client.force_login(outsider)
    assert client.post(f"/c/{campaign.slug}/challenges/{sent.pk}/decline/").status_code == 404
    sent.refresh_from_db()
    assert sent.status == Challenge.Status.OPEN


def test_practice_on_the_page_offers_a_stake_only_by_house_rule(client, campaign, player, amira):
    assert 'name="stake"' not in page(client, player, campaign).split('data-testid="practice-form"')[1]
    response = client.post(f"/c/{campaign.slug}/practice/", {"commander": amira.pk, "policy": "greedy",
                                                              "game": "command-dice"})
    match = Match.objects.get()
    assert response.url == f"/c/{campaign.slug}/matches/{match.pk}/"
    campaign.house_rules = {challenges.HOUSE_RULE: True}
    campaign.save(update_fields=["house_rules"])
    assert 'name="stake"' in page(client, player, campaign).split('data-testid="practice-form"')[1]
    client.post(f"/c/{campaign.slug}/practice/", {"commander": amira.pk, "policy": "greedy",
                                                  "game": "command-dice", "stake": 15})
    assert Match.objects.filter(bank_stake=15).exists()
    assert purse(amira) == 85


def test_the_api_sends_lists_and_answers_challenges(client, campaign, player, rival, amira, bastian):
    client.force_login(player)
    response = client.post("/api/challenges/", {"challenger": amira.pk, "challenged": bastian.pk,
                                                "game": "command-dice", "stake": 10}, content_type="application/json")
    assert response.status_code == 201, response.json()
    challenge_id = response.json()["id"]
    assert [c["id"] for c in client.get("/api/challenges/").json()["results"]] == [challenge_id]
    assert client.post(f"/api/challenges/{challenge_id}/accept/").status_code == 403
    client.force_login(rival)
    accepted = client.post(f"/api/challenges/{challenge_id}/accept/")
    assert accepted.status_code == 200
    again = client.post(f"/api/challenges/{challenge_id}/accept/")
    assert again.json()["id"] == accepted.json()["id"] == Match.objects.get().pk
    assert accepted.json()["stakes"]["status"] == "held"
    assert client.get(f"/api/challenges/{challenge_id}/").json()["status"] == "accepted"
    assert AuditEntry.objects.filter(action="challenge.accepted").count() == 1


def test_the_api_refuses_with_sentences_and_hides_others_challenges(client, campaign, player, outsider, amira,
                                                                    bastian, sent):
    client.force_login(player)
    response = client.post("/api/challenges/", {"challenger": amira.pk, "challenged": amira.pk,
                                                "game": "command-dice"}, content_type="application/json")
    assert response.status_code == 400
    assert "You cannot challenge yourself" in str(response.json())
    response = client.post("/api/challenges/", {"challenger": amira.pk, "challenged": 10**9, "game": "unity"},
                           content_type="application/json")
    assert response.status_code == 400
    assert "no commander" in str(response.json())
    assert client.post(f"/api/challenges/{sent.pk}/withdraw/").json()["status"] == "withdrawn"
    client.force_login(outsider)
    assert client.post(f"/api/challenges/{sent.pk}/decline/").status_code == 404
    assert client.get("/api/challenges/").json()["results"] == []


def test_the_api_starts_a_practice_game(client, campaign, player, amira):
    client.force_login(player)
    body = {"commander": amira.pk, "policy": "random", "game": "command-dice"}
    response = client.post("/api/matches/practice/", body, content_type="application/json")
    assert response.status_code == 201
    assert [seat["ai"] for seat in response.json()["seats"]] == ["", "random"]
    response = client.post("/api/matches/practice/", {**body, "stake": 5}, content_type="application/json")
    assert response.status_code == 400
    assert "Practice against an AI is for nothing at stake" in str(response.json())


def test_the_schema_lists_challenges_and_practice(client, player):
    client.force_login(player)
    schema = client.get("/api/schema/").content.decode()
    assert "/api/challenges/{id}/accept/" in schema
    assert "/api/matches/practice/" in schema
