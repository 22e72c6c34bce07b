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

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any, NamedTuple, TypedDict

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, connections, transaction
from django.utils import timezone

import engine
from engine.ace.rules import score
from engine.ace.view import ViewJSON
from games.models import FIRST_MOVE_WINDOW, Event, Game, Move
from games.timecontrols import TimeControl

SEAT_NAMES = {"red": "Red", "black": "Black"}
# The columns a move changes (``_record``), and those a result adds (Game.finish):
# saving only these keeps the per-move UPDATE small.
MOVE_FIELDS = ["position", "ply", "red_clock_ms", "black_clock_ms", "turn_started_at", "abort_at"]
RESULT_FIELDS = ["status", "winner", "reason", "red_score", "black_score", "finished"]


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
    abort_at: str | None


class RematchJSON(TypedDict):
    offered_by: str | None
    game_id: int | None


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
    presence: dict[str, bool]
    claim_win_at: str | None
    rematch: RematchJSON
    bot: Any  # games.bots.BotJSON | None
    ratings: dict[str, RatingJSON] | None
    event: dict[str, str] | None  # the tournament round it belongs to
    adjudication: str | None  # why the result was adjudicated


class RatingJSON(TypedDict):
    before: int
    after: int
    change: int


# Where a finished rated game's rating changes come from: the ladder registers a
# provider in its AppConfig.ready(), since games must never import the ladder.
RatingsProvider = Callable[[Game], "dict[str, RatingJSON] | None"]
_ratings_providers: list[RatingsProvider] = []


def provide_ratings(provider: RatingsProvider) -> None:
    """Register a source of GameJSON's ``ratings`` (registering twice is harmless)."""
    if provider not in _ratings_providers:
        _ratings_providers.append(provider)


def _ratings_json(game: Game) -> dict[str, RatingJSON] | None:
    """Each seat's rating before and after a finished rated game, or None."""
    if not game.rated or game.status != Game.Status.FINISHED:
        return None  # no query for the moves of a running game
    for provider in _ratings_providers:
        ratings = provider(game)
        if ratings is not None:
            return ratings
    return None


def _bots_after_change(game: Game) -> None:
    """Queue a bot's move (after commit) when a bot is now to move (games/bots.py)."""
    from games import bots  # lazy: games.bots imports this module

    bots.after_change(game)


def _bot_plays(game: Game, seat: str) -> bool:
    from games import bots

    return seat in bots.bot_seats(game)


def _bot_json(game: Game) -> Any:
    """GameJSON's ``bot``: which seats a bot plays and the bot move awaited, or None."""
    from games import bots

    return bots.bot_json(game)


class PayloadJSON(ViewJSON):
    game: GameJSON


def group_name(game_id: int) -> str:
    """The Channels group of everyone watching one game."""
    return f"game-{game_id}"


# --- Starting -------------------------------------------------------------


def start_game(red: Any, black: Any, *, rated: bool = True, initial_seconds: int = 600,
               increment_seconds: int = 5, seed: str | None = None,
               time_control: TimeControl | None = None, event: Event | None = None) -> Game:
    """A new running game between two different users, Red to move (R6).

    ``time_control`` (e.g. ``TimeControl.parse("3d")``) wins over the two
    seconds arguments, which stay for callers that only play real time.
    ``event`` names the tournament round a game belongs to.
    """
    tc = time_control or TimeControl(initial_seconds, increment_seconds)
    game = _new_game(red, black, rated, tc, event, seed)
    game.save()
    _bots_after_change(game)
    return game


def start_games(pairs: list[tuple[Any, Any]], *, rated: bool, time_control: TimeControl,
                event: Event) -> list[Game]:
    """Many games at once, as a tournament round starts them: one INSERT for all."""
    games = Game.objects.bulk_create([_new_game(red, black, rated, time_control, event) for red, black in pairs])
    for game in games:
        _bots_after_change(game)
    return games


