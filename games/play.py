"""Playing a game: starting, moving, resigning, aborting, and what each person sees.

Synchronous domain functions, called by the websocket consumer (through
database_sync_to_async), by Celery tasks and directly by tests. Every change
locks the game row, checks, applies with the engine and saves in one
transaction; a refusal raises :class:`Refusal` and leaves the database as it
was. Clients are told only that the game changed (``game.changed`` with the
ply): each consumer then loads its own seat's view, so hidden cards never go
through the channel layer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import IntegrityError, transaction
from django.utils import timezone

import engine
from engine.rules import score
from engine.view import ViewJSON
from games.models import Game, Move
from games.timecontrols import TimeControl

SEAT_NAMES = {"red": "Red", "black": "Black"}


class Refusal(ValueError):
    """An action the site will not take; the message is meant for the player."""


class ClockJSON(TypedDict):
    red_ms: int
    black_ms: int
    running: str | None
    turn_started_at: str | None
    initial_seconds: int
    increment_seconds: int
    days_per_move: int | None
    time_control: str


class GameJSON(TypedDict):
    id: int
    red: str
    black: str
    status: str
    winner: str | None
    reason: str | None
    score: dict[str, int] | None
    rated: bool
    commitment: str
    seed: str | None
    clock: ClockJSON


class PayloadJSON(ViewJSON):
    game: GameJSON


def group_name(game_id: int) -> str:
    """The Channels group of everyone watching one game."""
    return f"game-{game_id}"


# --- Starting -------------------------------------------------------------


def start_game(red: Any, black: Any, *, rated: bool = True, initial_seconds: int = 600,
               increment_seconds: int = 5, seed: str | None = None,
               time_control: TimeControl | None = None) -> Game:
    """A new running game between two different users, Red to move (R6).

    ``time_control`` (e.g. ``TimeControl.parse("3d")``) wins over the two
    seconds arguments, which stay for callers that only play real time.
    """
    if red.pk == black.pk:
        raise Refusal("a game needs two different players")
    tc = time_control or TimeControl(initial_seconds, increment_seconds)
    game = Game(red=red, black=black, rated=rated, initial_seconds=tc.initial_seconds,
                increment_seconds=tc.increment_seconds, days_per_move=tc.days_per_move,
                red_clock_ms=tc.budget_ms, black_clock_ms=tc.budget_ms,
                turn_started_at=timezone.now())
    if seed is not None:  # tests and replays only; the default is a fresh secret
        game.seed = seed
    game.commitment = engine.commitment(game.seed)
    game.position = dict(engine.to_json(engine.new_game(game.seed)))
    game.save()
    return game


# --- Changing a game ------------------------------------------------------


def submit(game_id: int, user: Any, ply: int, action_text: str) -> Game:
    """Play ``action_text`` for ``user`` at ``ply``, or raise :class:`Refusal`.

    ``ply`` is the ply the client saw: a mismatch means the client is behind
    (or replaying an old frame), so the action is refused, not guessed at.
    """
    try:
        return _submit(game_id, user, ply, action_text)
    except IntegrityError:
        # Only reachable if the row lock were bypassed: (game, ply) is unique.
        raise Refusal(f"ply {ply} has already been played") from None


def _submit(game_id: int, user: Any, ply: int, action_text: str) -> Game:
    with transaction.atomic():
        game, seat = _running_game_of(game_id, user)
        if ply != game.ply:
            raise Refusal(f"stale ply {ply}: the game is at ply {game.ply}; resync and try again")
        if game.to_move != seat:
            raise Refusal(f"it is {SEAT_NAMES[game.to_move]}'s turn (R7)")
        if _flag(game):  # too late: the game ends on time instead (R17)
            return game
        state = _apply(engine.from_json(game.position), action_text)
        Move.objects.create(game=game, ply=ply, seat=seat, action=_last_action(state, seat))
        _record(game, state)
        game.save()
        _notify_on_commit(game)
    return game


def resign(game_id: int, user: Any) -> Game:
    """``user`` gives up: the opponent wins by resignation (R17)."""
    with transaction.atomic():
        game, seat = _running_game_of(game_id, user)
        now = timezone.now()
        game.charge_clock(now, increment=False)
        state = engine.from_json(game.position)
        game.finish(now, _other(seat), Game.Reason.RESIGNATION, score(state.where))
        game.save()
        _notify_on_commit(game)
    return game


def claim_time(game_id: int) -> Game:
    """End the game if the side to move has run out of time (R17); else leave it.

    For a periodic task or the waiting player; a late mover is also flagged
    when they finally submit.
    """
    with transaction.atomic():
        game = _locked(game_id)
        if game.running:
            _flag(game)
    return game


def flag(game_id: int, user: Any) -> Game:
    """A player asks to end the game because the side to move is out of time."""
    with transaction.atomic():
        game, _ = _running_game_of(game_id, user)
        if not _flag(game):
            raise Refusal(f"{SEAT_NAMES[game.to_move]} still has time")
    return game


def _flag(game: Game) -> bool:
    """Finish a locked game on time if the mover's clock is spent; True if it was."""
    now = timezone.now()
    if game.turn_started_at is None or game.remaining_ms(now) > 0:
        return False
    game.charge_clock(now, increment=False)
    setattr(game, f"{game.to_move}_clock_ms", 0)
    game.finish(now, _other(game.to_move), Game.Reason.TIME,
                score(engine.from_json(game.position).where))
    game.save()
    _notify_on_commit(game)
    return True


