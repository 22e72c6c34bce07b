from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from django.core.signals import request_finished

        from chat.lines import lines_removed, provide_silence
        from games import botmoves, broadcast, chat, notices, partners, signins, starting, tasks, turns
        from games.signals import game_finished
        from games.sockets import close_request_connections
        from notify import live

        signins.connect_signals()
        lines_removed.connect(chat.announce_removed, dispatch_uid="games.chat.removed")
        # Issue 35: partners of a running team game say nothing anywhere and sit at no other game together (RH36).
        provide_silence(partners.silence)
        starting.provide_table_check(partners.refusal)
        request_finished.connect(close_request_connections, dispatch_uid="games.close_request_connections")
        # Issue 26: the "your turn" list, its notices, and the end of a game.
        live.provide_turns(turns.turns_json)
        broadcast.listen_to_moves(tasks.queue_turn_notice)
        # A bot to move gets its move queued (games.botmoves), for a new game and after each move.
        broadcast.listen_to_turns(botmoves.after_change)
        game_finished.connect(notices.game_finished, dispatch_uid="games.notices.finished")
