"""The one socket endpoint, ``/ws/live/?topics=a,b``: joins the topics the user may hear (topics.py decides, all
or none) and forwards each "topic changed, version N" as ``{"topic": ..., "version": ...}``. It sends nothing
else, so a socket can carry no game content whatever it joins. A game master's socket on ``campaign.<id>.gm``
also counts them as online (presence.py) while it pings.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from campaign.live import presence, push
from campaign.live.topics import topics_allowed

REFUSED = 4403


def _gm_campaigns(topics: list[str]) -> list[int]:
    return [int(t.split(".")[1]) for t in topics if t.startswith("campaign.") and t.endswith(".gm")]


class LiveConsumer(AsyncJsonWebsocketConsumer):
    topics: list[str]

    async def connect(self) -> None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.topics = sorted({t for t in ",".join(query.get("topics", [])).split(",") if t})
        if not await database_sync_to_async(topics_allowed)(self.scope.get("user"), self.topics):
            self.topics = []
            await self.close(code=REFUSED)
            return
        for topic in self.topics:
            await self.channel_layer.group_add(topic, self.channel_name)
        await self.accept()
        await self._mark_present(online=True)

    async def disconnect(self, code: int) -> None:
        for topic in self.topics:
            await self.channel_layer.group_discard(topic, self.channel_name)
        await self._mark_present(online=False)

    async def receive_json(self, content, **kwargs) -> None:
        """A ping keeps a game master counted as online; nothing else is read from the browser."""
        if isinstance(content, dict) and content.get("type") == "ping":
            await self._mark_present(online=True)

    async def topic_changed(self, event: dict) -> None:
        await self.send_json({"topic": event["topic"], "version": event["version"]})

    async def _mark_present(self, *, online: bool) -> None:
        user = self.scope.get("user")
        for campaign_id in _gm_campaigns(self.topics):
            changed = await database_sync_to_async(presence.presence_mark)(
                campaign_id=campaign_id, user_id=user.pk, online=online)
            if changed:
                await self.channel_layer.group_send(push.gm_topic(campaign_id), {
                    "type": push.MESSAGE_TYPE, "topic": push.gm_topic(campaign_id), "version": "presence"})
