"""Game rows: which game, its seats and players, the secret seed and its
commitment, the position, the moves.

The rules themselves live in the pure `engine` package, never here; work that
spans rows is in a module per job: `games/starting.py`, `games/moving.py`,
`games/finishing.py`, `games/rematches.py`, `games/store.py`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext


import engine
from engine import record as records
from engine.game import Game as Rules
from games import results
from games.signals import game_finished
from games.timecontrols import TimeControl

# Presence (R17 abandonment, RH27). A player's sockets stamp their Seat's
# ``seen_at`` when they open, their process stamps the seats of all its open
# players' sockets every PRESENCE_HEARTBEAT (games.heartbeat, one statement), and
# a socket stamps ``left_at`` when it closes. Timestamps rather than connection
# counters: a crashed process cannot leave a stale count behind, its stamps simply
# stop and go stale.
PRESENCE_HEARTBEAT = timedelta(seconds=20)
PRESENCE_STALE = timedelta(seconds=60)
# How long the player to move may be gone during their own turn before the
# opponent may claim the win.
ABANDON_GRACE_REAL_TIME = timedelta(seconds=30)
ABANDON_GRACE_CORRESPONDENCE = timedelta(days=1)
# A real-time game's clocks start only once each side has moved (as on
# lichess); until then each side has this long for its first move, or the game
# is aborted: no result, unrated (games.finishing.claim_time, run by Celery beat).
FIRST_MOVE_WINDOW = timedelta(seconds=30)
# The rules a message cites, by game: whose turn it is, and the platform's
# endings (resigning, clocks, aborting, abandoning).
TURN_RULE = {"ace-in-the-hole": "R7", "rhombus": "RH10"}
ENDINGS_RULE = results.PLATFORM_RULE  # the rule of the platform's endings in each game


@dataclass(frozen=True)
class Event:
    """What a game started for an event (a tournament round) carries: the
    names for its record and page, and whether no-shows forfeit (Reason.NO_SHOW)."""

    name: str
    round: str = ""  # as the record's Round header and the page name it: "3", or "W1-2 game 1"
    url: str = ""
    forfeit_no_shows: bool = True
    number: int = 0  # the round's number (an elimination game's too), for the game's JSON


def new_seed() -> str:
    """128 random bits as hex: the shuffle's secret until the game ends (R19)."""
    return secrets.token_hex(16)


