"""Admin pages for rows the site writes by its own rules: looked at, never
added, changed or deleted by hand, superusers included (a hand edit would skip
those rules and their log). For a ModelAdmin and an inline alike."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


class LookOnly:
    """Mixed in before ``admin.ModelAdmin`` or an inline class."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
