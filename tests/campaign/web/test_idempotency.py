"""Every unsafe request may carry an idempotency key: applied at most once, a repeat answered with the first
answer, a key reused for another action refused with a sentence, a stale move remembered as stale."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from campaign.models import IdempotentRequest, MoveOrder
from cardgames import selectors
from cardgames.models import Match
from cardgames.services import SeatSpec, match_create
from tests.campaign.factories import CommanderFactory, MembershipFactory, UserFactory
from tests.campaign.map_fixtures import make_army, make_map, ready

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(campaign, gm, player):
    rival = MembershipFactory(campaign=campaign, user=UserFactory(username="rival")).user
    return match_create(campaign=campaign, game="command-dice", actor=gm, seed=11,
                        seats=[SeatSpec("player1", player), SeatSpec("rival", rival)])


def act_url(match) -> str:
    return f"/c/{match.campaign.slug}/matches/{match.pk}/act/"


def first_move(match) -> str:
    return json.dumps(json.loads(selectors.match_table(match=match, seat=0).actions[0][1]))


def test_a_move_sent_twice_with_one_key_is_played_once_and_the_repeat_gets_the_same_answer(client, player, duel):
    client.force_login(player)
    form = {"action": first_move(duel), "v": "0"}
    first = client.post(act_url(duel), form, HTTP_IDEMPOTENCY_KEY="move-key-0001")
    again = client.post(act_url(duel), form, HTTP_IDEMPOTENCY_KEY="move-key-0001")
    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"]
    assert again["Idempotent-Replayed"] == "true"
    assert Match.objects.get(pk=duel.pk).version == 1
    assert IdempotentRequest.objects.get(key="move-key-0001").status == 302


def test_the_key_may_come_in_a_forms_hidden_field(client, player, duel):
    client.force_login(player)
    form = {"action": first_move(duel), "v": "0", "idempotency_key": "form-key-0001"}
    client.post(act_url(duel), form)
    client.post(act_url(duel), form)
    assert Match.objects.get(pk=duel.pk).version == 1


def test_a_stale_queued_move_gets_its_sentence_and_stays_stale(client, player, duel):
    """The offline queue's replay asks for an account (Muster-Replay) and shows the sentence."""
    client.force_login(player)
    move = first_move(duel)
    client.post(act_url(duel), {"action": move, "v": "0"})
    replay = {"HTTP_IDEMPOTENCY_KEY": "queued-0001", "HTTP_MUSTER_REPLAY": "1"}
    stale = client.post(act_url(duel), {"action": move, "v": "0"}, **replay)
    account = stale.json()
    assert account["applied"] is False
    assert "The table moved on since your page was drawn: your move was not played" in account["sentence"]
    assert client.post(act_url(duel), {"action": move, "v": "0"}, **replay).json() == {**account, "replayed": True}
    assert Match.objects.get(pk=duel.pk).version == 1


def test_an_applied_queued_move_says_so(client, player, duel):
    client.force_login(player)
    account = client.post(act_url(duel), {"action": first_move(duel), "v": "0"}, HTTP_IDEMPOTENCY_KEY="queued-0002",
                          HTTP_MUSTER_REPLAY="1").json()
    assert (account["status"], account["applied"], account["replayed"]) == (302, True, False)


def test_a_stale_move_from_htmx_is_a_409_with_the_table_and_its_sentence(client, player, duel):
    client.force_login(player)
    stale = client.post(act_url(duel), {"action": first_move(duel), "v": "3"}, HTTP_HX_REQUEST="true")
    assert stale.status_code == 409
    assert "your move was not played" in stale.content.decode()


def test_a_key_reused_for_another_action_is_refused_with_a_sentence(client, player, duel):
    client.force_login(player)
    client.post(act_url(duel), {"action": first_move(duel), "v": "0"}, HTTP_IDEMPOTENCY_KEY="shared-key-01")
    other = client.post(f"/c/{duel.campaign.slug}/matches/{duel.pk}/cancel/", HTTP_IDEMPOTENCY_KEY="shared-key-01")
    assert other.status_code == 422
    assert "already used for another action" in other.content.decode()


def test_a_malformed_key_is_refused_with_what_to_send(client, player, duel):
    client.force_login(player)
    response = client.post(act_url(duel), {"action": first_move(duel), "v": "0"}, HTTP_IDEMPOTENCY_KEY="x y")
    assert response.status_code == 400
    assert "send a fresh random one" in response.content.decode()
    assert Match.objects.get(pk=duel.pk).version == 0


