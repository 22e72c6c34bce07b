from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"
    label = "moderation"
    verbose_name = _("Moderation")

    def ready(self) -> None:
        from chat import lines
        from ladder import permits
        from moderation import reports, restrictions

        # The chat's abuse filter reports to the moderators' queue (issue 25).
        lines.abuse_found.connect(reports.file_abuse_report, dispatch_uid="moderation-chat-abuse")
        # A moderator's restriction keeps a player out of the lobby, the pool and
        # tournaments: the ladder asks, and imports nothing of moderation (issue 36).
        permits.provide(restrictions.refusal)
