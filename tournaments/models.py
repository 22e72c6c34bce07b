"""Tournament rows: the tournament and its settings, who entered, the rounds,
and each round's boards (pairings) with the game played on them.

The rules of each format are pure modules beside this one (swiss, berger,
brackets, tiebreaks); running a tournament (pairing a round, starting its
games, recording results) is ``entering.py``, ``organizing.py``, ``advancing.py``
and ``recording.py``, driven by Celery (``tasks.py``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.starting import setup_of, setups
from games.timecontrols import TimeControl
from ladder.models import ladder_of
from tournaments.tiebreaks import TIEBREAKS

# FIDE's acronyms (C.07), in the order offered; tiebreaks.py computes them.
TIEBREAK_CHOICES = {code: tiebreak.label for code, tiebreak in TIEBREAKS.items()}
DEFAULT_TIEBREAKS = "BH-C1,BH,SB"
# A round robin's field meets everyone, so Buchholz is everyone's same total
# against score: FIDE advises Sonneborn-Berger, direct encounter, then wins
# there (C.07 art. 13; WON: games won at the board, see tiebreaks.py).
ROUND_ROBIN_TIEBREAKS = "SB,DE,WON"


def _tiebreaks_help() -> str:
    """The tiebreaks field's help, worded when shown, in the reader's language."""
    return gettext("Comma-separated, in order: %(codes)s. Blank: Swiss %(swiss)s; round robin %(robin)s") % {
        "codes": ", ".join(TIEBREAK_CHOICES), "swiss": DEFAULT_TIEBREAKS, "robin": ROUND_ROBIN_TIEBREAKS}


def default_tiebreaks(format: str) -> str:
    """The tiebreaks a tournament of ``format`` gets when the organizer leaves them blank."""
    return ROUND_ROBIN_TIEBREAKS if format == "round-robin" else DEFAULT_TIEBREAKS


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round-robin", _("Round robin")
        SINGLE = "single", _("Single elimination")
        DOUBLE = "double", _("Double elimination")

    class Status(models.TextChoices):
        UPCOMING = "upcoming", pgettext_lazy("tournament status", "Upcoming")
        RUNNING = "running", pgettext_lazy("tournament status", "Running")
        PAUSED = "paused", pgettext_lazy("tournament status", "Paused")
        FINISHED = "finished", pgettext_lazy("tournament status", "Finished")
        CANCELLED = "cancelled", pgettext_lazy("tournament status", "Cancelled")

    class ChatFor(models.TextChoices):
        """Who writes in the tournament's chat (lichess Swiss's chatFor); everyone reads it unless it is off."""

        ENTRANTS = "entrants", _("Players and the organizer")
        PLAYERS = "players", _("Players only")
        ORGANIZER = "organizer", _("The organizer's announcements only")
        OFF = "off", _("Nobody: no chat")

    class Seeding(models.TextChoices):
        RATING = "rating", _("By rating")
        RANDOM = "random", pgettext_lazy("seeding", "Random")
        MANUAL = "manual", _("Organizer's order")

    name = models.CharField(_("name"), max_length=100)
    description = models.TextField(_("description"), blank=True)
    organizer = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, verbose_name=_("organizer"),
                                  related_name="organized_tournaments")
    format = models.CharField(_("format"), max_length=12, choices=Format.choices, default=Format.SWISS)
    # Which game is played (games.starting.Setup.key): "ace-in-the-hole", "rhombus",
    # "rhombus-formation". Two players a board, so Rhombus's two-player game.
    rules = models.CharField(_("game type"), max_length=40, default="ace-in-the-hole",
                             choices=[(key, setup.title) for key, setup in setups().items()])
    # TimeControl.key, as seeks hold it: "5+3" real time, "3d" correspondence.
    time_control = models.CharField(_("time control"), max_length=8, default="5+3")
    rated = models.BooleanField(_("rated"), default=True)
    starts_at = models.DateTimeField(_("starts at"))
    max_players = models.PositiveIntegerField(_("most players"), default=64)
    # Entry conditions; blank means none.
    min_rating = models.PositiveIntegerField(_("lowest rating"), null=True, blank=True)
    max_rating = models.PositiveIntegerField(_("highest rating"), null=True, blank=True)
    min_rated_games = models.PositiveIntegerField(_("rated games played, at least"), default=0)
    min_account_days = models.PositiveIntegerField(_("account age in days, at least"), default=0)
    bots_allowed = models.BooleanField(_("bots may enter"), default=False)
    # Blank: registration stays open until the start (Swiss: late join, see entering.py).
    registration_closes_at = models.DateTimeField(_("registration closes at"), null=True, blank=True)
    # Elimination formats: players must check in during this many minutes
    # before the start, or are dropped before seeding. 0: no check-in.
    check_in_minutes = models.PositiveIntegerField(_("check-in (minutes before the start)"), default=0)
    seeding = models.CharField(_("seeding"), max_length=6, choices=Seeding.choices, default=Seeding.RATING)
    rounds = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True,
                                              help_text=_("Swiss: number of rounds"))
    double_round_robin = models.BooleanField(_("double round robin"), default=False)
    match_length = models.PositiveSmallIntegerField(
        _("match length"), default=1, choices=[(1, _("Best of 1")), (3, _("Best of 3")), (5, _("Best of 5"))],
        help_text=_("Elimination: games per match; a tied match goes to extra games"))
    third_place = models.BooleanField(_("third-place match"), default=False,
                                      help_text=_("Single elimination: a third-place match"))
    grand_final_reset = models.BooleanField(_("grand final reset"), default=True, help_text=_("Double elimination"))
    pause_seconds = models.PositiveIntegerField(_("pause between rounds (seconds)"), default=60,
                                                help_text=_("Between the rounds"))
    chat_for = models.CharField(_("Chat"), max_length=9, choices=ChatFor.choices, default=ChatFor.ENTRANTS)
    # Blank: the format's default (default_tiebreaks), filled in on saving.
    tiebreaks = models.CharField(_("tiebreaks"), max_length=60, blank=True, default="",
                                 help_text=lazy(_tiebreaks_help, str)())

    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.UPCOMING)
    # The round being played, or 0 before the first.
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    # When the next round is to be paired; set as the previous one ends (plus the pause).
    next_round_at = models.DateTimeField(_("next round at"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # When its entrants were told it starts in 5 minutes (notices.tell_starting_soon): once.
    soon_told_at = models.DateTimeField(_("entrants told of the start at"), null=True, blank=True)
    # Why it ended before its last round (no legal pairing, cancelled, ...).
    end_note = models.CharField(_("end note"), max_length=200, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # Counts every change watchers are told of: a page that finds a higher
    # one than it shows (a missed message) reloads its live part.
    version = models.PositiveIntegerField(_("version"), default=0)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_at", "-pk"]
        permissions = [("organize_tournament", "Can organize tournaments")]
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return f"/tournaments/{self.pk}/"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if "tiebreaks" not in self.get_deferred_fields() and not self.tiebreaks.strip():
            self.tiebreaks = default_tiebreaks(self.format)
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], "tiebreaks"}
        super().save(*args, **kwargs)

    @property
    def tc(self) -> TimeControl:
        return TimeControl.parse(self.time_control)

    @property
    def ladder(self) -> str:
        """The ladder its players are seeded, limited and rated by (ladder.models.LADDERS)."""
        return ladder_of(setup_of(self.rules).kind, 2)

    @property
    def elimination(self) -> bool:
        return self.format in (self.Format.SINGLE, self.Format.DOUBLE)

    @property
    def tiebreak_codes(self) -> list[str]:
        return [code for code in self.tiebreaks.split(",") if code in TIEBREAK_CHOICES]

    @property
    def check_in_opens_at(self) -> datetime | None:
        if not self.check_in_minutes:
            return None
        return self.starts_at - timedelta(minutes=self.check_in_minutes)

    @property
    def registration_open(self) -> bool:
        return self.status == self.Status.UPCOMING or (
            self.format == self.Format.SWISS and self.status in (self.Status.RUNNING, self.Status.PAUSED))


class Entry(models.Model):
    """One player's place in a tournament, from joining to the end."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, verbose_name=_("tournament"), related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, verbose_name=_("player"),
                             related_name="tournament_entries")
    # The pairing number (TRF), given at the start by the seeding; late
    # joiners (Swiss) get the next free number.
    number = models.PositiveIntegerField(_("pairing number"), null=True, blank=True)
    # The organizer's order, for manual seeding (lowest first).
    manual_seed = models.PositiveIntegerField(_("manual seed"), null=True, blank=True)
    # The ladder rating when the entry was made, fixed at the start (seeding,
    # ARO and performance rating use it).
    rating = models.PositiveIntegerField(_("rating"), default=1500)
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    # Left the tournament: withdrew, was removed, missed check-in, or forfeited twice.
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    withdrawn_why = models.CharField(_("why withdrawn"), max_length=100, blank=True)
    # The round after which the entry left (0: before the start).
    withdrawn_after_round = models.PositiveSmallIntegerField(_("withdrawn after round"), null=True, blank=True)
    # Lost games by not showing up (Game.Reason.NO_SHOW); two mean withdrawal.
    no_shows = models.PositiveSmallIntegerField(_("no-shows"), default=0)
    # Round robin: a player who left before playing half of their games has
    # every result annulled (entering.py).
    annulled = models.BooleanField(_("results annulled"), default=False)
    # The place finished in, set when the tournament finishes (scoring.py):
    # the standings' rank (points, then tiebreaks), or the bracket's place.
    # Places may be shared ("3, 3" for two semi-final losers).
    place = models.PositiveIntegerField(_("place"), null=True, blank=True)

    class Disqualified(models.TextChoices):
        """How a disqualified player's games count (tournaments.corrections)."""

        FORFEIT = "forfeit", _("Their games count as lost by forfeit")
        AS_PLAYED = "as-played", _("Their games count as played")

    # Disqualified by a correction (tournaments.corrections), and how their games
    # count; blank: not disqualified. The entry is kept, so its pairings are too.
    disqualified = models.CharField(_("disqualified"), max_length=9, blank=True, choices=Disqualified.choices)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", F("number").asc(nulls_last=True), "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_once_per_tournament"),
            models.UniqueConstraint(fields=["tournament", "number"], condition=Q(number__isnull=False),
                                    name="entry_number_unique"),
        ]

    def __str__(self) -> str:
        return gettext("%(user)s in %(tournament)s") % {"user": self.user, "tournament": self.tournament_id}

    @property
    def active(self) -> bool:
        return self.withdrawn_at is None

    @property
    def forfeits_all(self) -> bool:
        """Disqualified with every game counted as lost by forfeit (scoring.trf_players)."""
        return self.disqualified == self.Disqualified.FORFEIT


