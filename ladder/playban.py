"""Playban: a player who keeps spoiling games may not start new ones for a while
(issue 14), as on lichess. The rules and all their figures are here.

Every game a human plays in real time leaves an outcome on their record: good,
or one of the offences below, judged when the game ends:

- **abort**: they aborted it (R17, RH27: allowed before every seat has moved,
  but not again and again);
- **no-show**: they let their first-move window pass, so the game was called
  off (or, in a tournament, forfeited);
- **abandon**: they left, and the other side claimed the game (R17, RH27);
- **sitting**: they let their clock run out instead of resigning: lost on time,
  on a turn that lasted at least ``SITTING_MIN`` and ``SITTING_SHARE`` of the
  starting time, with their side behind (Ace in the Hole's points, R16;
  Rhombus's pieces still in play, RH25).

``LIMIT`` offences among the last ``WINDOW`` outcomes earn a ban from starting
games (seeks, challenges, quick pairing, rematches, tournament entry): the first
lasts ``FIRST_BAN``, and each further ban while earlier ones are still recent
doubles, up to ``LONGEST_BAN``. A ban is recent until it has been over for a
``CLEAN_WEEK``: a week with no ban starts the scale again. The record is cleared
by a ban, so each ban takes ``LIMIT`` new offences.

Never penalised: bots (a worker's failure is not their fault), correspondence
games (days per move: running out there is part of the form), and anything the
site's own outage caused (games/pulse.py: the turn or the absence overlapped a
time the site was not serving). Playing the computer is never refused.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from games import bots, pulse
from games.models import Game, Move
from ladder.models import Ban, PlaybanRecord
from ladder import penalty_notices as notices

GOOD = "good"
ABORT, NO_SHOW, ABANDON, SITTING = "abort", "no-show", "abandon", "sitting"
OFFENCES = {
    ABORT: gettext_lazy("aborting games"),
    NO_SHOW: gettext_lazy("not making a first move"),
    ABANDON: gettext_lazy("abandoning games"),
    SITTING: gettext_lazy("letting the clock run out instead of resigning"),
}

WINDOW = 10  # outcomes kept: the player's last games
LIMIT = 3  # offences among them that earn a ban
FIRST_BAN = timedelta(minutes=15)
LONGEST_BAN = timedelta(days=3)
CLEAN_WEEK = timedelta(days=7)
SITTING_MIN = timedelta(seconds=60)
SITTING_SHARE = 0.25


def ban_length(recent_bans: int) -> timedelta:
    """15 minutes, then 30, 1 h, 2 h, ... doubling with each recent ban, at most 3 days."""
    return min(FIRST_BAN * 2 ** min(recent_bans, 20), LONGEST_BAN)


def refusal(user: Any, now: datetime | None = None) -> str | None:
    """None if ``user`` may start games now, else the notice: for how long, why,
    and how to appeal (ladder/penalty_notices.py)."""
    ban = in_force(user, now)
    return None if ban is None else notices.notice(*ban)


def in_force(user: Any, now: datetime | None = None) -> tuple[str, str] | None:
    """The ban ``user`` is under now, as what it stops and its reason; None if none."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    now = now or timezone.now()
    ban = Ban.objects.filter(user=user, ends__gt=now, started__lte=now).order_by("-ends").first()
    if ban is None:
        return None
    offence = OFFENCES.get(ban.offence, ban.offence)
    return (gettext("You may not start games for %(left)s more.") % {"left": _duration(ban.ends - now)},
            gettext("a playban for %(offence)s; it grows if it happens again") % {"offence": offence})


def record(user: Any, outcome: str, *, game: Game | None = None, now: datetime | None = None) -> Ban | None:
    """Add a game's outcome to ``user``'s record; the ban it earns, if any."""
    now = now or timezone.now()
    with transaction.atomic():
        row, _ = PlaybanRecord.objects.select_for_update().get_or_create(user=user)
        outcomes = [*row.outcomes, outcome][-WINDOW:]
        ban = None
        if outcome != GOOD and sum(o != GOOD for o in outcomes) >= LIMIT:
            recent = Ban.objects.filter(user=user, ends__gt=now - CLEAN_WEEK).count()
            ban = Ban.objects.create(user=user, started=now, ends=now + ban_length(recent),
                                     offence=outcome, game=game)
            row.banned_until, outcomes = ban.ends, []
        row.outcomes = outcomes
        row.save()
    return ban


# --- A moderator's lift ---------------------------------------------------------


def bans_in_force(user: Any, now: datetime) -> list[Ban]:
    """The user's bans in force at ``now``, latest end first (bans earned in games
    that ended during a ban may overlap)."""
    return list(Ban.objects.filter(user=user, started__lte=now, ends__gt=now).order_by("-ends", "-pk"))


