"""Which correspondence reminders are due, for notify's e-mail (notify/mail.py):
the daily digest of the games where it is a player's turn, and the warnings
that a correspondence clock is about to run out. Games own this data, so the
queries are here; the wording and sending are notify's. Run by Celery beat
(games/tasks.py, CELERY_BEAT_SCHEDULE).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import F
from django.db.models.fields.json import KT
from django.urls import reverse

from games import starting
from games.models import Game
from notify import mail
from notify.models import Channel, Kind, choosing

# Hours before a correspondence clock runs out when its player is warned, most urgent last.
CLOCK_WARNINGS = (24, 1)
# Only games with more than a day a move: with one day, the 24-hour warning
# would come with every turn.
CLOCK_WARNING_MIN_DAYS = 2


def _line(game: Game, user_id: int) -> mail.GameLine:
    """The game as a reminder names it to ``user_id``: against the other side
    (a partner in a team game is not an opponent, RH31). Its name, a proper
    name, and its player count, which notify words in the reader's language
    (not ``game.title``, worded in whatever language this process speaks)."""
    mine = next(seat.name for seat in game.table if seat.user_id == user_id)
    opponents = ", ".join(game.seat(name).user.username for name in game.opponents_of(mine))
    return {"title": starting.Setup(game.kind, game.variant).title, "players": game.players, "opponents": opponents,
            "url": reverse("games:game", args=[game.pk])}


def turns_waiting(user_ids: Any) -> dict[int, list[mail.GameLine]]:
    """The running correspondence games where it is each player's move,
    oldest turn first. The mover is the seat the position names."""
    movers = (Game.objects.filter(status=Game.Status.RUNNING, days_per_move__isnull=False)
              .alias(mover=KT("position__to_move"))
              .filter(seats__name=F("mover"), seats__user_id__in=user_ids)  # one join: the mover's seat
              .order_by("turn_started_at", "pk").values_list("seats__user_id", "pk"))
    rows = list(movers)
    games = Game.objects.prefetch_related("seats__user").only(
        "id", "kind", "variant", "players").in_bulk({game_id for _user, game_id in rows})
    waiting: dict[int, list[mail.GameLine]] = defaultdict(list)
    for user_id, game_id in rows:
        waiting[user_id].append(_line(games[game_id], user_id))
    return waiting


def send_turn_digests(now: datetime) -> int:
    """Each player who chose the turn kind by e-mail gets, once a day from
    TURN_DIGEST_HOUR (UTC) on, the list of games where it is their move, if
    any. Returns how many were sent."""
    if now.hour < settings.TURN_DIGEST_HOUR:
        return 0
    mail.forget_old_reminders(now)
    waiting = turns_waiting(choosing(Kind.TURN, Channel.EMAIL))
    return sum(mail.send_turn_digest(user_id, lines, now.date()) for user_id, lines in waiting.items())


def _deadline(game: Game) -> datetime:
    assert game.turn_started_at is not None
    return game.turn_started_at + timedelta(milliseconds=game.clock_ms(game.to_move))


def clocks_running_out(now: datetime) -> list[tuple[Game, list[int]]]:
    """Running games of at least CLOCK_WARNING_MIN_DAYS a move whose mover has
    at most a day left, each with the warnings' thresholds passed (hours)."""
    games = (Game.objects.filter(status=Game.Status.RUNNING, days_per_move__gte=CLOCK_WARNING_MIN_DAYS,
                                 turn_started_at__lte=now - timedelta(days=CLOCK_WARNING_MIN_DAYS - 1))
             .prefetch_related("seats__user").only("id", "kind", "variant", "players", "position", "clocks",
                                                   "turn_started_at", "days_per_move", "ply"))
    due = []
    for game in games:
        left = _deadline(game) - now
        passed = [hours for hours in CLOCK_WARNINGS if left <= timedelta(hours=hours)]
        if passed and left > timedelta(0):
            due.append((game, passed))
    return due


def send_clock_warnings(now: datetime) -> int:
    """Warn each mover whose clock runs out within a threshold, once per game,
    turn (its ply and seat) and threshold (the most urgent one passed; larger
    ones are then skipped)."""
    sent = 0
    for game, passed in clocks_running_out(now):
        user_id = game.user_id_at(game.to_move)
        turn = f"{game.ply}{game.to_move}"
        sent += mail.warn_clock(user_id, f"game:{game.pk}", turn, passed[-1], _line(game, user_id), passed[:-1])
    return sent
