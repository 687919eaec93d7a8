"""Announcing changes (campaign.live.push): after commit only, and never at the cost of the change itself."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from campaign.live import push

pytestmark = pytest.mark.django_db


def _listen(topic: str) -> str:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(topic, channel)
    return channel


def _heard(channel: str) -> list[dict]:
    layer = get_channel_layer()
    messages = []

    async def drain():
        while True:
            try:
                messages.append(await asyncio.wait_for(layer.receive(channel), 0.05))
            except TimeoutError:
                return

    async_to_sync(drain)()
    return messages


def test_a_change_is_announced_once_it_commits_and_never_when_it_rolls_back(django_capture_on_commit_callbacks):
    channel = _listen("match.7")
    with django_capture_on_commit_callbacks(execute=True):
        push.announce("match.7", 3)
    assert _heard(channel) == [{"type": "topic.changed", "topic": "match.7", "version": 3}]
    def failing_change():
        with transaction.atomic():
            push.announce("match.7", 4)
            raise RuntimeError("the change fails")

    with pytest.raises(RuntimeError):
        failing_change()
    assert _heard(channel) == []


def test_many_topics_are_announced_together_each_once_after_the_commit(django_capture_on_commit_callbacks):
    channels = {topic: _listen(topic) for topic in (f"commander.{n}" for n in range(40))}
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        push.announce_many(channels, 12)
    assert len(callbacks) == 1
    for topic, channel in channels.items():
        assert _heard(channel) == [{"type": "topic.changed", "topic": topic, "version": 12}]


def test_a_move_announces_the_table_and_the_game_masters_hear_the_audit(table, player, gm, campaign,
                                                                         django_capture_on_commit_callbacks):
    from cardgames.registry import game_for
    from cardgames.services import match_act

    channel = _listen(f"match.{table.pk}")
    engine = game_for(table.game)
    state = engine.load(table.state)
    seat = sorted(engine.to_move(state))[0]
    with django_capture_on_commit_callbacks(execute=True):
        match = match_act(match_id=table.pk, seat=seat, action=list(engine.legal_actions(state, seat)[0]),
                          user=table.seats.get(seat=seat).user)
    assert _heard(channel) == [{"type": "topic.changed", "topic": f"match.{table.pk}", "version": match.version}]


def test_a_redis_that_does_not_answer_costs_a_log_line_not_the_request(settings, caplog, table, monkeypatch,
                                                                       django_capture_on_commit_callbacks):
    from cardgames.registry import game_for
    from cardgames.services import match_act

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": ["redis://127.0.0.1:9/0"]}}}  # nothing listens there
    engine = game_for(table.game)
    state = engine.load(table.state)
    seat = sorted(engine.to_move(state))[0]
    monkeypatch.setattr(push, "_quiet_until", 0.0)
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="campaign.live.push"), \
            django_capture_on_commit_callbacks(execute=True):
        match = match_act(match_id=table.pk, seat=seat, action=list(engine.legal_actions(state, seat)[0]),
                          user=table.seats.get(seat=seat).user)
    assert match.version == table.version + 1, "the move stands"
    assert caplog.text.count("the pages' polls will find it") == 1, "then quiet: the audit's message is not tried"
    assert time.monotonic() - started < 3
    assert push._quiet_until > time.monotonic()
