"""The socket URLs served by config.asgi."""

from django.urls import path

from campaign.live.consumers import LiveConsumer

websocket_urlpatterns = [path("ws/live/", LiveConsumer.as_asgi())]