class Game(models.Model):
    """One game of any game in ``engine.GAMES``: its rules (``kind``, ``variant``,
    ``players``), seats (:class:`Seat` rows, in turn order), position and clocks."""

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    class Reason(models.TextChoices):
        ACES = "aces", _("by aces (R15)")
        POINTS = "points", _("on points (R16)")
        RESIGNATION = "resignation", _("by resignation (R17)")
        TIME = "time", _("on time (R17)")
        ABANDONMENT = "abandonment", _("by abandonment (R17)")
        ABORTED = "aborted", _("aborted (R17)")
        # Rhombus's endings (RH25, RH26, RH43), and its quiet rule's draw (RH27).
        NO_PIECES = "no-pieces", _("no piece left on the board (RH25)")
        NO_ACTION = "no-action", _("no legal action (RH26)")
        QUIET = "quiet", _("drawn by the quiet rule (RH27)")
        FORMATION = "formation", _("by a Formation (RH43)")
        # Tournament games only (Game.forfeit_no_shows): the side that let its
        # first-move window pass loses instead of the game being aborted. With
        # no winner it means both stayed away, and both lost.
        NO_SHOW = "no-show", _("by forfeit: no-show")
        # An organizer or moderator decided the result; the note says why.
        ADJUDICATION = "adjudication", _("by adjudication")

    kind = models.CharField(_("game type"), max_length=24, default="ace-in-the-hole",
                            choices=[(name, rules.title) for name, rules in engine.GAMES.items()])
    variant = models.CharField(_("variant"), max_length=16, default="classic")
    players = models.PositiveSmallIntegerField(_("players"), default=2)
    # Secret while the game runs: it fixes the shuffles. Never sent before the end.
    seed = models.CharField(_("shuffle seed"), max_length=64, default=new_seed, editable=False)
    commitment = models.CharField(_("commitment"), max_length=64)
    # The rules' to_json of the current full state, hidden cards included: server-side only.
    position = models.JSONField(_("position"))
    ply = models.PositiveIntegerField(_("ply"), default=0)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.RUNNING)
    # The winning side's name (Game.side_name: "red", "SW", "SW+NE"); blank
    # while running, for a draw, and for an aborted game.
    winner = models.CharField(_("winner"), max_length=16, blank=True)
    reason = models.CharField(_("reason"), max_length=12, choices=Reason.choices, blank=True)
    # Points per seat where the rules count them (Ace in the Hole, R16).
    score = models.JSONField(_("score"), null=True, blank=True)
    rated = models.BooleanField(_("rated"), default=True)
    initial_seconds = models.PositiveIntegerField(_("initial time (seconds)"), default=600)
    increment_seconds = models.PositiveIntegerField(_("increment (seconds)"), default=5)
    # Set for correspondence games: each move has this many days (clocks hold one move's time).
    days_per_move = models.PositiveSmallIntegerField(_("days per move"), null=True, blank=True)
    # Each seat's remaining time at the start of the current turn, {seat: ms};
    # the seat to move is charged from turn_started_at. A spent clock ends the
    # game (finishing.claim_time). On the game row, not the seats', so that a move
    # writes one row.
    clocks = models.JSONField(_("clocks"), default=dict)
    turn_started_at = models.DateTimeField(_("turn started at"), null=True, blank=True)
    # Set until each seat has made a first move (real time only): the game is
    # aborted if the seat to move has not moved by then. See FIRST_MOVE_WINDOW.
    abort_at = models.DateTimeField(_("aborted unless moved by"), null=True, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)
    # Rematch: the seats that asked for one, then the new game once all have.
    rematch_offers = models.JSONField(_("rematch offers"), default=list, blank=True)
    rematch_game = models.OneToOneField("self", models.SET_NULL, verbose_name=_("rematch"), null=True, blank=True,
                                        related_name="rematch_of")
    # The event a game belongs to (a tournament's name, round and page), for
    # its record and page. Plain text: games know no tournaments.
    event = models.CharField(_("event"), max_length=120, blank=True)
    event_round = models.CharField(_("event round"), max_length=40, blank=True)
    event_round_number = models.PositiveSmallIntegerField(_("event round number"), default=0)  # 0: no event
    event_url = models.CharField(_("event address"), max_length=200, blank=True)
    # Tournament games: a no-show loses by forfeit rather than the game being
    # aborted, and the players cannot abort it (see Reason.NO_SHOW).
    forfeit_no_shows = models.BooleanField(_("no-shows lose by forfeit"), default=False)
    # Why the result was adjudicated (Reason.ADJUDICATION), shown on the game.
    adjudication_note = models.TextField(_("adjudication note"), blank=True)
    # The players' mean ladder rating when the game started (games.starting.provide_start_ratings):
    # the live list's "best rated first" reads it from this row, indexed, with no
    # join into the ladder (games know no ladder). 0 for games started before it,
    # which sort last.
    rating = models.IntegerField(_("average rating"), default=0)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created"]
        indexes = [
            # The live list and TV: running games, best rated first (games/live.py).
            models.Index(fields=["-rating", "-id"], condition=models.Q(status="running"),
                         name="game_running_rating_idx"),
        ]

    def __str__(self) -> str:
        players = " v ".join(str(seat.user) for seat in self.table)
        return gettext("Game %(number)s: %(players)s (%(status)s)") % {
            "number": self.pk, "players": players, "status": self.get_status_display()}

    def get_absolute_url(self) -> str:
        """The game's page (the admin's "View on site"): a running game shows
        there what a spectator sees, never a hand."""
        return reverse("games:game", args=[self.pk])

    @property
    def reason_label(self) -> str:
        """The reason as shown, citing this game's own rules: the platform's
        endings are R17 in Ace in the Hole and RH27 in Rhombus (games.results)."""
        return results.how(self.reason, self.kind)

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        self._table = None  # the seats too: their presence may have changed
        super().refresh_from_db(*args, **kwargs)

    @property
    def running(self) -> bool:
        return self.status == self.Status.RUNNING

    @property
    def to_move(self) -> str:
        return str(self.position["to_move"])

    # --- Rules, seats and sides -------------------------------------------

    @property
    def rules(self) -> Rules:
        return engine.GAMES[self.kind]

    @property
    def title(self) -> str:
        """"Ace in the Hole", "Rhombus", "Rhombus Formation, 4 players"."""
        title = self.rules.title
        if self.variant != self.rules.variants[0]:
            title += f" {self.variant.title()}"
        if self.players != self.rules.player_counts[0]:
            title = ngettext("%(game)s, %(count)s player", "%(game)s, %(count)s players", self.players) % {
                "game": title, "count": self.players}
        return title

    @property
    def seat_names(self) -> tuple[str, ...]:
        """The seats in turn order: ("red", "black"), ("SW", "SE", "NE", "NW")."""
        return self.rules.seats_for(self.players)

    @property
    def sides(self) -> tuple[tuple[str, ...], ...]:
        """The seats that win or lose together (one seat a side, or two partners)."""
        return self.rules.sides(self.players)

    def side_of(self, seat: str) -> tuple[str, ...]:
        return next(side for side in self.sides if seat in side)

    def opponents_of(self, seat: str) -> list[str]:
        """The seats of the other side, in turn order: in a team game a
        partner is not an opponent (RH31)."""
        side = self.side_of(seat)
        return [name for name in self.seat_names if name not in side]

    def side_name(self, seat: str) -> str:
        """What Game.winner holds when ``seat``'s side wins: the seat, or the
        team's seats joined by "+" ("SW+NE"), as the engine names sides (RH35)."""
        return "+".join(self.side_of(seat))

    def other_side_name(self, seat: str) -> str:
        """The side that wins when ``seat``'s side resigns or loses on time."""
        return "+".join(next(side for side in self.sides if seat not in side))

    @property
    def both_lost(self) -> bool:
        """Every side lost: a double forfeit (both no-shows), no draw (engine.record.both_lost)."""
        return self.status == self.Status.FINISHED and records.both_lost(self.winner or None, self.reason)

    @property
    def result(self) -> str:
        """As the record writes it, from the first seat's side: ``1-0``, ``0-1``,
        ``1/2-1/2``, ``0-0`` (both lost), ``*`` (running or aborted)."""
        if self.status != self.Status.FINISHED:
            return "*"
        return records.result_text(self.winner or None, self.reason, self.side_name(self.seat_names[0]))

    def won(self, seat: str) -> bool | None:
        """True if ``seat``'s side won, False if it lost (a double forfeit
        loses for both), None for a draw or no result."""
        if self.status != self.Status.FINISHED:
            return None
        if self.both_lost:
            return False
        if not self.winner:
            return None
        return self.winner == self.side_name(seat)

    @property
    def table(self) -> list[Seat]:
        """The Seat rows in turn order, with their users (loaded once, or
        taken from ``prefetch_related("seats__user")``)."""
        if getattr(self, "_table", None) is None:
            prefetched = getattr(self, "_prefetched_objects_cache", {}).get("seats")
            seats = prefetched if prefetched is not None else self.seats.select_related("user")
            self._table = sorted(seats, key=lambda seat: seat.number)
        return self._table

    def seat(self, name: str) -> Seat:
        return next(seat for seat in self.table if seat.name == name)

    def seat_of(self, user: Any) -> str | None:
        """The user's seat ("red", "SW", ...), or None for anyone else
        (spectators, anonymous users)."""
        if user is None or not getattr(user, "is_authenticated", False):
            return None
        return next((seat.name for seat in self.table if seat.user_id == user.pk), None)

    def user_id_at(self, seat: str) -> int:
        return int(self.seat(seat).user_id)

    # --- Clocks -----------------------------------------------------------

    @property
    def time_control(self) -> TimeControl:
        return TimeControl(self.initial_seconds, self.increment_seconds, self.days_per_move)

    def clock_ms(self, seat: str) -> int:
        return int(self.clocks[seat])

    def remaining_ms(self, now: datetime) -> int:
        """The mover's time left right now."""
        if self.turn_started_at is None:
            return self.clock_ms(self.to_move)
        return self.clock_ms(self.to_move) - int((now - self.turn_started_at).total_seconds() * 1000)

    def charge_clock(self, now: datetime, increment: bool) -> None:
        """Take the time since the turn began off the mover's clock (plus the increment)."""
        if self.turn_started_at is None:
            return
        left = self.remaining_ms(now)
        if increment and self.days_per_move is not None:
            left = self.time_control.budget_ms  # correspondence: each move has the full days
        elif increment:
            left += self.increment_seconds * 1000
        self.clocks = {**self.clocks, self.to_move: left}
        self.turn_started_at = now

    # --- Presence and abandonment (R17, RH27) -----------------------------

    def present(self, seat: str, now: datetime) -> bool:
        return self.seat(seat).present(now)

    @property
    def abandon_grace(self) -> timedelta:
        if self.days_per_move is not None:
            return ABANDON_GRACE_CORRESPONDENCE
        return ABANDON_GRACE_REAL_TIME

    def claim_win_at(self, now: datetime) -> datetime | None:
        """When the other side may claim the win because the player to move is gone.

        The grace period runs only during the absent player's own turn: it
        counts from the later of their leaving and their turn starting.
        """
        if not self.running or self.abort_at is not None or self.present(self.to_move, now):
            return None  # a game not yet started is aborted instead (abort_at)
        since = max(self.seat(self.to_move).away_since(self.created), self.turn_started_at or self.created)
        return since + self.abandon_grace

    def finish(self, now: datetime, winner: str | None, reason: str, score: dict[str, int] | None) -> None:
        """Record the result: ``winner`` a side's name (``side_name``) or None."""
        self.status = self.Status.FINISHED
        self.winner = winner or ""
        self.reason = reason
        self.score = score
        self.finished = now
        self.turn_started_at = None
        # Ratings (and standings) move in the transaction that records the
        # result (issue 4): the ladder listens (games.signals).
        game_finished.send(sender=Game, game=self)


