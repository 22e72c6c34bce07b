from __future__ import annotations

from django.apps import AppConfig


class AdminkitConfig(AppConfig):
    """Installed for its template (the date-range filter) and for the migration
    that makes the export permissions."""

    name = "adminkit"