def _new_game(red: Any, black: Any, rated: bool, tc: TimeControl, event: Event | None = None,
              seed: str | None = None) -> Game:
    if red.pk == black.pk:
        raise Refusal("a game needs two different players")
    now = timezone.now()
    game = Game(red=red, black=black, rated=rated, initial_seconds=tc.initial_seconds,
                increment_seconds=tc.increment_seconds, days_per_move=tc.days_per_move,
                red_clock_ms=tc.budget_ms, black_clock_ms=tc.budget_ms)
    if tc.correspondence:  # days per move from the start
        game.turn_started_at = now
    else:  # the clocks wait for each side's first move (FIRST_MOVE_WINDOW)
        game.abort_at = now + FIRST_MOVE_WINDOW
    if seed is not None:  # tests and replays only; the default is a fresh secret
        game.seed = seed
    if event is not None:
        game.event, game.event_round, game.event_url = event.name, event.round, event.url
        game.forfeit_no_shows = event.forfeit_no_shows
    game.commitment = engine.commitment(game.seed)
    game.position = dict(engine.to_json(engine.new_game(game.seed)))
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
        if _abort_unstarted(game) or _flag(game):  # too late: aborted, or lost on time (R17)
            return game
        state = _apply(engine.from_json(game.position), action_text)
        _record(game, state)
        _save_move(game, ply, seat, _last_action(state, seat))
        _notify_on_commit(game, moved=True)
        _bots_after_change(game)
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


def adjudicate(game_id: int, winner: str | None, note: str) -> Game:
    """End a running game with the result an organizer or moderator decided:
    ``winner`` a seat, or None for a draw, and ``note`` the written reason,
    kept on the game. Unrated: the result was not played out. Who may do it
    is for the caller (tournaments, admin) to check."""
    if winner not in (*SEAT_NAMES, None):
        raise Refusal(f"the winner is red, black or nobody (a draw), not {winner!r}")
    if not note.strip():
        raise Refusal("an adjudication needs a written reason")
    with transaction.atomic():
        game = _locked(game_id)
        _check_running(game)
        now = timezone.now()
        game.charge_clock(now, increment=False)
        game.rated = False
        game.abort_at = None
        game.adjudication_note = note.strip()
        game.finish(now, winner, Game.Reason.ADJUDICATION, score(engine.from_json(game.position).where))
        game.save()
        _notify_on_commit(game)
    return game


def claim_time(game_id: int) -> Game:
    """End the game if the side to move has run out of time (R17), or abort it
    if they have not made their first move in time; else leave it.

    For a periodic task or the waiting player; a late mover is also flagged
    when they finally submit.
    """
    with transaction.atomic():
        game = _locked(game_id)
        if game.running and not _abort_unstarted(game):
            _flag(game)
    return game


def _abort_unstarted(game: Game) -> bool:
    """Abort a locked game whose side to move let its first-move window pass
    (in a tournament game, the no-show loses instead)."""
    now = timezone.now()
    if game.abort_at is None or now < game.abort_at:
        return False
    if game.forfeit_no_shows:
        _forfeit_no_show(game, now)
    else:
        _call_off(game, now)
    return True


def _forfeit_no_show(game: Game, now: datetime) -> None:
    """The side to move never made its first move: it loses by forfeit, and
    so does the other side if it never came either (no winner). Unrated, as
    nothing was played."""
    absent = game.to_move
    other = _other(absent)
    other_came = game.ply > 0 or getattr(game, f"{other}_seen_at") is not None or _bot_plays(game, other)
    game.charge_clock(now, increment=False)
    game.rated = False
    game.abort_at = None
    game.finish(now, other if other_came else None, Game.Reason.NO_SHOW,
                score(engine.from_json(game.position).where))
    game.save()
    _notify_on_commit(game)


def flag(game_id: int, user: Any) -> Game:
    """A player asks to end the game because the side to move is out of time
    (or to abort it: the side to move let its first-move window pass)."""
    with transaction.atomic():
        game, _ = _running_game_of(game_id, user)
        if not (_abort_unstarted(game) or _flag(game)):
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


def expired_game_ids(now: datetime) -> list[int]:
    """Running games whose player to move has no time left at ``now``, or
    has let the first-move window pass (to be aborted).

    The mover's clock depends on whose turn the position says it is, so the
    comparison is made here on a few columns rather than in SQL.
    """
    running = Game.objects.filter(status=Game.Status.RUNNING)
    unstarted = running.filter(abort_at__lte=now).values_list("pk", flat=True)
    timed = (running.filter(turn_started_at__isnull=False)
             .only("id", "position", "red_clock_ms", "black_clock_ms", "turn_started_at"))
    return sorted({*unstarted, *(game.pk for game in timed.iterator() if game.remaining_ms(now) <= 0)})


