from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from django.core.signals import request_finished

        from games import signins
        from games.sockets import close_request_connections

        signins.connect_signals()
        request_finished.connect(close_request_connections, dispatch_uid="games.close_request_connections")
