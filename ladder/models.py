"""Ladder rows: open seeks in the lobby and direct challenges between two players.

Single-row facts live here as methods; creating, accepting and expiring (which
start games and tell the sockets) are in `ladder/seeks.py` and
`ladder/challenges.py`.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, gettext_noop, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games import bots
from games.timecontrols import TimeControl


class Colour(models.TextChoices):
    """The seat the creator wants; random is decided (by `secrets`) when the game starts."""

    RED = "red", pgettext_lazy("seat", "Red")
    BLACK = "black", pgettext_lazy("seat", "Black")
    RANDOM = "random", pgettext_lazy("seat", "Random")


class Seek(models.Model):
    """An open offer in the lobby: anyone else may accept it and play."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("seek status", "Open")
        ACCEPTED = "accepted", pgettext_lazy("seek status", "Accepted")
        CANCELLED = "cancelled", pgettext_lazy("seek status", "Cancelled")

    creator = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("creator"),
                                related_name="seeks")
    # Which game (games.starting.Setup): "ace-in-the-hole", "rhombus" and its variant.
    kind = models.CharField(_("game type"), max_length=24, default="ace-in-the-hole")
    variant = models.CharField(_("variant"), max_length=16, default="classic")
    # TimeControl.key: "5+3" or "3d". Which keys are offered is checked in ladder.inputs.
    time_control = models.CharField(_("time control"), max_length=8)
    rated = models.BooleanField(_("rated"), default=True)
    # Two players, or four (Rhombus's team game, issue 13): then the seek fills
    # seat by seat (SeekEntry) and the colour is the creator's team's.
    players = models.PositiveSmallIntegerField(_("players"), default=2)
    # A 4-player seek's named partner: a seat is held for them until they join.
    partner = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("partner"), null=True,
                                blank=True, related_name="+")
    colour = models.CharField(_("colour"), max_length=6, choices=Colour.choices, default=Colour.RANDOM)
    status = models.CharField(_("status"), max_length=9, choices=Status.choices, default=Status.OPEN)
    game = models.ForeignKey("games.Game", models.SET_NULL, verbose_name=_("game"), null=True, blank=True,
                             related_name="+")
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("seek")
        verbose_name_plural = _("seeks")
        ordering = ["created", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["creator", "time_control", "kind", "variant"],
                                    condition=Q(status="open"), name="seek_one_open_per_game_and_control"),
            models.CheckConstraint(condition=Q(players__in=[2, 4]), name="seek_two_or_four_players"),
        ]

    def __str__(self) -> str:
        return gettext("Seek %(number)s: %(creator)s %(time_control)s (%(status)s)") % {
            "number": self.pk, "creator": self.creator, "time_control": self.time_control, "status": self.status}

    @property
    def tc(self) -> TimeControl:
        return TimeControl.parse(self.time_control)


class SeekEntry(models.Model):
    """One player sitting at a 4-player seek, the creator included; the game
    starts when the fourth joins. Leaving before then deletes the row."""

    seek = models.ForeignKey(Seek, models.CASCADE, verbose_name=_("seek"), related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("player"),
                             related_name="seek_entries")
    joined = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("seek entry")
        verbose_name_plural = _("seek entries")
        ordering = ["joined", "pk"]
        constraints = [models.UniqueConstraint(fields=["seek", "user"], name="seek_entry_once_per_seek")]

    def __str__(self) -> str:
        return gettext("%(user)s at seek %(number)s") % {"user": self.user, "number": self.seek_id}


