"""Game rows: the players, the secret seed and its commitment, the position, the moves.

The rules themselves live in the pure `engine` package, never here; work that
spans rows (starting, moving, resigning) is in `games/play.py`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from games.signals import game_finished
from games.timecontrols import TimeControl

SEATS = ("red", "black")

# Presence (R17 abandonment). A player's sockets stamp ``<seat>_seen_at`` when
# they open and every PRESENCE_HEARTBEAT while open, and ``<seat>_left_at`` when
# they close. Timestamps rather than connection counters: a crashed process
# cannot leave a stale count behind, its stamps simply stop and go stale.
PRESENCE_HEARTBEAT = timedelta(seconds=20)
PRESENCE_STALE = timedelta(seconds=60)
# How long the player to move may be gone during their own turn before the
# opponent may claim the win.
ABANDON_GRACE_REAL_TIME = timedelta(seconds=30)
ABANDON_GRACE_CORRESPONDENCE = timedelta(days=1)
# A real-time game's clocks start only once each side has moved (as on
# lichess); until then each side has this long for its first move, or the game
# is aborted: no result, unrated (games.play.claim_time, run by Celery beat).
FIRST_MOVE_WINDOW = timedelta(seconds=30)


@dataclass(frozen=True)
class Event:
    """What a game started for an event (a tournament round) carries: the
    names for its record and page, and whether no-shows forfeit (Reason.NO_SHOW)."""

    name: str
    round: str = ""
    url: str = ""
    forfeit_no_shows: bool = True


def new_seed() -> str:
    """128 random bits as hex: the shuffle's secret until the game ends (R19)."""
    return secrets.token_hex(16)


