from __future__ import annotations

from django.apps import AppConfig


class LadderConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ladder"

    def ready(self) -> None:
        # games shows a finished game's rating changes without importing the ladder.
        from games import play
        from ladder.game_ratings import ratings_json

        play.provide_ratings(ratings_json)
