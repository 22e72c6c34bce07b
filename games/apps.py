from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from django.core.signals import request_finished

        from chat.lines import lines_removed
        from games import chat, signins
        from games.sockets import close_request_connections

        signins.connect_signals()
        lines_removed.connect(chat.announce_removed, dispatch_uid="games.chat.removed")
        request_finished.connect(close_request_connections, dispatch_uid="games.close_request_connections")
