from __future__ import annotations

from django.apps import AppConfig


class ModerationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ladder.moderation"
    label = "moderation"
    verbose_name = "Moderation"

    def ready(self) -> None:
        from chat import lines

        from ladder.moderation import reports

        # The chat's abuse filter reports to the moderators' queue (issue 25).
        lines.abuse_found.connect(reports.file_abuse_report, dispatch_uid="moderation-chat-abuse")