class Round(models.Model):
    """One round: of a Swiss or round robin, or of an elimination bracket
    (its matches' games, started as their players become known)."""

    class Status(models.TextChoices):
        RUNNING = "running", pgettext_lazy("tournament round", "Running")
        FINISHED = "finished", pgettext_lazy("tournament round", "Finished")

    tournament = models.ForeignKey(Tournament, models.CASCADE, verbose_name=_("tournament"), related_name="round_set")
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.RUNNING)
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            # A round is paired exactly once, whatever two workers try.
            models.UniqueConstraint(fields=["tournament", "number"], name="round_once"),
        ]

    def __str__(self) -> str:
        return gettext("%(tournament)s, round %(number)s") % {"tournament": self.tournament, "number": self.number}


class Pairing(models.Model):
    """One board of a round: two entries and their game, or a bye.

    ``result`` is the board's outcome in TRF-16 terms from Red's side: "1-0",
    "0-1", "1/2", forfeits "+-", "-+", "--" (both absent), "bye" for a
    pairing-allocated bye, and blank while the game runs. In elimination
    formats ``match`` is the bracket's match id and ``match_game`` the game's
    number within the match.
    """

    class Result(models.TextChoices):
        PENDING = "", pgettext_lazy("tournament round", "playing")
        RED = "1-0", "1-0"
        BLACK = "0-1", "0-1"
        DRAW = "1/2", "½-½"
        RED_FORFEIT_WIN = "+-", "+ −"
        BLACK_FORFEIT_WIN = "-+", "− +"
        DOUBLE_FORFEIT = "--", "− −"
        BYE = "bye", pgettext_lazy("tournament", "bye")

    round = models.ForeignKey(Round, models.CASCADE, verbose_name=_("round"), related_name="pairings")
    board = models.PositiveIntegerField(_("board"))
    # RESTRICT: an entry that has played is never deleted (its opponents' results
    # would go with it); deleting the whole tournament still takes its pairings.
    red = models.ForeignKey(Entry, models.RESTRICT, verbose_name=_("red"), related_name="+")
    black = models.ForeignKey(Entry, models.RESTRICT, verbose_name=_("black"), null=True, blank=True,
                              related_name="+")
    game = models.OneToOneField("games.Game", models.SET_NULL, verbose_name=_("game"), null=True, blank=True,
                                related_name="tournament_pairing")
    result = models.CharField(_("result"), max_length=3, choices=Result.choices, blank=True)
    match = models.CharField(_("match"), max_length=8, blank=True)
    match_game = models.PositiveSmallIntegerField(_("game in the match"), default=1)

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        ordering = ["round", "board"]
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="pairing_board_once"),
            models.CheckConstraint(condition=~Q(red=F("black")), name="pairing_players_differ"),
        ]

    def __str__(self) -> str:
        return gettext("%(round)s, board %(board)s") % {"round": self.round, "board": self.board}

    @property
    def bye(self) -> bool:
        return self.black_id is None

    @property
    def finished(self) -> bool:
        return bool(self.result)


