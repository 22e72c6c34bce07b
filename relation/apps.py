from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RelationConfig(AppConfig):
    """Who follows whom (lila's modules/relation), on the lowest floor: it
    names users only, so games (the live list) and the ladder (profiles) both
    read it without it knowing either. Blocking stays with chat muting."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "relation"
    verbose_name = _("Follows")
