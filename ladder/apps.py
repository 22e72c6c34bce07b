from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LadderConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ladder"
    verbose_name = _("Ladder")

    def ready(self) -> None:
        # games shows a finished game's rating changes without importing the ladder.
        from games import bots, payloads, starting
        from games.signals import account_closed, game_aborted, game_finished
        from ladder import matchmaking, playban, seating, withdrawals
        from ladder.bot_accounts import is_api_bot, levels
        from ladder.game_ratings import ratings_json, snapshot_start_ratings
        from ladder.permits import may_rematch
        from ladder.ratings import rate_finished_game

        payloads.provide_ratings(ratings_json)
        starting.provide_start_ratings(snapshot_start_ratings)
        starting.provide_start_check(may_rematch)
        bots.provide_bot_levels(levels)
        bots.provide_api_only_check(is_api_bot)
        # A finished game moves ratings inside the transaction that records it.
        game_finished.connect(rate_finished_game, dispatch_uid="ladder.ratings")
        # Fair-play penalties count how each game ended, or who called it off.
        game_finished.connect(playban.game_finished, dispatch_uid="ladder.playban.finished")
        game_aborted.connect(playban.game_aborted, dispatch_uid="ladder.playban.aborted")
        # Sitting down to a real-time game from a seek or a challenge ends the
        # players' pool waits; matchmaking builds on seating, so it registers.
        seating.provide_before_real_time(matchmaking.take_out_of_pool)
        # A closed account waits for nothing in the lobby, wherever it was closed (issue 37).
        account_closed.connect(withdrawals.account_closed, dispatch_uid="ladder.withdrawals")