class Correction(models.Model):
    """One correction of a tournament's results (tournaments.corrections): who,
    when, why and what changed. Rows are never changed or deleted: they are the
    tournament's history, beside the admin's (LogEntry)."""

    class Kind(models.TextChoices):
        DISQUALIFY = "disqualify", _("Disqualification")
        RERANK = "rerank", _("Places recomputed")
        RESULT = "result", _("Result corrected")

    tournament = models.ForeignKey(Tournament, models.CASCADE, verbose_name=_("tournament"),
                                   related_name="corrections")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, verbose_name=_("by"), related_name="+")
    entry = models.ForeignKey(Entry, models.SET_NULL, verbose_name=_("player"), null=True, blank=True,
                              related_name="+")
    reason = models.TextField(_("reason"))
    # What was done, in English as the log keeps it: e.g. "p03 disqualified
    # (forfeit); places: p01 2→1, p03 1→–".
    changes = models.TextField(_("changes"), blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return gettext("%(kind)s in tournament %(number)s") % {"kind": self.get_kind_display(),
                                                               "number": self.tournament_id}


class ForbiddenPairing(models.Model):
    """Two entries the organizer never wants paired (Swiss: family, teammates)."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, verbose_name=_("tournament"),
                                   related_name="forbidden_pairings")
    first = models.ForeignKey(Entry, models.CASCADE, verbose_name=_("first player"), related_name="+")
    second = models.ForeignKey(Entry, models.CASCADE, verbose_name=_("second player"), related_name="+")

    class Meta:
        verbose_name = _("forbidden pairing")
        verbose_name_plural = _("forbidden pairings")

    def __str__(self) -> str:
        return gettext("%(first)s never against %(second)s") % {"first": self.first, "second": self.second}
