"""Create the local demo players (ada, ben, cleo, dev) unless they exist already."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

PLAYERS = ("ada", "ben", "cleo", "dev")
# Long enough for the sign-in form's validators to accept it if typed as a new password.
PASSWORD = "ace-demo-1"


class Command(BaseCommand):
    help = (
        f"Create the demo players {', '.join(PLAYERS)} (password {PASSWORD!r}) for local use. "
        "Safe to run again: existing players are left as they are. "
        "Demo games between them come later, with the games feature."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("Refusing to create demo players with a public password while DEBUG is off.")
        for username in PLAYERS:
            self.stdout.write(self.seed_player(username))
        call_command("seed_bots", stdout=self.stdout)  # opponents for "Play the computer"

    def seed_player(self, username: str) -> str:
        users = get_user_model().objects
        if users.filter(username=username).exists():
            return f"Demo player exists: {username!r} (password left as it was)."
        users.create_user(username, f"{username}@example.org", PASSWORD)
        return self.style.SUCCESS(f"Demo player created: {username!r}, password {PASSWORD!r} (local use only).")
