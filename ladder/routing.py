"""Websocket URL patterns of the ladder, gathered into the ProtocolTypeRouter by aceweb/asgi.py."""

from __future__ import annotations

from django.urls import URLPattern, path

from ladder.consumers import LobbyConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/lobby/", LobbyConsumer.as_asgi(), name="lobby-socket"),
]
