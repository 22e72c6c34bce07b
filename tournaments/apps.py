from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    label = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # A finished game's result reaches its pairing in the transaction that
        # records it (games.signals); games imports nothing of tournaments.
        from chat.lines import lines_removed
        from games.signals import account_closed, game_finished
        from moderation import actions as moderation_actions
        from moderation.models import ModerationAction
        from tournaments import closing
        from tournaments.chat import announce_removed
        from tournaments.corrections import disqualify_act, overturn_act
        from tournaments.recording import record_game_result

        game_finished.connect(record_game_result, dispatch_uid="tournaments.results")
        # A moderator's removal of a line reaches the tournament's open pages (issue 25).
        lines_removed.connect(announce_removed, dispatch_uid="tournaments.chat.removed")
        # A moderator's disqualification is a moderation act that tournaments does:
        # moderation sits below and imports nothing of tournaments (issue 37).
        moderation_actions.provide(ModerationAction.Kind.DISQUALIFY, disqualify_act)
        # So is a moderator's adjudication of a finished tournament game: its
        # board, standings and podium follow the new result.
        moderation_actions.provide_event_overturn(overturn_act)
        # A closed account leaves the tournaments not over, wherever it was closed (issue 37).
        account_closed.connect(closing.account_closed, dispatch_uid="tournaments.closing")