class Challenge(models.Model):
    """One player's invitation to another; it lapses at `expires_at`.

    A 4-player challenge (Rhombus teams, issue 13) invites three: ``challenged``
    is the named partner, and every invitee, the partner included, has a
    ChallengeInvitee row that records their answer; the game starts when all
    three have accepted."""

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("challenge status", "Pending")
        ACCEPTED = "accepted", pgettext_lazy("challenge status", "Accepted")
        DECLINED = "declined", pgettext_lazy("challenge status", "Declined")
        CANCELLED = "cancelled", pgettext_lazy("challenge status", "Cancelled")
        EXPIRED = "expired", pgettext_lazy("challenge status", "Expired")

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("challenger"),
                                   related_name="challenges_sent")
    challenged = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("challenged player"),
                                   related_name="challenges_received")
    kind = models.CharField(_("game type"), max_length=24, default="ace-in-the-hole")
    variant = models.CharField(_("variant"), max_length=16, default="classic")
    time_control = models.CharField(_("time control"), max_length=8)
    rated = models.BooleanField(_("rated"), default=True)
    # 2, or 4: the challenger and ``challenged`` (the partner) against two opponents.
    players = models.PositiveSmallIntegerField(_("players"), default=2)
    colour = models.CharField(_("colour"), max_length=6, choices=Colour.choices, default=Colour.RANDOM)
    status = models.CharField(_("status"), max_length=9, choices=Status.choices, default=Status.PENDING)
    game = models.ForeignKey("games.Game", models.SET_NULL, verbose_name=_("game"), null=True, blank=True,
                             related_name="+")
    created = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        ordering = ["created", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["challenger", "challenged"], condition=Q(status="pending"),
                                    name="challenge_one_pending_per_pair"),
            models.CheckConstraint(condition=Q(players__in=[2, 4]), name="challenge_two_or_four_players"),
        ]

    def __str__(self) -> str:
        return gettext("Challenge %(number)s: %(challenger)s → %(challenged)s (%(status)s)") % {
            "number": self.pk, "challenger": self.challenger, "challenged": self.challenged, "status": self.status}

    @property
    def tc(self) -> TimeControl:
        return TimeControl.parse(self.time_control)

    def lapsed(self, now: datetime) -> bool:
        """Past its time, whether or not the periodic task has marked it expired yet."""
        return self.expires_at <= now


class ChallengeInvitee(models.Model):
    """One of a 4-player challenge's three invitees and their answer so far."""

    class Role(models.TextChoices):
        PARTNER = "partner", pgettext_lazy("invitee's role", "Partner")
        OPPONENT = "opponent", pgettext_lazy("invitee's role", "Opponent")

    class Answer(models.TextChoices):
        NONE = "", pgettext_lazy("invitee's answer", "No answer yet")
        ACCEPTED = "accepted", pgettext_lazy("invitee's answer", "Accepted")
        DECLINED = "declined", pgettext_lazy("invitee's answer", "Declined")  # the one who closed it for all: the others are told who

    challenge = models.ForeignKey(Challenge, models.CASCADE, verbose_name=_("challenge"), related_name="invitees")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("player"),
                             related_name="challenge_invitations")
    role = models.CharField(_("role"), max_length=8, choices=Role.choices)
    answer = models.CharField(_("answer"), max_length=8, choices=Answer.choices, default=Answer.NONE, blank=True)

    class Meta:
        verbose_name = _("invitee")
        verbose_name_plural = _("invitees")
        ordering = ["pk"]  # the partner first, then the opponents as the challenger named them
        constraints = [models.UniqueConstraint(fields=["challenge", "user"], name="challenge_invitee_once")]

    def __str__(self) -> str:
        return gettext("%(user)s (%(role)s) at challenge %(number)s") % {
            "user": self.user, "role": self.role, "number": self.challenge_id}


# How long a challenge waits for an answer: a real-time opponent is at the
# screen now or not at all; a correspondence one may look in once a day.
REAL_TIME_CHALLENGE_LIFE = timedelta(minutes=10)
CORRESPONDENCE_CHALLENGE_LIFE = timedelta(days=3)
# Nobody waits this long in the lobby for a real-time game: the creator has gone.
REAL_TIME_SEEK_LIFE = timedelta(minutes=30)


