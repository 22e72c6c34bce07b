from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    label = "api"
    verbose_name = _("Public API")

    def ready(self) -> None:
        from api import events, tokens
        from games.signals import account_closed

        events.connect()
        # A closed account's tokens are revoked, wherever it was closed (issue 37).
        account_closed.connect(tokens.account_closed, dispatch_uid="api.tokens.closed")