def lift(ban: Ban, when: datetime) -> Ban:
    """End ``ban`` at ``when`` (a moderator's act, moderation.actions).

    A lifted ban counts as served, up to ``when``: it stays a Ban row ending then,
    so it still counts among the recent bans that lengthen the next one (the
    scale restarts a CLEAN_WEEK after the lift, as after a ban that ran out). A
    lift forgives the rest of this ban, not the offences that earned it."""
    return shorten(ban, when)


def shorten(ban: Ban, new_end: datetime) -> Ban:
    """Make ``ban`` end at ``new_end`` (at most its current end, at least its
    start), and the player's record with it; a lift is a shortening to now."""
    with transaction.atomic():
        ban = Ban.objects.select_for_update().get(pk=ban.pk)
        old_end, ban.ends = ban.ends, max(ban.started, min(new_end, ban.ends))
        ban.save(update_fields=["ends"])
        PlaybanRecord.objects.filter(user_id=ban.user_id, banned_until=old_end).update(banned_until=ban.ends)
    return ban


# --- Judging a game's end ----------------------------------------------------


def game_finished(sender: Any, game: Game, **kwargs: Any) -> None:
    """games.signals.game_finished's receiver: each human player's outcome."""
    if not _counts(game):
        return
    culprit = _culprit(game) if game.reason in (Game.Reason.TIME, Game.Reason.ABANDONMENT,
                                                Game.Reason.NO_SHOW) else None
    offence = _offence(game, culprit) if culprit else None
    for seat in _human_seats(game):
        record(seat.user, offence if seat.name == culprit and offence else GOOD, game=game, now=game.finished)


def game_aborted(sender: Any, game: Game, seat: str | None, no_show: bool = False, **kwargs: Any) -> None:
    """games.signals.game_aborted's receiver: the seat that called it off or did not come."""
    if seat is None or not _counts(game) or seat not in {s.name for s in _human_seats(game)}:
        return
    now = game.finished or timezone.now()
    if no_show and not pulse.served(game.created, now, now):
        return  # the site was down: nobody could have moved
    record(game.seat(seat).user, NO_SHOW if no_show else ABORT, game=game, now=now)


def _counts(game: Game) -> bool:
    return game.days_per_move is None


def _human_seats(game: Game) -> list[Any]:
    played_by_bots = bots.bot_seats(game)  # the cached bot list: no query at every game's end
    return [seat for seat in game.table if seat.name not in played_by_bots]


def _culprit(game: Game) -> str | None:
    """The seat whose turn it was: the one that ran out, left, or never came."""
    return game.to_move if game.to_move in game.seat_names else None


def _offence(game: Game, seat: str) -> str | None:
    """What the game's end says of ``seat``, or None if it was no fault of theirs."""
    now = game.finished or timezone.now()
    turn_began = _turn_began(game)
    if game.reason == Game.Reason.NO_SHOW:
        return NO_SHOW if pulse.served(game.created, now, now) else None
    if game.reason == Game.Reason.ABANDONMENT:
        away = game.seat(seat).away_since(game.created)
        return ABANDON if pulse.served(max(away, turn_began), now, now) else None
    long_turn = max(SITTING_MIN, timedelta(seconds=game.initial_seconds * SITTING_SHARE))
    sat = now - turn_began >= long_turn and _behind(game, seat)
    return SITTING if sat and pulse.served(turn_began, now, now) else None


def _turn_began(game: Game) -> datetime:
    last = Move.objects.filter(game_id=game.pk).order_by("-ply").values_list("created", flat=True).first()
    return last or game.created


def _behind(game: Game, seat: str) -> bool:
    """``seat``'s side has less than the other: points (R16) where the rules
    count them, else pieces on the board and in reserve (RH25)."""
    mine = game.side_of(seat)
    standing = game.score or _pieces_in_play(game.position)
    ours = sum(standing.get(s, 0) for s in mine)
    theirs = sum(value for s, value in standing.items() if s not in mine)
    return ours < theirs


def _pieces_in_play(position: dict[str, Any]) -> dict[str, int]:
    counts = {seat: info.get("reserve", 0) for seat, info in position.get("seats", {}).items()}
    for seat in position.get("board", {}).values():
        if seat in counts:
            counts[seat] += 1
    return counts


def _duration(left: timedelta) -> str:
    minutes = max(1, -(-int(left.total_seconds()) // 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [ngettext("%(n)d day", "%(n)d days", days) % {"n": days} if days else "",
             ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours} if hours else "",
             ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes} if minutes else ""]
    return " ".join(part for part in parts if part)