class Game(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running"
        FINISHED = "finished"
        ABORTED = "aborted"

    class Reason(models.TextChoices):
        ACES = "aces", "by aces (R15)"
        POINTS = "points", "on points (R16)"
        RESIGNATION = "resignation", "by resignation (R17)"
        TIME = "time", "on time (R17)"
        ABANDONMENT = "abandonment", "by abandonment (R17)"
        ABORTED = "aborted", "aborted (R17)"
        # Tournament games only (Game.forfeit_no_shows): the side that let its
        # first-move window pass loses instead of the game being aborted. With
        # no winner it means both stayed away, and both lost.
        NO_SHOW = "no-show", "by forfeit: no-show"
        # An organizer or moderator decided the result; the note says why.
        ADJUDICATION = "adjudication", "by adjudication"

    class Winner(models.TextChoices):
        RED = "red"
        BLACK = "black"

    red = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="games_as_red")
    black = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="games_as_black")
    # Secret while the game runs: it fixes both deck orders. Never sent before the end.
    seed = models.CharField(max_length=64, default=new_seed, editable=False)
    commitment = models.CharField(max_length=64)
    # engine.to_json of the current full state, hidden cards included: server-side only.
    position = models.JSONField()
    ply = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    # Blank while running, for a draw, and for an aborted game.
    winner = models.CharField(max_length=5, choices=Winner.choices, blank=True)
    reason = models.CharField(max_length=12, choices=Reason.choices, blank=True)
    red_score = models.PositiveSmallIntegerField(null=True, blank=True)
    black_score = models.PositiveSmallIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=True)
    initial_seconds = models.PositiveIntegerField(default=600)
    increment_seconds = models.PositiveIntegerField(default=5)
    # Set for correspondence games: each move has this many days (clocks hold one move's time).
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    # Remaining time at the start of the current turn; the side to move is
    # charged from turn_started_at. A spent clock ends the game (play.claim_time).
    red_clock_ms = models.BigIntegerField()
    black_clock_ms = models.BigIntegerField()
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # Set until each side has made a first move (real time only): the game is
    # aborted if the side to move has not moved by then. See FIRST_MOVE_WINDOW.
    abort_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)
    # Presence of each seat: see PRESENCE_HEARTBEAT above.
    red_seen_at = models.DateTimeField(null=True, blank=True)
    black_seen_at = models.DateTimeField(null=True, blank=True)
    red_left_at = models.DateTimeField(null=True, blank=True)
    black_left_at = models.DateTimeField(null=True, blank=True)
    # Rematch: the seat that offered one, then the new game once accepted.
    rematch_offered_by = models.CharField(max_length=5, choices=Winner.choices, blank=True)
    rematch_game = models.OneToOneField("self", models.SET_NULL, null=True, blank=True,
                                        related_name="rematch_of")
    # The event a game belongs to (a tournament's name, round and page), for
    # its record and page. Plain text: games know no tournaments.
    event = models.CharField(max_length=120, blank=True)
    event_round = models.CharField(max_length=40, blank=True)
    event_url = models.CharField(max_length=200, blank=True)
    # Tournament games: a no-show loses by forfeit rather than the game being
    # aborted, and the players cannot abort it (see Reason.NO_SHOW).
    forfeit_no_shows = models.BooleanField(default=False)
    # Why the result was adjudicated (Reason.ADJUDICATION), shown on the game.
    adjudication_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.CheckConstraint(condition=~Q(red=F("black")), name="game_players_differ"),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk}: {self.red} v {self.black} ({self.status})"

    @property
    def running(self) -> bool:
        return self.status == self.Status.RUNNING

    @property
    def to_move(self) -> str:
        return str(self.position["to_move"])

    def seat_of(self, user: Any) -> str | None:
        """"red", "black", or None for anyone else (spectators, anonymous users)."""
        if user is None or not getattr(user, "is_authenticated", False):
            return None
        if user.pk == self.red_id:
            return "red"
        if user.pk == self.black_id:
            return "black"
        return None

    @property
    def time_control(self) -> TimeControl:
        return TimeControl(self.initial_seconds, self.increment_seconds, self.days_per_move)

    def clock_ms(self, seat: str) -> int:
        return int(self.red_clock_ms if seat == "red" else self.black_clock_ms)

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
        setattr(self, f"{self.to_move}_clock_ms", left)
        self.turn_started_at = now

    # --- Presence and abandonment (R17) ---------------------------------

    def present(self, seat: str, now: datetime) -> bool:
        """A socket of ``seat`` opened or beat recently and has not closed since."""
        seen, left = getattr(self, f"{seat}_seen_at"), getattr(self, f"{seat}_left_at")
        return seen is not None and (left is None or seen > left) and now - seen < PRESENCE_STALE

    def away_since(self, seat: str) -> datetime:
        """When an absent ``seat`` went away: closed, went stale, or never came."""
        seen, left = getattr(self, f"{seat}_seen_at"), getattr(self, f"{seat}_left_at")
        if seen is None:
            return left or self.created
        if left is not None and left >= seen:
            return left
        return seen + PRESENCE_STALE

    @property
    def abandon_grace(self) -> timedelta:
        if self.days_per_move is not None:
            return ABANDON_GRACE_CORRESPONDENCE
        return ABANDON_GRACE_REAL_TIME

    def claim_win_at(self, now: datetime) -> datetime | None:
        """When the opponent may claim the win because the player to move is gone.

        The grace period runs only during the absent player's own turn: it
        counts from the later of their leaving and their turn starting.
        """
        if not self.running or self.abort_at is not None or self.present(self.to_move, now):
            return None  # a game not yet started is aborted instead (abort_at)
        since = max(self.away_since(self.to_move), self.turn_started_at or self.created)
        return since + self.abandon_grace

    def finish(self, now: datetime, winner: str | None, reason: str, score: dict[str, int]) -> None:
        self.status = self.Status.FINISHED
        self.winner = winner or ""
        self.reason = reason
        self.red_score = score["red"]
        self.black_score = score["black"]
        self.finished = now
        self.turn_started_at = None
        # Ratings (and standings) move in the transaction that records the
        # result (issue 4): the ladder listens (games.signals).
        game_finished.send(sender=Game, game=self)


class Move(models.Model):
    game = models.ForeignKey(Game, models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    seat = models.CharField(max_length=5, choices=Game.Winner.choices)
    # The canonical notation, as the engine's discard pile spells it ("8D b1xc3").
    action = models.CharField(max_length=32)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            # The last line of defence against two submissions of the same ply.
            models.UniqueConstraint(fields=["game", "ply"], name="move_one_per_ply"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.ply}: {self.action}"