def challenge_life(tc: TimeControl) -> timedelta:
    return CORRESPONDENCE_CHALLENGE_LIFE if tc.correspondence else REAL_TIME_CHALLENGE_LIFE


# --- The ladder (issue 4): ratings, their history, and the pairing pool ------


# Each game has its own ladder (issue 13), and Rhombus's team game one of its
# own: a player has a rating on each. Ace in the Hole's is the Player row
# itself (the ladder the site began with); the others are Rating rows.
ACE = "ace-in-the-hole"
# Pages word the names with ladder_names(); the API keeps them as written here.
LADDERS = {ACE: "Ace in the Hole", "rhombus": "Rhombus", "rhombus-teams": gettext_noop("Rhombus, teams")}


def ladder_names() -> dict[str, str]:
    """LADDERS as a page shows them, in the reader's language (the API keeps the English)."""
    return {key: gettext(name) for key, name in LADDERS.items()}


def ladder_choices() -> list[tuple[str, str]]:
    """A ladder field's choices in the reader's language ("Rhombus, teams"), worded
    when a form or a list shows them: a callable, so a new ladder needs no migration."""
    return list(ladder_names().items())


def other_ladder_choices() -> list[tuple[str, str]]:
    """The ladders a Rating row is on: every one but Ace in the Hole's (the Players')."""
    return [(key, name) for key, name in ladder_choices() if key != ACE]


def ladder_of(kind: str, players: int) -> str:
    """The ladder a game of ``kind`` with ``players`` players is rated on."""
    return kind if players == 2 else f"{kind}-teams"


class Standing(models.Model):
    """A player's standing on one ladder: rating and counters.

    The counters are kept here, not counted from games, so the leaderboard is
    one indexed query whatever the number of players.
    """

    rating = models.IntegerField(_("rating"), default=1500)
    rated_games = models.IntegerField(_("rated games"), default=0)
    wins = models.IntegerField(_("wins"), default=0)
    draws = models.IntegerField(_("draws"), default=0)
    losses = models.IntegerField(_("losses"), default=0)
    # Positive: that many wins in a row; negative: losses; 0 after a draw or no game.
    streak = models.IntegerField(_("streak"), default=0)
    # Has ever reached 2400: K stays 10 from then on (FIDE).
    reached_2400 = models.BooleanField(_("reached 2400"), default=False)
    last_active = models.DateTimeField(_("last active"), null=True, blank=True)
    is_bot = models.BooleanField(_("bot"), default=False)
    # The user's username, copied by PostgreSQL triggers (migration 0012) so that
    # the leaderboard's name search is one index read with the ratings beside the
    # names, not a join through a million users. Empty elsewhere (SQLite): there
    # the search joins the users.
    name = models.CharField(_("name"), max_length=150, blank=True, default="", editable=False)

    class Meta:
        abstract = True