def claim_abandonment(game_id: int, user: Any) -> Game:
    """``user`` claims the win because the opponent left during their own turn (R17)."""
    with transaction.atomic():
        game, seat = _running_game_of(game_id, user)
        if _abort_unstarted(game) or _flag(game):  # aborted, or out of time: that came first
            return game
        now = timezone.now()
        if game.abort_at is not None:
            raise Refusal(f"the game has not started: it is aborted if {SEAT_NAMES[game.to_move]} "
                          f"has not moved by {game.abort_at.isoformat(timespec='seconds')}")
        if game.to_move == seat:
            raise Refusal("it is your turn: you can only claim while your opponent is to move")
        claim_at = game.claim_win_at(now)
        if claim_at is None:
            raise Refusal(f"{SEAT_NAMES[game.to_move]} is here: there is nothing to claim")
        if now < claim_at:
            raise Refusal(f"{SEAT_NAMES[game.to_move]} left only recently: you can claim the win "
                          f"in {_duration(claim_at - now)} (at {claim_at.isoformat(timespec='seconds')})")
        game.charge_clock(now, increment=False)
        game.finish(now, seat, Game.Reason.ABANDONMENT, score(engine.from_json(game.position).where))
        game.save()
        _notify_on_commit(game)
    return game


def _duration(left: timedelta) -> str:
    seconds = int(left.total_seconds()) + 1
    if seconds <= 120:
        return f"{seconds} s"
    if seconds <= 7200:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h"


# --- Presence (R17 abandonment) ---------------------------------------------


class Presence(NamedTuple):
    """A stamped seat (None for a spectator or no such game), and the group
    message to send when its presence changed (None when it did not)."""

    seat: str | None
    event: dict[str, Any] | None


def arrive(game_id: int, user: Any) -> Presence:
    """A socket of ``user`` opened or is still open: stamp their seat as seen.

    The group needs telling only when the seat's presence changes, not on
    every heartbeat. The caller sends ``event`` (committed by then) to
    ``group_name(game_id)``: the consumer does it from its own event loop,
    because from the database thread the send would block forever once
    daphne's loop has stopped, and a departure is exactly what happens then.
    """
    return _stamp(game_id, user, "seen_at")


def depart(game_id: int, user: Any) -> Presence:
    """A socket of ``user`` closed. Their other sockets, if any, answer the
    ``game.left`` event by arriving again (GameConsumer.game_left)."""
    return _stamp(game_id, user, "left_at")


def _stamp(game_id: int, user: Any, field: str) -> Presence:
    with transaction.atomic():
        game = load(game_id, lock=True)
        seat = None if game is None else game.seat_of(user)
        if game is None or seat is None:
            return Presence(None, None)
        now = timezone.now()
        was = game.present(seat, now)
        setattr(game, f"{seat}_{field}", now)
        _save_columns(game, (f"{seat}_{field}",))
        if game.present(seat, now) == was:
            return Presence(seat, None)
        kind = "game.left" if field == "left_at" else "game.changed"
        return Presence(seat, {"type": kind, "ply": game.ply, "seat": seat})


# --- Rematch ---------------------------------------------------------------


def rematch(game_id: int, user: Any) -> Game:
    """Offer a rematch of a game that is over, or accept the opponent's offer.

    Accepting starts a new game with the colours swapped, the same time
    control and the same rated flag. Repeats (double clicks) change nothing.
    """
    with transaction.atomic():
        game = _locked(game_id)
        seat = _player_seat(game, user)
        if game.running:
            raise Refusal("the game is still running: finish it before asking for a rematch")
        if game.rematch_game_id is not None or game.rematch_offered_by == seat:
            return game
        if game.rematch_offered_by or _bot_plays(game, _other(seat)):  # a bot accepts at once
            game.rematch_game = start_game(game.black, game.red, rated=game.rated,
                                           time_control=game.time_control)
        else:
            game.rematch_offered_by = seat
        game.save(update_fields=["rematch_game", "rematch_offered_by"])
        _notify_on_commit(game)
    return game


def abort(game_id: int, user: Any) -> Game:
    """Call the game off before each side has moved: no result, unrated (R17)."""
    with transaction.atomic():
        game, _ = _running_game_of(game_id, user)
        if game.forfeit_no_shows:
            raise Refusal("a tournament game cannot be aborted: resign instead "
                          "(a player who does not move in time loses by forfeit)")
        if game.ply >= 2:
            raise Refusal("too late to abort: both sides have moved (R17); resign instead")
        _call_off(game, timezone.now())
    return game


def _call_off(game: Game, now: datetime) -> None:
    """End a locked game with no result, unrated (R17)."""
    game.charge_clock(now, increment=False)
    game.status = Game.Status.ABORTED
    game.reason = Game.Reason.ABORTED
    game.rated = False
    game.finished = now
    game.turn_started_at = None
    game.abort_at = None
    game.save()
    _notify_on_commit(game)


