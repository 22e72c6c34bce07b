"""Websocket URL patterns, gathered into the ProtocolTypeRouter by aceweb/asgi.py."""

from __future__ import annotations

from django.urls import URLPattern, path, re_path

from games.consumers import GameConsumer, LiveConsumer, NoSuchGameConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/games/<id:game_id>/", GameConsumer.as_asgi(), name="game-socket"),
    # Digits the ``id`` converter refused (0, past bigint): "there is no game", code 4404.
    re_path(r"^ws/games/(?P<game_id>[0-9]+)/$", NoSuchGameConsumer.as_asgi()),
    path("ws/live/", LiveConsumer.as_asgi(), name="live-socket"),
]
