"""The socket end to end in one process: joining is checked, a move reaches the
table's sockets after commit as a topic and a version and nothing more, and a forbidden topic is refused."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.test import Client

from campaign.live.consumers import REFUSED, LiveConsumer
from cardgames import selectors as card_selectors
from cardgames import services as card_services
from config.asgi import application
from tests.campaign.live.sockets import TestSocket

pytestmark = pytest.mark.django_db(transaction=True)


def _socket(user, topics: str) -> TestSocket:
    return TestSocket(LiveConsumer.as_asgi(), f"/ws/live/?topics={topics}", user=user)


def _first_move(match) -> None:
    from cardgames.registry import game_for

    engine = game_for(match.game)
    state = engine.load(match.state)
    seat = sorted(engine.to_move(state))[0]
    user = match.seats.get(seat=seat).user
    card_services.match_act(match_id=match.pk, seat=seat, action=list(engine.legal_actions(state, seat)[0]),
                            user=user, expected_version=match.version)


def test_both_seats_hear_a_move_as_a_topic_and_a_version_only(table, player, rival, gm):
    topic = f"match.{table.pk}"

    async def scenario():
        sockets = [_socket(user, topic) for user in (player, rival, gm)]
        for socket in sockets:
            connected, _ = await socket.connect()
            assert connected
        await database_sync_to_async(_first_move)(table)
        version = await database_sync_to_async(card_selectors.match_version)(match_id=table.pk)
        for socket in sockets:
            message = await socket.receive_json_from(timeout=2)
            assert message == {"topic": topic, "version": version}, "no game content on the socket"
            assert await socket.receive_nothing(timeout=0.1), "one message per move"
            await socket.disconnect()

    async_to_sync(scenario)()


def test_a_member_without_a_seat_is_refused_and_hears_no_move(table, campaign):
    from tests.campaign.factories import MembershipFactory, UserFactory

    onlooker = MembershipFactory(campaign=campaign, user=UserFactory(username="onlooker")).user

    async def scenario():
        socket = _socket(onlooker, f"match.{table.pk}")
        connected, code = await socket.connect()
        assert (connected, code) == (False, REFUSED)

    async_to_sync(scenario)()


def test_a_player_cannot_listen_to_another_commanders_topic(campaign, player, rival):
    from tests.campaign.factories import CommanderFactory

    theirs = CommanderFactory(campaign=campaign, player=rival)

    async def scenario():
        socket = _socket(player, f"campaign.{campaign.pk}.hour,commander.{theirs.pk}")
        connected, code = await socket.connect()
        assert (connected, code) == (False, REFUSED), "one forbidden topic refuses the socket"

    async_to_sync(scenario)()


def test_a_purse_change_reaches_its_commanders_socket_and_no_other(campaign, gm, player, rival):
    from campaign.economy import ledger
    from tests.campaign.factories import CommanderFactory

    mine = CommanderFactory(campaign=campaign, player=player)
    theirs = CommanderFactory(campaign=campaign, player=rival)

    async def scenario():
        own, other = _socket(player, f"commander.{mine.pk}"), _socket(rival, f"commander.{theirs.pk}")
        assert (await own.connect())[0]
        assert (await other.connect())[0]
        await database_sync_to_async(ledger.ledger_grant)(commander=mine, amount=5, reason="Prize", actor=gm)
        message = await own.receive_json_from(timeout=2)
        assert set(message) == {"topic", "version"}
        assert message["topic"] == f"commander.{mine.pk}"
        assert await other.receive_nothing(timeout=0.2), "another commander's purse is none of theirs"
        await own.disconnect()
        await other.disconnect()

    async_to_sync(scenario)()


def test_the_real_application_reads_the_session_and_checks_the_origin(campaign, player):
    client = Client()
    client.force_login(player)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    topic = f"campaign.{campaign.pk}.hour"

    async def connect(headers):
        socket = TestSocket(application, f"/ws/live/?topics={topic}", headers=headers)
        connected, _ = await socket.connect()
        if connected:
            await socket.disconnect()
        return connected

    async def scenario():
        assert await connect([(b"origin", b"http://localhost"), (b"cookie", cookie)])
        assert not await connect([(b"origin", b"http://localhost")]), "no session, no socket"
        assert not await connect([(b"origin", b"http://evil.example"), (b"cookie", cookie)]), "another site"

    async_to_sync(scenario)()


def test_a_game_masters_console_counts_them_online_until_it_closes(campaign, gm):
    from campaign.live.presence import presence_online

    async def scenario():
        socket = _socket(gm, f"campaign.{campaign.pk}.gm")
        assert (await socket.connect())[0]
        assert await socket.receive_json_from(timeout=2) == {"topic": f"campaign.{campaign.pk}.gm",
                                                            "version": "presence"}
        assert presence_online(campaign_id=campaign.pk) == {gm.pk}
        await socket.send_json_to({"type": "ping"})
        await socket.disconnect()
        assert presence_online(campaign_id=campaign.pk) == set()

    async_to_sync(scenario)()