def _running_game_of(game_id: int, user: Any) -> tuple[Game, str]:
    """The locked game and ``user``'s seat in it, or a Refusal: not playing, or over."""
    game = _locked(game_id)
    seat = _player_seat(game, user)
    _check_running(game)
    return game, seat


def _locked(game_id: int) -> Game:
    game = load(game_id, lock=True)
    if game is None:
        raise Refusal(f"there is no game {game_id}")
    return game


def load(game_id: int, *, lock: bool = False) -> Game | None:
    """The game and its players' names (``red_name``, ``black_name``) in one
    query, row-locked for the transaction when ``lock`` is set.

    This is live play's hot path: every move loads the game once to change it
    and once per other socket to view it. Written as raw SQL on a cursor,
    because compiling the ORM's query, and even ``raw()``'s work per row
    (matching columns to fields, looking up converters), cost more than
    running it (docs/performance.md); each field's own conversion (JSON) is
    still applied.
    """
    with connection.cursor() as cursor:
        cursor.execute(_load_sql(lock), [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for i, converters, column in _converters(connection.alias):
        for convert in converters:
            values[i] = convert(values[i], column, connection)
    game = Game.from_db(connection.alias, _attnames(), values[:-2])
    game.red_name, game.black_name = values[-2:]
    return game


@functools.cache
def _load_sql(lock: bool) -> str:
    users = get_user_model()._meta
    username = users.get_field(get_user_model().USERNAME_FIELD).column
    columns = ", ".join(f'g."{f.column}"' for f in Game._meta.concrete_fields)
    sql = (f'SELECT {columns}, r."{username}" AS red_name, b."{username}" AS black_name '
           f'FROM "{Game._meta.db_table}" g '
           f'JOIN "{users.db_table}" r ON r."{users.pk.column}" = g."red_id" '
           f'JOIN "{users.db_table}" b ON b."{users.pk.column}" = g."black_id" '
           f'WHERE g."{Game._meta.pk.column}" = %s')
    # Only the game's row is locked, never the players'. SQLite has no row
    # locks (one writer at a time) and no FOR UPDATE, like select_for_update there.
    if lock and connection.features.has_select_for_update_of:
        sql += " FOR UPDATE OF g"
    return sql


@functools.cache
def _attnames() -> list[str]:
    return [f.attname for f in Game._meta.concrete_fields]


@functools.cache
def _converters(alias: str) -> list[tuple[int, list[Any], Any]]:
    """The backend's and each field's converters for ``load``'s columns, as the
    ORM's compiler finds them (``SQLCompiler.get_converters``), found once."""
    db = connections[alias]
    found = []
    for i, field in enumerate(Game._meta.concrete_fields):
        column = field.get_col(Game._meta.db_table)
        converters = db.ops.get_db_converters(column) + field.get_db_converters(db)
        if converters:
            found.append((i, converters, column))
    return found


class Step(NamedTuple):
    """How far a game has gone: its ply, and its status (a resignation, a flag
    or an abort ends a game without a new ply)."""

    ply: int
    status: str

    def ahead_of(self, other: Step) -> bool:
        """True when this step is later than ``other`` (of the same game)."""
        return self.ply > other.ply or (self.ply == other.ply and self.status != other.status
                                        and other.status == Game.Status.RUNNING)


def steps(game_ids: list[int]) -> dict[int, Step]:
    """The current step of each of these games, in one query (games.heartbeat)."""
    rows = Game.objects.filter(pk__in=game_ids).values_list("pk", "ply", "status")
    return {pk: Step(ply, status) for pk, ply, status in rows}


def player_name(game: Game, seat: str) -> str:
    """A seat's username; from the loaded row when ``load`` fetched it."""
    name = getattr(game, f"{seat}_name", None)
    return str(name) if name is not None else getattr(game, seat).get_username()


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
    if game.abort_at is not None:  # a first move: the other side's is next, or the clocks start
        game.abort_at = now + FIRST_MOVE_WINDOW if game.ply < 2 else None
        game.turn_started_at = None if game.ply < 2 else now
    over = engine.outcome(state)
    if over is not None:
        game.finish(now, over.winner, over.reason, over.score)


def _save_move(game: Game, ply: int, seat: str, action: str) -> None:
    """Insert the Move row and save the columns a move changes (and a result's,
    when it ended the game): one statement on PostgreSQL."""
    names = tuple(MOVE_FIELDS if game.running else MOVE_FIELDS + RESULT_FIELDS)
    move = Move(game=game, ply=ply, seat=seat, action=action, created=timezone.now())
    insert = _prepared(move, _MOVE_COLUMNS)
    if connection.vendor == "postgresql":  # it runs an INSERT in a WITH clause
        _execute(f"WITH move AS ({_insert_sql()}) {_update_sql(names)}", [*insert, *_update_params(game, names)])
    else:
        _execute(_insert_sql(), insert)
        _save_columns(game, names)


def _save_columns(game: Game, names: tuple[str, ...]) -> None:
    """``game.save(update_fields=names)`` as SQL: live play saves a few columns
    of a locked game many times a second, and compiling the ORM's UPDATE cost
    more than running it, as with ``load``. Each field prepares its own value."""
    _execute(_update_sql(names), _update_params(game, names))


_MOVE_COLUMNS = ("game", "ply", "seat", "action", "created")


def _execute(sql: str, params: list[Any]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _prepared(row: Any, names: tuple[str, ...]) -> list[Any]:
    fields = [row._meta.get_field(name) for name in names]
    return [f.get_db_prep_save(getattr(row, f.attname), connection) for f in fields]


def _update_params(game: Game, names: tuple[str, ...]) -> list[Any]:
    return [*_prepared(game, names), game.pk]


@functools.cache
def _insert_sql() -> str:
    columns = ", ".join(f'"{Move._meta.get_field(n).column}"' for n in _MOVE_COLUMNS)
    return f'INSERT INTO "{Move._meta.db_table}" ({columns}) VALUES ({", ".join(["%s"] * len(_MOVE_COLUMNS))})'


@functools.cache
def _update_sql(names: tuple[str, ...]) -> str:
    sets = ", ".join(f'"{Game._meta.get_field(n).column}" = %s' for n in names)
    return f'UPDATE "{Game._meta.db_table}" SET {sets} WHERE "{Game._meta.pk.column}" = %s'


def _other(seat: str) -> str:
    return "black" if seat == "red" else "red"


# --- Telling the watchers -------------------------------------------------


def _notify_on_commit(game: Game, kind: str = "game.changed", **extra: Any) -> None:
    game_id, ply = game.pk, game.ply
    transaction.on_commit(lambda: notify(game_id, ply, kind, **extra))


def notify(game_id: int, ply: int, kind: str = "game.changed", **extra: Any) -> None:
    """Tell every consumer of the game to reload its own view.

    The message carries no position at all, so nothing hidden can reach the
    channel layer (Redis) or the wrong socket. ``game.left`` (with the seat)
    also asks that seat's remaining sockets to say they are still there.
    """
    message = {"type": kind, "ply": ply, **extra}
    outbox = getattr(_outboxes, "current", None)
    if outbox is not None:
        outbox.append((group_name(game_id), message))
        return
    layer = get_channel_layer()
    if layer is None:
        return
    send: Callable[[str, dict[str, Any]], Any] = async_to_sync(layer.group_send)
    send(group_name(game_id), message)


_outboxes = threading.local()


@contextlib.contextmanager
def held_notifications() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Within this block, on this thread, ``notify`` collects its group
    messages (after commit, as always) into the yielded list instead of
    sending them; the caller sends them.

    For the websocket consumers, whose database work runs on pool threads:
    sending from their own event loop is cheaper than hopping back to it with
    async_to_sync, and cannot block on a loop that has stopped (see arrive).
    """
    outbox: list[tuple[str, dict[str, Any]]] = []
    outer = getattr(_outboxes, "current", None)
    _outboxes.current = outbox
    try:
        yield outbox
    finally:
        _outboxes.current = outer


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
    now = timezone.now()
    claim_at = game.claim_win_at(now)
    finished = game.status == Game.Status.FINISHED
    return {
        "id": game.pk,
        "red": player_name(game, "red"),
        "black": player_name(game, "black"),
        "status": game.status,
        "winner": game.winner or None,
        "reason": game.reason or None,
        "score": {"red": game.red_score or 0, "black": game.black_score or 0} if finished else None,
        "rated": game.rated,
        "commitment": game.commitment,
        # R19: the seed becomes public once the game is over, never before.
        "seed": game.seed if over else None,
        "clock": clock_json(game),
        "presence": {seat: game.present(seat, now) for seat in SEAT_NAMES},
        "claim_win_at": claim_at.isoformat() if claim_at else None,
        "rematch": {"offered_by": game.rematch_offered_by or None,
                    "game_id": game.rematch_game_id},
        "bot": _bot_json(game),
        "ratings": _ratings_json(game),
        "event": {"name": game.event, "round": game.event_round, "url": game.event_url} if game.event else None,
        "adjudication": game.adjudication_note or None,
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
        "abort_at": game.abort_at.isoformat() if game.abort_at and running else None,
    }
