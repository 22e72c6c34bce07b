"""Websocket URL patterns, gathered into the ProtocolTypeRouter by aceweb/asgi.py."""

from __future__ import annotations

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
