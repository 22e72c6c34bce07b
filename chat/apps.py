from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    """Lines, mutes and chat timeouts, keyed by room strings so that this app
    never names the games or tournaments whose rooms they are (STYLE.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"
    verbose_name = _("Chat")
