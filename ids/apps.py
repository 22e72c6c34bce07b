from __future__ import annotations

from django.apps import AppConfig


class IdsConfig(AppConfig):
    """Registers the ``id`` path converter before any urls.py or routing.py is
    read (both are loaded after the apps are ready)."""

    name = "ids"

    def ready(self) -> None:
        from django.urls import register_converter

        from ids.rows import IdConverter

        register_converter(IdConverter, "id")
