"""Reports from players, restrictions on accounts, and the log of what moderators did.

A moderator's act is a ModerationAction row: adding one (in the admin) does the
act (moderation.actions) and keeps who, when, why and what. The rows are
never changed or deleted, so they are the account's history.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from chat.models import ROOM_LENGTH, TIMEOUT_MINUTES as CHAT_MINUTES, ChatTimeout, Line
from ladder.models import ladder_choices

TEXT_LIMIT = 1000  # a report's free text: enough to explain, not a wall


class Report(models.Model):
    """One player's complaint about another, optionally about one finished game."""

    class Reason(models.TextChoices):
        CHEATING = "cheating", _("Cheating or engine use")
        ABUSE = "abuse", _("Abusive chat or name")
        SANDBAGGING = "sandbagging", _("Sandbagging or boosting")
        STALLING = "stalling", _("Stalling or leaving games")
        OTHER = "other", _("Other")
        # A restricted or playbanned player's own appeal (reporter and reported are
        # them): filed from its own page, never picked on a report about someone.
        APPEAL = "appeal", _("Appeal against a restriction or playban")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    class Outcome(models.TextChoices):
        NONE = "none", _("No action: nothing wrong found")
        WARNED = "warned", _("Warned the player")
        RESTRICTED = "restricted", _("Restricted the account")
        CLOSED_ACCOUNT = "closed_account", _("Closed the account")
        RESULT_CHANGED = "result_changed", _("Adjudicated or rating undone/refunded")
        LIFTED = "lifted", _("Lifted a restriction or reopened the account")

    # Empty: filed by the chat's abuse filter (chat.lines.abuse_found), not by a player.
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("reporter"), null=True,
                                 blank=True, related_name="reports_made")
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("reported player"),
                                 related_name="reports_against")
    game = models.ForeignKey("games.Game", models.SET_NULL, verbose_name=_("game"), null=True, blank=True,
                             related_name="+")
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    text = models.TextField(_("text"), max_length=TEXT_LIMIT, blank=True)
    created = models.DateTimeField(_("created"), default=timezone.now)
    status = models.CharField(_("status"), max_length=6, choices=Status.choices, default=Status.OPEN)
    # Filled when a moderator closes it.
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, models.SET_NULL, verbose_name=_("closed by"), null=True,
                                  blank=True, related_name="+")
    outcome = models.CharField(_("outcome"), max_length=16, choices=Outcome.choices, blank=True)
    note = models.TextField(_("note"), blank=True, help_text=_("The moderator's note: what was found and done."))

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["created", "pk"]
        constraints = [
            # One open report per reporter, reported player and game (or none): two
            # constraints, since NULLs are distinct in a plain unique constraint.
            models.UniqueConstraint(fields=["reporter", "reported", "game"],
                                    condition=Q(status="open", game__isnull=False),
                                    name="report_open_once_per_game"),
            models.UniqueConstraint(fields=["reporter", "reported"],
                                    condition=Q(status="open", game__isnull=True),
                                    name="report_open_once_without_game"),
        ]
        indexes = [models.Index(fields=["status", "created"], name="report_queue_idx")]

    def __str__(self) -> str:
        return gettext("Report %(number)s: %(reporter)s on %(reported)s (%(reason)s, %(status)s)") % {
            "number": self.pk, "reporter": self.reporter or gettext("the chat filter"), "reported": self.reported,
            "reason": self.get_reason_display(), "status": self.get_status_display()}


class Restriction(models.Model):
    """An account kept out of rated games, or out of seeks, challenges and the pool."""

    class Scope(models.TextChoices):
        RATED = "rated", _("rated games")
        LOBBY = "lobby", _("seeks, challenges and quick pairing")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("account"),
                             related_name="restrictions")
    scope = models.CharField(_("restricted from"), max_length=5, choices=Scope.choices)
    starts = models.DateTimeField(_("start"), default=timezone.now)
    ends = models.DateTimeField(_("end"), null=True, blank=True, help_text=_("Empty: until a moderator lifts it."))
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)
    # The moderator's reason, shown to the player with every notice of it.
    reason = models.TextField(_("reason"), blank=True)

    class Meta:
        verbose_name = _("restriction")
        verbose_name_plural = _("restrictions")
        ordering = ["-starts", "-pk"]
        indexes = [models.Index(fields=["user", "scope"], name="restriction_user_scope_idx")]

    def __str__(self) -> str:
        return gettext("%(user)s: kept out of %(scope)s") % {"user": self.user, "scope": self.get_scope_display()}

    def active(self, now: datetime) -> bool:
        return self.lifted_at is None and self.starts <= now and (self.ends is None or now < self.ends)


