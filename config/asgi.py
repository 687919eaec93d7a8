"""ASGI entry point: HTTP through Django, WebSockets (``/ws/live/``) through Channels with the session's user,
from allowed hosts only. Served by uvicorn (`make run`, the Dockerfile, docker-compose)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
http_application = get_asgi_application()  # sets Django up before the consumers import models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from campaign.live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter({
    "http": http_application,
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
})