def abort(game_id: int, user: Any) -> Game:
    """Call the game off before each side has moved: no result, unrated (R17)."""
    with transaction.atomic():
        game, _ = _running_game_of(game_id, user)
        if game.ply >= 2:
            raise Refusal("too late to abort: both sides have moved (R17); resign instead")
        now = timezone.now()
        game.charge_clock(now, increment=False)
        game.status = Game.Status.ABORTED
        game.reason = Game.Reason.ABORTED
        game.rated = False
        game.finished = now
        game.turn_started_at = None
        game.save()
        _notify_on_commit(game)
    return game


def _running_game_of(game_id: int, user: Any) -> tuple[Game, str]:
    """The locked game and ``user``'s seat in it, or a Refusal: not playing, or over."""
    game = _locked(game_id)
    seat = _player_seat(game, user)
    _check_running(game)
    return game, seat


def _locked(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise Refusal(f"there is no game {game_id}") from None


def _player_seat(game: Game, user: Any) -> str:
    if user is None or not getattr(user, "is_authenticated", False):
        raise Refusal("log in to play")
    seat = game.seat_of(user)
    if seat is None:
        raise Refusal("you are not playing in this game")
    return seat


def _check_running(game: Game) -> None:
    if not game.running:
        raise Refusal(f"the game is over ({game.status})")


def _apply(state: engine.State, action_text: str) -> engine.State:
    try:
        return engine.apply(state, action_text)
    except engine.EngineError as error:  # IllegalAction names the rule; NotationError the format
        raise Refusal(str(error)) from None


def _last_action(state: engine.State, seat: str) -> str:
    """The action as the engine recorded it: canonical, capture mark included."""
    return str(state.discards[engine.SEATS.index(seat)][-1])


def _record(game: Game, state: engine.State) -> None:
    """Store the new state, run the clocks, and the result if the engine says it is over."""
    now = timezone.now()
    game.charge_clock(now, increment=True)
    game.position = dict(engine.to_json(state))
    game.ply = state.ply
    over = engine.outcome(state)
    if over is not None:
        game.finish(now, over.winner, over.reason, over.score)


def _other(seat: str) -> str:
    return "black" if seat == "red" else "red"


# --- Telling the watchers -------------------------------------------------


def _notify_on_commit(game: Game) -> None:
    game_id, ply = game.pk, game.ply
    transaction.on_commit(lambda: notify(game_id, ply))


def notify(game_id: int, ply: int) -> None:
    """Tell every consumer of the game to reload its own view.

    The message carries no position at all, so nothing hidden can reach the
    channel layer (Redis) or the wrong socket.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    send: Callable[[str, dict[str, Any]], Any] = async_to_sync(layer.group_send)
    send(group_name(game_id), {"type": "game.changed", "ply": ply})


# --- What one person sees -------------------------------------------------


def view_for(game: Game, user: Any) -> PayloadJSON:
    """The engine's view for the user's seat (spectator view for anyone else),
    plus the public game fields. The only thing ever sent to a client (R18)."""
    view = engine.view(engine.from_json(game.position), game.seat_of(user)).to_json()
    if not game.running:
        view["legal"] = []  # resigned or aborted: the engine does not know it is over
    payload: PayloadJSON = {**view, "game": game_json(game)}
    return payload


def game_json(game: Game) -> GameJSON:
    over = not game.running
    finished = game.status == Game.Status.FINISHED
    return {
        "id": game.pk,
        "red": game.red.get_username(),
        "black": game.black.get_username(),
        "status": game.status,
        "winner": game.winner or None,
        "reason": game.reason or None,
        "score": {"red": game.red_score or 0, "black": game.black_score or 0} if finished else None,
        "rated": game.rated,
        "commitment": game.commitment,
        # R19: the seed becomes public once the game is over, never before.
        "seed": game.seed if over else None,
        "clock": clock_json(game),
    }


def clock_json(game: Game) -> ClockJSON:
    running = game.to_move if game.running else None
    started = game.turn_started_at.isoformat() if game.turn_started_at and running else None
    return {
        "red_ms": game.red_clock_ms,
        "black_ms": game.black_clock_ms,
        "running": running,
        "turn_started_at": started,
        "initial_seconds": game.initial_seconds,
        "increment_seconds": game.increment_seconds,
        "days_per_move": game.days_per_move,
        "time_control": game.time_control.key,
    }
