from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    label = "api"
    verbose_name = _("Public API")

    def ready(self) -> None:
        from api import events

        events.connect()
