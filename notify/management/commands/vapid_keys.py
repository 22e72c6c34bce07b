"""Make a VAPID key pair for web push (docs/notifications.md)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from notify.keys import new_pair


class Command(BaseCommand):
    help = ("Print a new VAPID key pair for web push, as WEBPUSH_VAPID_PUBLIC_KEY=... and "
            "WEBPUSH_VAPID_PRIVATE_KEY=... lines for the environment. With --dev, write a pair to "
            "VAPID_DEV_FILE for local development instead, unless one is set or written already.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dev", action="store_true",
                            help="write a development pair to VAPID_DEV_FILE (git-ignored; read only while DEBUG)")

    def handle(self, *args: Any, dev: bool = False, **options: Any) -> None:
        if not dev:
            for name, value in new_pair().items():
                self.stdout.write(f"{name}={value}")
            return
        if settings.WEBPUSH_VAPID_PUBLIC_KEY and settings.WEBPUSH_VAPID_PRIVATE_KEY:
            return  # set in the environment, or written before: keep it (browsers subscribed with it)
        path = settings.VAPID_DEV_FILE
        path.write_text("".join(f"{name}={value}\n" for name, value in new_pair().items()))
        path.chmod(0o600)
        self.stdout.write(f"Web push: wrote a development VAPID key pair to {path}")
