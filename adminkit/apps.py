from __future__ import annotations

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class AdminkitConfig(AppConfig):
    """Installed for its template (the date-range filter) and for making the
    export permissions once the tables are there."""

    name = "adminkit"

    def ready(self) -> None:
        from adminkit.permissions import make_export_permissions

        post_migrate.connect(make_export_permissions, sender=self, dispatch_uid="adminkit-export-permissions")
