"""Websocket URL patterns of tournaments, gathered by aceweb/asgi.py."""

from __future__ import annotations

from django.urls import URLPattern, path

from tournaments.consumers import TournamentConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/tournaments/<id:tournament_id>/", TournamentConsumer.as_asgi(), name="tournament-socket"),
]
