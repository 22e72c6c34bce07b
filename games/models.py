"""Game rows: the players, the secret seed and its commitment, the position, the moves.

The rules themselves live in the pure `engine` package, never here; work that
spans rows (starting, moving, resigning) is in `games/play.py`.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from games.timecontrols import TimeControl

SEATS = ("red", "black")


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
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

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

    def finish(self, now: datetime, winner: str | None, reason: str, score: dict[str, int]) -> None:
        self.status = self.Status.FINISHED
        self.winner = winner or ""
        self.reason = reason
        self.red_score = score["red"]
        self.black_score = score["black"]
        self.finished = now
        self.turn_started_at = None


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
