"""Websocket URL patterns, gathered into the ProtocolTypeRouter by aceweb/asgi.py."""

from __future__ import annotations

from django.urls import URLPattern, path

from games.consumers import GameConsumer, LiveConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi(), name="game-socket"),
    path("ws/live/", LiveConsumer.as_asgi(), name="live-socket"),
]