def test_a_refused_request_is_forgotten_so_its_retry_runs(client, player, duel):
    """A CSRF refusal (403) changed nothing: the retry with a good token is applied."""
    strict = type(client)(enforce_csrf_checks=True)
    strict.force_login(player)
    refused = strict.post(act_url(duel), {"action": first_move(duel), "v": "0"}, HTTP_IDEMPOTENCY_KEY="csrf-key-01")
    assert refused.status_code == 403
    assert not IdempotentRequest.objects.filter(key="csrf-key-01").exists()
    client.force_login(player)
    client.post(act_url(duel), {"action": first_move(duel), "v": "0"}, HTTP_IDEMPOTENCY_KEY="csrf-key-01")
    assert Match.objects.get(pk=duel.pk).version == 1


def test_the_api_with_a_token_applies_a_key_once_and_keys_are_per_user(player, duel):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=player).key}")
    body = {"action": json.loads(first_move(duel)), "version": 0}
    first = api.post(f"/api/matches/{duel.pk}/act/", body, format="json", HTTP_IDEMPOTENCY_KEY="api-key-0001")
    again = api.post(f"/api/matches/{duel.pk}/act/", body, format="json", HTTP_IDEMPOTENCY_KEY="api-key-0001")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert Match.objects.get(pk=duel.pk).version == 1
    stale = api.post(f"/api/matches/{duel.pk}/act/", body, format="json", HTTP_IDEMPOTENCY_KEY="api-key-0002")
    assert stale.status_code == 409
    assert "your move was not played" in stale.json()["detail"]
    assert IdempotentRequest.objects.filter(user=player).count() == 2


@override_settings(IDEMPOTENCY_KEY_HOURS=1)
def test_old_keys_are_forgotten_when_the_user_sends_a_new_one(client, player, duel):
    from datetime import timedelta

    from django.utils import timezone

    client.force_login(player)
    client.post(act_url(duel), {"action": first_move(duel), "v": "0"}, HTTP_IDEMPOTENCY_KEY="old-key-0001")
    IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(hours=2))
    client.post(f"/c/{duel.campaign.slug}/matches/{duel.pk}/act/", {"action": "[]", "v": "1"},
                HTTP_IDEMPOTENCY_KEY="new-key-0001")
    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["new-key-0001"]


@pytest.mark.django_db(transaction=True)
def test_two_copies_of_one_action_racing_are_applied_once(player, duel):
    """A phone's retry that overtakes the first attempt: the key's row, written first in the action's own
    transaction, makes the second wait for the first and then answer with its stored answer."""
    import threading

    from django.db import connection
    from django.test import Client

    form = {"action": first_move(duel), "v": "0"}
    start, answers = threading.Barrier(2), []

    def send():
        client = Client()
        client.force_login(player)
        start.wait()
        try:
            answers.append(client.post(act_url(duel), form, HTTP_IDEMPOTENCY_KEY="racing-key-01"))
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answer.status_code for answer in answers) == [302, 302]
    assert sorted(answer.has_header("Idempotent-Replayed") for answer in answers) == [False, True]
    assert Match.objects.get(pk=duel.pk).version == 1


def test_a_map_order_kept_offline_is_given_once_and_its_replays_say_what_the_api_said(client, campaign, event, player):
    """The map's order confirmation, queued by the service worker, sent with the session and its key."""
    ready(event)
    army = make_army(make_map(campaign), commander=CommanderFactory(campaign=campaign, player=player), at=(5, 5),
                     name="Ford Guard")
    client.force_login(player)
    order = {"army": army.pk, "kind": "point", "x": 11, "y": 5}
    replies = [client.post("/api/move-orders/", order, content_type="application/json",
                           HTTP_IDEMPOTENCY_KEY="map-order-0001", HTTP_MUSTER_REPLAY="1") for _ in range(2)]
    assert MoveOrder.objects.filter(army=army).count() == 1
    said = "Orders sent: Ford Guard arrives at hour 2."
    assert [(r.json()["applied"], r.json()["sentence"], r.json()["replayed"]) for r in replies] == [
        (True, said, False), (True, said, True)]


def test_a_map_order_refused_on_replay_says_why(client, campaign, event, player):
    ready(event)
    army = make_army(make_map(campaign), commander=CommanderFactory(campaign=campaign, player=player), at=(5, 5))
    client.force_login(player)
    reply = client.post("/api/move-orders/", {"army": army.pk, "kind": "point", "x": 500, "y": 5},
                        content_type="application/json", HTTP_IDEMPOTENCY_KEY="map-order-0002", HTTP_MUSTER_REPLAY="1")
    assert reply.status_code == 400
    assert reply.json()["detail"]  # the sentence the offline banner shows
    assert not MoveOrder.objects.exists()
