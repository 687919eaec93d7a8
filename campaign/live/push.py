"""Announcing a change to a topic's sockets: after the transaction commits, never failing or holding a request.

A topic is a channel-layer group name: ``match.<id>`` (a card table), ``commander.<id>`` (a commander's sheet and
purse), ``campaign.<id>.hour`` (the event clock's hour, seen by every member) and ``campaign.<id>.gm`` (anything
in the campaign, for its game masters). The message carries the topic and a version and nothing else: what
changed is read by the page over HTTP, through the same fog of war and hidden hands as every page. When the
channel layer (Redis) is down the message is logged and dropped, and for QUIET_SECONDS after a failure nothing
is tried (no request waits on a Redis known to be down); the pages' polls still find the change.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable, Sequence

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer  # type: ignore[import-untyped]
from django.db import transaction

log = logging.getLogger(__name__)

MESSAGE_TYPE = "topic.changed"
QUIET_SECONDS = 10.0
_quiet_until = 0.0
_pending: set[asyncio.Task] = set()


def match_topic(match_id: int) -> str:
    return f"match.{match_id}"


def commander_topic(commander_id: int) -> str:
    return f"commander.{commander_id}"


def hour_topic(campaign_id: int) -> str:
    return f"campaign.{campaign_id}.hour"


def gm_topic(campaign_id: int) -> str:
    return f"campaign.{campaign_id}.gm"


SENDING_AT_ONCE = 16
"""Messages of one announcement in flight together: a Day's close tells a thousand purses in one trip into the
event loop (not a loop each, 2 ms apiece), a few at a time (not a Redis connection each)."""


async def _send_all(layer, topics: Sequence[str], version: int | str) -> None:
    gate = asyncio.Semaphore(SENDING_AT_ONCE)

    async def one(topic: str) -> None:
        async with gate:
            await layer.group_send(topic, {"type": MESSAGE_TYPE, "topic": topic, "version": version})

    await asyncio.gather(*(one(topic) for topic in topics))


def _send(topics: Sequence[str], version: int | str) -> None:
    global _quiet_until
    if time.monotonic() < _quiet_until:
        return
    try:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            loop = asyncio.get_running_loop()  # a thread that runs an event loop cannot wait on one
        except RuntimeError:
            async_to_sync(_send_all)(layer, topics, version)
        else:
            task = loop.create_task(_send_all(layer, topics, version))
            _pending.add(task)  # held until done, so it is not collected half-sent
            task.add_done_callback(_pending.discard)
    except Exception:  # a push is a courtesy: whatever the layer raises, the request that changed things stands
        _quiet_until = time.monotonic() + QUIET_SECONDS
        log.warning("Could not announce a change to %s; the pages' polls will find it. Trying again in %s s.",
                    ", ".join(topics[:3]) + (" ..." if len(topics) > 3 else ""), QUIET_SECONDS, exc_info=True)


def announce(topic: str, version: int | str) -> None:
    """Tell `topic`'s sockets it is now at `version`, once the current transaction commits (at once outside one);
    a rolled-back change announces nothing."""
    announce_many([topic], version)


def announce_many(topics: Iterable[str], version: int | str) -> None:
    """`announce` for many topics at once (each hears `version`), sent together after the commit."""
    topics = list(topics)
    if topics:
        transaction.on_commit(lambda: _send(topics, version))
