from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PreferencesConfig(AppConfig):
    """A player's settings that every floor reads (their language): the lowest
    app, importing only Django, so that games' consumers and Celery tasks can word
    a message for a person without reaching up into ladder."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "preferences"
    verbose_name = _("Preferences")

    def ready(self) -> None:
        from preferences import signals

        signals.connect_signals()
