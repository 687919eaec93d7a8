"""The Redis channel layer as settings configure it: a socket waiting longer than the layer's 5-second blocking
pop still hears the next message (redis-py's default read timeout of 5 s would cut the wait off)."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from channels.layers import get_channel_layer

pytestmark = pytest.mark.redis


def test_a_quiet_socket_still_hears_the_next_change(settings):
    from config import settings as configured

    host = {**configured._REDIS_LAYER["CONFIG"]["hosts"][0], "address": os.environ["REDIS_URL"]}
    settings.CHANNEL_LAYERS = {"default": {**configured._REDIS_LAYER,
                                           "CONFIG": {**configured._REDIS_LAYER["CONFIG"], "hosts": [host]}}}

    async def scenario():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add("match.4242", channel)
        waiting = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(6)
        await layer.group_send("match.4242", {"type": "topic.changed", "topic": "match.4242", "version": 9})
        message = await asyncio.wait_for(waiting, 5)
        await layer.group_discard("match.4242", channel)
        await layer.flush()
        return message

    # A loop of its own, in a thread of its own: the browser tests' Playwright keeps an event loop running in
    # this thread for the whole session, where async_to_sync refuses to run.
    with ThreadPoolExecutor(max_workers=1) as thread:
        message = thread.submit(asyncio.run, scenario()).result(timeout=60)
    assert message == {"type": "topic.changed", "topic": "match.4242", "version": 9}
