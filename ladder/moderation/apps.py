from __future__ import annotations

from django.apps import AppConfig


class ModerationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ladder.moderation"
    label = "moderation"
    verbose_name = "Moderation"
