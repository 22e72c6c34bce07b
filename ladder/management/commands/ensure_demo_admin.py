"""Create the local demo superuser (admin / admin) unless it exists already."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

USERNAME = "admin"
PASSWORD = "admin"


class Command(BaseCommand):
    help = "Create the demo admin account (admin / admin) for local use. Safe to run again."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("Refusing to create admin/admin with DEBUG off: create a real superuser.")
        users = get_user_model().objects
        if users.filter(username=USERNAME).exists():
            self.stdout.write(f"Demo admin exists: username {USERNAME!r} (password left as it was).")
            return
        users.create_superuser(USERNAME, "admin@example.org", PASSWORD)
        self.stdout.write(self.style.SUCCESS(
            f"Demo admin created: username {USERNAME!r}, password {PASSWORD!r} (local use only)."
        ))
