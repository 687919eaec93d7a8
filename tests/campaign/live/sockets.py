"""A socket client for tests that runs the ASGI application in-process (channels.testing needs daphne, which
Muster does not serve with): connect, read and send JSON, close."""

from __future__ import annotations

import json

from asgiref.testing import ApplicationCommunicator


class TestSocket(ApplicationCommunicator):
    __test__ = False  # not a test class, whatever its name

    def __init__(self, application, url: str, *, user=None, headers: list[tuple[bytes, bytes]] | None = None):
        path, _, query = url.partition("?")
        scope = {"type": "websocket", "path": path, "query_string": query.encode(), "headers": headers or [],
                 "subprotocols": []}
        if user is not None:
            scope["user"] = user
        super().__init__(application, scope)

    async def connect(self, timeout: float = 2) -> tuple[bool, int | None]:
        """(True, None) when accepted, (False, close code) when refused."""
        await self.send_input({"type": "websocket.connect"})
        answer = await self.receive_output(timeout)
        if answer["type"] == "websocket.close":
            return False, answer.get("code", 1000)
        assert answer["type"] == "websocket.accept", answer
        return True, None

    async def receive_json_from(self, timeout: float = 2) -> dict:
        answer = await self.receive_output(timeout)
        assert answer["type"] == "websocket.send", answer
        return json.loads(answer["text"])

    async def send_json_to(self, data: dict) -> None:
        await self.send_input({"type": "websocket.receive", "text": json.dumps(data)})

    async def disconnect(self, code: int = 1000, timeout: float = 2) -> None:
        await self.send_input({"type": "websocket.disconnect", "code": code})
        await self.wait(timeout)
