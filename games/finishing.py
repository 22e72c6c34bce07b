"""Every way a running game ends other than by the rules' own outcome: a
resignation, the clock (R17, RH27), a claim of abandonment, an abort or a
no-show, an organizer's adjudication.

Each locks the game row and saves in one transaction; a refusal raises
:class:`games.refusals.Refusal` and leaves the database as it was.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import bots, broadcast, store
from games.models import ENDINGS_RULE, Game, Move
from games.refusals import Refusal, seat_title
from games.signals import game_aborted


def resign(game_id: int, user: Any) -> Game:
    """``user`` gives up: the other side wins by resignation (R17); in a team
    game the resignation ends it for the team (RH27)."""
    with transaction.atomic():
        game, seat = store.running_game_of(game_id, user)
        now = timezone.now()
        game.charge_clock(now, increment=False)
        game.finish(now, game.other_side_name(seat), Game.Reason.RESIGNATION, points(game))
        game.save()
        broadcast.notify_on_commit(game)
    return game


def adjudicate(game_id: int, winner: str | None, note: str) -> Game:
    """End a running game with the result an organizer or moderator decided:
    ``winner`` a seat (its side wins), or None for a draw, and ``note`` the
    written reason, kept on the game. Unrated: the result was not played out.
    Who may do it is for the caller (tournaments, admin) to check."""
    if not note.strip():
        raise Refusal(gettext("an adjudication needs a written reason"))
    with transaction.atomic():
        game = store.locked(game_id)
        if winner is not None and winner not in game.seat_names:
            raise Refusal(gettext("the winner is one of %(seats)s or nobody (a draw), not %(winner)s")
                          % {"seats": ", ".join(game.seat_names), "winner": repr(winner)})
        store.check_running(game)
        now = timezone.now()
        game.charge_clock(now, increment=False)
        game.rated = False
        game.abort_at = None
        game.adjudication_note = note.strip()
        game.finish(now, winner and game.side_name(winner), Game.Reason.ADJUDICATION, points(game))
        game.save()
        broadcast.notify_on_commit(game)
    return game


def claim_time(game_id: int) -> Game:
    """End the game if the side to move has run out of time (R17), or abort it
    if they have not made their first move in time; else leave it.

    For a periodic task or the waiting player; a late mover is also flagged
    when they finally submit.
    """
    with transaction.atomic():
        game = store.locked(game_id)
        if game.running and not abort_unstarted(game):
            end_on_time(game)
    return game


def abort_unstarted(game: Game) -> bool:
    """Abort a locked game whose side to move let its first-move window pass
    (in a tournament game, the no-show loses instead)."""
    now = timezone.now()
    if game.abort_at is None or now < game.abort_at:
        return False
    if game.forfeit_no_shows:
        _forfeit_no_show(game, now)
    else:
        call_off(game, now, seat=game.to_move, no_show=True)
    return True


def _forfeit_no_show(game: Game, now: datetime) -> None:
    """The seat to move never made its first move: its side loses by
    forfeit, and so does the other side if none of it came either (no
    winner). Unrated, as nothing was played."""
    absent = game.to_move
    other_side = [game.seat(name) for name in game.sides[0 if absent not in game.sides[0] else 1]]
    moved = set(Move.objects.filter(game_id=game.pk).values_list("seat", flat=True))
    other_came = any(seat.name in moved or seat.seen_at is not None or bots.bot_plays(game, seat.name)
                     for seat in other_side)
    game.charge_clock(now, increment=False)
    game.rated = False
    game.abort_at = None
    game.finish(now, game.other_side_name(absent) if other_came else None, Game.Reason.NO_SHOW, points(game))
    game.save()
    broadcast.notify_on_commit(game)


def flag(game_id: int, user: Any) -> Game:
    """A player asks to end the game because the side to move is out of time
    (or to abort it: the side to move let its first-move window pass)."""
    with transaction.atomic():
        game, _ = store.running_game_of(game_id, user)
        if not (abort_unstarted(game) or end_on_time(game)):
            raise Refusal(gettext("%(seat)s still has time") % {"seat": seat_title(game.to_move)})
    return game


def end_on_time(game: Game) -> bool:
    """Finish a locked game on time if the mover's clock is spent; True if it was."""
    now = timezone.now()
    if game.turn_started_at is None or game.remaining_ms(now) > 0:
        return False
    game.charge_clock(now, increment=False)
    game.clocks = {**game.clocks, game.to_move: 0}
    game.finish(now, game.other_side_name(game.to_move), Game.Reason.TIME, points(game))
    game.save()
    broadcast.notify_on_commit(game)
    return True


