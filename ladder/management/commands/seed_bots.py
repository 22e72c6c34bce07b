"""Create the computer players, one per engine level, unless they exist already."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games import bots
from ladder.bot_accounts import ensure_bot_accounts


class Command(BaseCommand):
    help = (
        "Create one bot account per engine level (bot-random, bot-greedy, ...), flagged as a bot "
        "on the ladder. Bots have no usable password and no e-mail: only Celery workers play them. "
        "Safe to run again, and in production."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        for user, created in ensure_bot_accounts():
            level = user.player.bot_level
            if created:
                self.stdout.write(self.style.SUCCESS(
                    f"Bot account added: {user.username!r} ({bots.level_label(level)})."))
            else:
                self.stdout.write(f"Bot account kept: {user.username!r} ({bots.level_label(level)}).")