class ModerationAction(models.Model):
    """One act of a moderator, as the log of it: who, when, why, on whom or which game, and what."""

    class Kind(models.TextChoices):
        RESTRICT_RATED = "restrict_rated", _("Restrict from rated games")
        RESTRICT_LOBBY = "restrict_lobby", _("Restrict from seeks, challenges and quick pairing")
        CLOSE_ACCOUNT = "close_account", _("Close the account")
        ADJUDICATE = "adjudicate", _("Adjudicate a game's result")
        UNDO_RATING = "undo_rating", _("Undo a game's rating effect")
        REFUND = "refund", _("Refund the points the offender took from opponents")
        LIFT_RATED = "lift_rated", _("Lift a restriction from rated games")
        LIFT_LOBBY = "lift_lobby", _("Lift a restriction from seeks, challenges and pairing")
        REOPEN_ACCOUNT = "reopen_account", _("Reopen a closed account")
        CHAT_TIMEOUT = "chat_timeout", _("Time out of chat")
        CHAT_REMOVE = "chat_remove", _("Remove a chat line")
        CHAT_CLEAR = "chat_clear", _("Clear the account's chat lines of the last day")
        CHAT_LOCK = "chat_lock", _("Open a chat room to established accounts only")
        # Issue 37: what raw admin edits did, now as acts.
        ABORT_GAME = "abort_game", _("Abort a game")
        CORRECT_RATING = "correct_rating", _("Correct a rating")
        LIFT_PLAYBAN = "lift_playban", _("Lift or shorten a playban")
        DISQUALIFY = "disqualify", _("Disqualify a player from a tournament")

    kind = models.CharField(_("act"), max_length=16, choices=Kind.choices)
    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, verbose_name=_("moderator"),
                                  related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("account"), null=True, blank=True,
                             related_name="moderation_actions", help_text=_("The account acted on."))
    game = models.ForeignKey("games.Game", models.SET_NULL, verbose_name=_("game"), null=True, blank=True,
                             related_name="+", help_text=_("For adjudicating, aborting or undoing one game."))
    report = models.ForeignKey(Report, models.SET_NULL, verbose_name=_("report"), null=True, blank=True,
                               related_name="actions",
                               help_text=_("The report this answers, if any: the act closes it if it is open."))
    days = models.PositiveIntegerField(_("days"), null=True, blank=True,
                                       help_text=_("A restriction's length in days; empty: until lifted."))
    winner = models.CharField(_("winner"), max_length=8, blank=True,
                              help_text=_("Adjudication: the winning seat (e.g. red), or empty for a draw."))
    since = models.DateTimeField(_("from"), null=True, blank=True, help_text=_("Refund: the period's start."))
    until = models.DateTimeField(_("until"), null=True, blank=True, help_text=_(
        "Refund: the period's end (empty: now). Playban: its new end (empty: lift it now)."))
    # A rating correction (issue 37).
    ladder = models.CharField(_("ladder"), max_length=24, blank=True, choices=ladder_choices,
                              help_text=_("Rating correction: the ladder."))
    rating = models.PositiveIntegerField(_("rating"), null=True, blank=True,
                                         help_text=_("Rating correction: the new rating."))
    # Chat acts (issue 25).
    minutes = models.PositiveIntegerField(_("minutes"), null=True, blank=True, choices=CHAT_MINUTES,
                                          help_text=_("A chat timeout's or a room's lock's length."))
    chat_reason = models.CharField(_("chat timeout reason"), max_length=8, blank=True,
                                   choices=ChatTimeout.Reason.choices,
                                   help_text=_("A chat timeout: the reason the player is shown."))
    chat_line = models.ForeignKey(Line, models.SET_NULL, verbose_name=_("chat line"), null=True, blank=True,
                                  related_name="+", help_text=_("The line removed."))
    room = models.CharField(_("room"), max_length=ROOM_LENGTH, blank=True,
                            help_text=_("The room locked, as game:12, game:12/w or tournament:7."))
    reason = models.TextField(_("reason"),
                              help_text=_("Why: kept in the log. A restriction's reason is shown to the player, "
                                          "an adjudication's on the game."))
    created = models.DateTimeField(_("created"), default=timezone.now)
    outcome = models.TextField(_("outcome"), blank=True, help_text=_("What was done, written when it was done."))
    # A disqualification (done by tournaments.corrections, registered from its
    # AppConfig.ready()): the tournament by its number, as rooms name it, since
    # moderation sits below tournaments and names none of its models.
    tournament = models.PositiveIntegerField(_("tournament"), null=True, blank=True,
                                             help_text=_("A disqualification: the tournament's number."))
    scoring = models.CharField(_("scoring"), max_length=9, blank=True, choices=[
        ("forfeit", _("Their games count as lost by forfeit")), ("as-played", _("Their games count as played"))],
        help_text=_("A disqualification: how the player's games count."))

    class Meta:
        verbose_name = _("moderation act")
        verbose_name_plural = _("moderation acts")
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["user", "created"], name="moderation_action_user_idx")]
        permissions = [
            ("restrict_account", "Can restrict an account from rated games or the lobby"),
            ("close_account", "Can close or reopen an account"),
            ("adjudicate_game", "Can adjudicate a game's result"),
            ("undo_rating", "Can undo a game's rating effect"),
            ("refund_rating", "Can refund rating points taken by an offender"),
            ("lift_restriction", "Can lift a restriction"),
            ("moderate_chat", "Can time players out of chat, remove lines and lock rooms"),
            ("abort_game", "Can abort a running game"),
            ("correct_rating", "Can correct a player's rating"),
            ("lift_playban", "Can lift or shorten a playban"),
            ("disqualify_player", "Can disqualify a player from a tournament"),
        ]

    def __str__(self) -> str:
        return gettext("%(act)s: %(target)s by %(moderator)s") % {
            "act": self.get_kind_display(), "target": self.user or self.game, "moderator": self.moderator}