class Seat(models.Model):
    """A player's place in a game: the seat's name in the rules ("red", "SW"),
    its turn order, and the player's presence (R17, RH27)."""

    game = models.ForeignKey(Game, models.CASCADE, verbose_name=_("game"), related_name="seats")
    number = models.PositiveSmallIntegerField(_("turn order"))  # turn order: the rules' seats_for(players)
    name = models.CharField(_("seat"), max_length=8)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, verbose_name=_("player"), related_name="seats")
    seen_at = models.DateTimeField(_("last seen at"), null=True, blank=True)
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)
    # The player's ladder rating when the game started, shown beside the name on
    # the live list and TV (set with Game.rating).
    rating = models.IntegerField(_("rating"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_once"),
            models.UniqueConstraint(fields=["game", "name"], name="seat_name_once"),
            # A player takes one seat of a game (never both sides, nor two of a team).
            models.UniqueConstraint(fields=["game", "user"], name="seat_one_per_player"),
        ]
        indexes = [models.Index(fields=["user", "game"], name="seat_user_game_idx")]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.name}: {self.user_id}"

    def present(self, now: datetime) -> bool:
        """A socket of this seat opened or beat recently and has not closed since."""
        seen, left = self.seen_at, self.left_at
        return seen is not None and (left is None or seen > left) and now - seen < PRESENCE_STALE

    def away_since(self, created: datetime) -> datetime:
        """When an absent seat went away: closed, went stale, or never came
        (then since the game was ``created``)."""
        seen, left = self.seen_at, self.left_at
        if seen is None:
            return left or created
        if left is not None and left >= seen:
            return left
        return seen + PRESENCE_STALE


class Move(models.Model):
    game = models.ForeignKey(Game, models.CASCADE, verbose_name=_("game"), related_name="moves")
    ply = models.PositiveIntegerField(_("ply"))
    seat = models.CharField(_("seat"), max_length=8)
    # The canonical notation, as the engine's discard pile spells it ("8D b1xc3").
    action = models.CharField(_("notation"), max_length=160)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "ply"]
        constraints = [
            # The last line of defence against two submissions of the same ply.
            models.UniqueConstraint(fields=["game", "ply"], name="move_one_per_ply"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.ply}: {self.action}"