def expired_game_ids(now: datetime) -> list[int]:
    """Running games whose player to move has no time left at ``now``, or
    has let the first-move window pass (to be aborted).

    The mover's clock depends on whose turn the position says it is, so the
    comparison is made here on a few columns rather than in SQL.
    """
    running = Game.objects.filter(status=Game.Status.RUNNING)
    unstarted = running.filter(abort_at__lte=now).values_list("pk", flat=True)
    timed = (running.filter(turn_started_at__isnull=False)
             .only("id", "position", "clocks", "turn_started_at"))
    return sorted({*unstarted, *(game.pk for game in timed.iterator() if game.remaining_ms(now) <= 0)})


def claim_abandonment(game_id: int, user: Any) -> Game:
    """``user`` claims the win for their side because a player of the other
    side left during their own turn (R17, RH27)."""
    with transaction.atomic():
        game, seat = store.running_game_of(game_id, user)
        if abort_unstarted(game) or end_on_time(game):  # aborted, or out of time: that came first
            return game
        now = timezone.now()
        if game.abort_at is not None:
            raise Refusal(gettext("the game has not started: it is aborted if %(seat)s has not moved by %(time)s")
                          % {"seat": seat_title(game.to_move), "time": game.abort_at.isoformat(timespec="seconds")})
        if game.to_move == seat:
            raise Refusal(gettext("it is your turn: you can only claim while your opponent is to move"))
        if game.to_move in game.side_of(seat):
            raise Refusal(gettext("it is your partner's turn: you can only claim while an opponent is to move"))
        claim_at = game.claim_win_at(now)
        if claim_at is None:
            raise Refusal(gettext("%(seat)s is here: there is nothing to claim") % {"seat": seat_title(game.to_move)})
        if now < claim_at:
            raise Refusal(gettext("%(seat)s left only recently: you can claim the win in %(wait)s (at %(time)s)")
                          % {"seat": seat_title(game.to_move), "wait": _duration(claim_at - now),
                             "time": claim_at.isoformat(timespec="seconds")})
        game.charge_clock(now, increment=False)
        game.finish(now, game.side_name(seat), Game.Reason.ABANDONMENT, points(game))
        game.save()
        broadcast.notify_on_commit(game)
    return game


def _duration(left: timedelta) -> str:
    seconds = int(left.total_seconds()) + 1
    if seconds <= 120:
        return gettext("%(n)s s") % {"n": seconds}
    if seconds <= 7200:
        return gettext("%(n)s min") % {"n": seconds // 60}
    return gettext("%(n)s h") % {"n": seconds // 3600}


def abort(game_id: int, user: Any) -> Game:
    """Call the game off before every seat has moved once: no result, unrated (R17, RH27)."""
    with transaction.atomic():
        game, seat = store.running_game_of(game_id, user)
        if game.forfeit_no_shows:
            raise Refusal(gettext("a tournament game cannot be aborted: resign instead "
                                  "(a player who does not move in time loses by forfeit)"))
        if game.ply >= game.players:
            raise Refusal(gettext("too late to abort: every player has moved (%(rule)s); resign instead")
                          % {"rule": ENDINGS_RULE[game.kind]})
        call_off(game, timezone.now(), seat=seat)
    return game


def call_off(game: Game, now: datetime, *, seat: str | None, no_show: bool = False) -> None:
    """End a locked game with no result, unrated (R17); ``seat`` called it
    off, or let its first-move window pass (``no_show``)."""
    game.charge_clock(now, increment=False)
    game.status = Game.Status.ABORTED
    game.reason = Game.Reason.ABORTED
    game.rated = False
    game.finished = now
    game.turn_started_at = None
    game.abort_at = None
    game.save()
    game_aborted.send(sender=Game, game=game, seat=seat, no_show=no_show)
    broadcast.notify_on_commit(game)


def points(game: Game) -> dict[str, int] | None:
    """Each seat's points in the current position, where the rules count them (R16)."""
    return game.rules.score(game.rules.from_json(game.position))