class Player(Standing):
    """A user's standing on the Ace in the Hole ladder, and whether the user is
    a bot. Created on first need (ladder.ratings.player_of)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("user"), primary_key=True,
                                related_name="player")
    # For bots only: the engine level it plays (engine.bots), e.g. "greedy";
    # "" for a person and for a BOT account. A choice of the levels the site knows.
    bot_level = models.CharField(_("bot level"), max_length=32, blank=True, default="", choices=bots.level_choices)

    ladder = ACE

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        # Covering indexes (INCLUDE, PostgreSQL; plain ones elsewhere): the
        # leaderboard's counts, ranks and deep pages are index-only scans
        # whichever filter is on (bench/leaderboard.py).
        indexes = [
            models.Index(fields=["-rating", "user"], include=["last_active", "is_bot"],
                         name="player_rating_idx"),
            models.Index(fields=["-last_active"], include=["rating", "is_bot"], name="player_active_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.rating}"


class Rating(Standing):
    """A user's standing on another game's ladder (``LADDERS``); ``is_bot``
    is copied from the user's Player row so the leaderboard needs no join."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("user"), related_name="ratings")
    ladder = models.CharField(_("ladder"), max_length=24, choices=other_ladder_choices)

    class Meta:
        verbose_name = _("rating on another ladder")
        verbose_name_plural = _("ratings on other ladders")
        constraints = [models.UniqueConstraint(fields=["user", "ladder"], name="rating_once_per_ladder")]
        indexes = [
            models.Index(fields=["ladder", "-rating", "user"], include=["last_active", "is_bot"],
                         name="rating_ladder_rating_idx"),
            models.Index(fields=["ladder", "-last_active"], include=["rating", "is_bot"],
                         name="rating_ladder_active_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.ladder} {self.rating}"


class RatingCount(models.Model):
    """How many players of one ladder hold one rating, bot or not, by the UTC day
    they were last active: the leaderboard's ranks, counts and page starts are
    sums of these rows (ladder/rank_counts.py), not counts over a million players.

    On PostgreSQL, triggers on the Player and Rating tables keep them (migration
    0011) and they only ever add rows, +n or -n for a change, so two games
    ending at once never wait on one counter; ``rank_counts.compact`` (beat,
    every minute) folds them together and sums them by rating for the active
    window's start, so that a reader sums about one row a rating. Elsewhere
    (SQLite) the table stays empty and the leaderboard counts the players
    themselves.
    """

    class Kind(models.TextChoices):
        # appended by a trigger since the last compaction: +n or -n on a day
        FRESH = "f", pgettext_lazy("rating count row", "Fresh")
        # the players of one rating and day, as of the last compaction
        FOLDED = "d", pgettext_lazy("rating count row", "Folded")
        # folded rows summed by rating from ``day`` on (NULL: all days)
        SINCE = "s", pgettext_lazy("rating count row", "Since a day")

    ladder = models.CharField(_("ladder"), max_length=24)
    is_bot = models.BooleanField(_("bot"))
    rating = models.IntegerField(_("rating"))
    day = models.DateField(_("day"), null=True)  # NULL: longer ago than any active window looks
    n = models.IntegerField(_("count"))
    kind = models.CharField(_("row kind"), max_length=1, choices=Kind.choices, db_default=Kind.FRESH)

    class Meta:
        verbose_name = _("rating count")
        verbose_name_plural = _("rating counts")
        indexes = [models.Index(fields=["ladder", "kind", "day"], include=["rating", "is_bot", "n"],
                                name="rating_count_kind_day_idx")]

    def __str__(self) -> str:
        return f"{self.ladder} {self.rating} {self.day}: {self.n:+d}"


class RatingChange(models.Model):
    """One player's rating change from one rated game; undoing it is a moderator's act.

    A moderator's correction (ladder.ratings.correct) is a change too, so that the
    history agrees with the standing: it has no game, opponent, score or K, and
    its ``note`` says why. It moves no counters and is never undone."""

    game = models.ForeignKey("games.Game", models.CASCADE, verbose_name=_("game"), null=True, blank=True,
                             related_name="rating_changes")
    ladder = models.CharField(_("ladder"), max_length=24, default=ACE, choices=ladder_choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("player"),
                             related_name="rating_changes")
    # In a team game: the first player of the other team; opponent_rating is that team's average.
    opponent = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("opponent"), null=True,
                                 blank=True, related_name="+")
    before = models.IntegerField(_("before"))
    after = models.IntegerField(_("after"))
    opponent_rating = models.IntegerField(_("opponent's rating"), null=True, blank=True)
    score = models.FloatField(_("score"), null=True, blank=True)  # 1, 0.5 or 0 for this player
    k = models.IntegerField(_("K factor"), null=True, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    undone_at = models.DateTimeField(_("undone at"), null=True, blank=True)
    # A correction's reason and who made it (the act itself is moderation's log).
    note = models.TextField(_("note"), blank=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["created", "pk"]
        constraints = [
            # A game changes each player's rating at most once (issue 4: "exactly once").
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_once_per_game"),
        ]
        indexes = [models.Index(fields=["user", "ladder", "created"], name="rating_change_ladder_idx")]

    def __str__(self) -> str:
        if self.game_id is None:
            return gettext("%(user)s %(before)s→%(after)s (correction)") % {
                "user": self.user, "before": self.before, "after": self.after}
        return gettext("%(user)s %(before)s→%(after)s (game %(number)s)") % {
            "user": self.user, "before": self.before, "after": self.after, "number": self.game_id}


class PoolEntry(models.Model):
    """A player waiting in the rated pairing pool for one game (rules), number of
    players (2, or 4 for Rhombus teams) and real-time control."""

    class Status(models.TextChoices):
        WAITING = "waiting", pgettext_lazy("quick pairing wait", "Waiting")
        PAIRED = "paired", pgettext_lazy("quick pairing wait", "Paired")
        LEFT = "left", pgettext_lazy("quick pairing wait", "Left")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("player"),
                             related_name="pool_entries")
    # Which game (games.starting.Setup), as on Seek: only the same rules are paired (issue 13).
    kind = models.CharField(_("game type"), max_length=24, default=ACE)
    variant = models.CharField(_("variant"), max_length=16, default="classic")
    # 2, or 4 (Rhombus teams): only waits for the same number are put together.
    players = models.PositiveSmallIntegerField(_("players"), default=2)
    time_control = models.CharField(_("time control"), max_length=8)
    rating = models.IntegerField(_("rating"))  # at joining, on that game's ladder: the matcher pairs on this
    status = models.CharField(_("status"), max_length=7, choices=Status.choices, default=Status.WAITING)
    joined = models.DateTimeField(_("joined"))
    game = models.ForeignKey("games.Game", models.SET_NULL, verbose_name=_("game"), null=True, blank=True,
                             related_name="+")

    class Meta:
        verbose_name = _("quick pairing wait")
        verbose_name_plural = _("quick pairing waits")
        ordering = ["joined", "pk"]
        constraints = [
            # One waiting entry per player in all pools (every game and control):
            # never two games from one wait.
            models.UniqueConstraint(fields=["user"], condition=Q(status="waiting"),
                                    name="pool_one_waiting_entry"),
        ]

    def __str__(self) -> str:
        return gettext("Quick pairing %(number)s: %(user)s %(game)s %(time_control)s (%(status)s)") % {
            "number": self.pk, "user": self.user, "game": f"{self.kind}-{self.variant}",
            "time_control": self.time_control, "status": self.status}


class PlaybanRecord(models.Model):
    """A player's latest game outcomes, as fair-play penalties count them
    (ladder/playban.py): "good", or the offence a game ended with."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("player"), primary_key=True,
                                related_name="playban_record")
    outcomes = models.JSONField(_("recent outcomes"), default=list)  # oldest first, at most playban.WINDOW
    banned_until = models.DateTimeField(_("banned until"), null=True, blank=True)

    class Meta:
        verbose_name = _("playban record")
        verbose_name_plural = _("playban records")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.outcomes}"


class Ban(models.Model):
    """A playban: no new games from ``started`` to ``ends`` (ladder/playban.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, verbose_name=_("player"),
                             related_name="playbans")
    started = models.DateTimeField(_("start"))
    ends = models.DateTimeField(_("end"))
    offence = models.CharField(_("offence"), max_length=16)
    game = models.ForeignKey("games.Game", models.SET_NULL, verbose_name=_("game"), null=True, blank=True,
                             related_name="+")

    class Meta:
        verbose_name = _("playban")
        verbose_name_plural = _("playbans")
        indexes = [models.Index(fields=["user", "ends"], name="ban_user_ends_idx")]

    def __str__(self) -> str:
        return gettext("%(who)s until %(time)s") % {
            "who": f"{self.user_id}: {self.offence}", "time": f"{self.ends:%Y-%m-%d %H:%M}"}
