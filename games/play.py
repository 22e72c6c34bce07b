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
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any, NamedTuple, TypedDict

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, connections, transaction
from django.utils import timezone
from django.utils.translation import gettext

import engine
from games import refusals, signins, statements
from notify import live as notify_live
from games.models import ENDINGS_RULE, FIRST_MOVE_WINDOW, TURN_RULE, Event, Game, Move, Seat
from games.signals import game_aborted
from games.timecontrols import TimeControl

ACE = "ace-in-the-hole"
# The columns a move changes (``_record``), and those a result adds (Game.finish):
# saving only these keeps the per-move UPDATE small.
MOVE_FIELDS = ["position", "ply", "clocks", "turn_started_at", "abort_at"]
RESULT_FIELDS = ["status", "winner", "reason", "score", "finished"]
# How Rhombus's rules name its endings (engine.rhombus.Outcome.reason).
RULE_REASONS = {"RH25": Game.Reason.NO_PIECES, "RH26": Game.Reason.NO_ACTION,
                "RH27": Game.Reason.QUIET, "RH43": Game.Reason.FORMATION}


def seat_title(seat: str) -> str:
    """A seat as messages name it, in the active language: "Red", "Black", "SW"."""
    return refusals.word("ace-seat", seat) if seat.islower() else seat


class Refusal(ValueError):
    """An action the site will not take; the message is meant for the player."""


class ClockJSON(TypedDict):
    ms: dict[str, int]  # each seat's time at the start of the turn
    running: str | None
    turn_started_at: str | None
    initial_seconds: int
    increment_seconds: int
    days_per_move: int | None
    time_control: str
    abort_at: str | None


class RematchJSON(TypedDict):
    offered_by: list[str]  # the seats that asked; a rematch starts once every player has
    game_id: int | None


class GameJSON(TypedDict):
    id: int
    kind: str  # engine.GAMES's name: "ace-in-the-hole", "rhombus"
    title: str
    variant: str
    seats: list[str]  # in turn order
    sides: list[list[str]]  # the seats that win or lose together
    players: dict[str, str]  # each seat's username
    status: str
    winner: str | None
    reason: str | None
    # As the record writes it, from the first seat's side: "1-0", "0-1",
    # "1/2-1/2", "0-0" (both lost: a double forfeit), "*" (running, aborted).
    result: str
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
    ending: str | None  # how it ended, worded as every page words it (games/results.py)


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


# Whether a user may start a game with other people now (a playban, a
# moderator's restriction): the ladder registers the check, for the same reason.
StartCheck = Callable[[Any, bool], "str | None"]
_start_checks: list[StartCheck] = []


def provide_start_check(check: StartCheck) -> None:
    """Register a check ``check(user, rated)``: None, or why ``user`` may not start a game."""
    if check not in _start_checks:
        _start_checks.append(check)


# Whether these users may sit down to one new game together: games.partners
# registers its check (no two partners of a running team game, RH36) in
# GamesConfig.ready(), since it needs games.bots, which imports this module.
TableCheck = Callable[[Sequence[Any]], "str | None"]
_table_checks: list[TableCheck] = []


def provide_table_check(check: TableCheck) -> None:
    """Register a check ``check(users)``: None, or why these users may not start a game together."""
    if check not in _table_checks:
        _table_checks.append(check)


def _may_sit_together(users: Sequence[Any]) -> None:
    for check in _table_checks:
        if (why := check(users)) is not None:
            raise Refusal(why)


# Who hears of each accepted move, inside its transaction (after the move is
# recorded): games.notices queues the correspondence "your turn" notice
# (registered in GamesConfig.ready(), since it needs the Celery tasks, which import this module).
MoveListener = Callable[[Game], None]
_move_listeners: list[MoveListener] = []


def listen_to_moves(listener: MoveListener) -> None:
    """Register ``listener(game)`` for every accepted move (registering twice is harmless)."""
    if listener not in _move_listeners:
        _move_listeners.append(listener)


# A new game's players' ratings, for the live list's "best rated first" (games/live.py):
# the ladder registers a function that fills ``Seat.rating`` of each new game's
# seats and ``Game.rating`` before they are inserted, so the snapshot costs no
# statement of its own and the list orders by an indexed column of the game row,
# with no join into the ladder per page or per game.
StartRatings = Callable[[list[Game]], None]
_start_ratings: list[StartRatings] = []


def provide_start_ratings(provider: StartRatings) -> None:
    """Register a filler of new games' rating snapshots (registering twice is harmless)."""
    if provider not in _start_ratings:
        _start_ratings.append(provider)


def _snapshot_ratings(games: list[Game]) -> None:
    for provider in _start_ratings:
        provider(games)


def _may_start(user: Any, rated: bool) -> None:
    for check in _start_checks:
        if (why := check(user, rated)) is not None:
            raise Refusal(why)


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


# A seat's (or a spectator's) view, the rules' ``view(...).to_json()`` whose
# keys differ by game (engine.ace.view.ViewJSON, engine.rhombus.view.ViewJSON),
# plus ``game``: the public GameJSON.
PayloadJSON = dict[str, Any]


def group_name(game_id: int) -> str:
    """The Channels group of everyone watching one game."""
    return f"game-{game_id}"


# --- Starting -------------------------------------------------------------


class Setup(NamedTuple):
    """Which game to start: a game of ``engine.GAMES`` and its variant, and
    (Rhombus, a series' later games) the seat that deals. The player count is
    the number of users given."""

    kind: str = ACE
    variant: str = "classic"
    dealer: str | None = None

    @property
    def key(self) -> str:
        """"ace-in-the-hole", "rhombus", "rhombus-formation": the rules as
        forms, seeks and challenges name them."""
        rules = engine.GAMES[self.kind]
        return self.kind if self.variant == rules.variants[0] else f"{self.kind}-{self.variant}"

    @property
    def title(self) -> str:
        rules = engine.GAMES[self.kind]
        return rules.title if self.variant == rules.variants[0] else f"{rules.title} {self.variant.title()}"


def setups() -> dict[str, Setup]:
    """Every game and variant a player can choose, by key, in engine.GAMES's order."""
    found = (Setup(rules.name, variant) for rules in engine.GAMES.values() for variant in rules.variants)
    return {setup.key: setup for setup in found}


def setup_of(key: Any) -> Setup:
    """The Setup a key names, or a Refusal listing the keys."""
    offered = setups()
    if not isinstance(key, str) or key not in offered:
        raise Refusal(gettext("%(key)s is not a game here: choose one of %(keys)s")
                      % {"key": repr(key), "keys": ", ".join(offered)})
    return offered[key]


def start_game(*users: Any, rated: bool = True, initial_seconds: int = 600,
               increment_seconds: int = 5, seed: str | None = None,
               time_control: TimeControl | None = None, event: Event | None = None,
               setup: Setup = Setup()) -> Game:
    """A new running game between different users, seated in the rules' turn
    order (Ace in the Hole: Red, who moves first (R6), then Black; Rhombus:
    SW, NE or SW, SE, NE, NW (RH3, RH31)).

    ``time_control`` (e.g. ``TimeControl.parse("3d")``) wins over the two
    seconds arguments, which stay for callers that only play real time.
    ``event`` names the tournament round a game belongs to.
    """
    tc = time_control or TimeControl(initial_seconds, increment_seconds)
    game = _new_game(users, setup, rated, tc, event, seed)
    _snapshot_ratings([game])
    game.save()
    Seat.objects.bulk_create(_seats_of([game]))
    _bots_after_change(game)
    _announce_live([game.pk])
    return game


def start_games(tables: list[tuple[Any, ...]], *, rated: bool, time_control: TimeControl,
                event: Event, setup: Setup = Setup()) -> list[Game]:
    """Many games at once, as a tournament round starts them: one INSERT for
    the games and one for their seats."""
    new = [_new_game(users, setup, rated, time_control, event) for users in tables]
    _snapshot_ratings(new)
    games = Game.objects.bulk_create(new)
    Seat.objects.bulk_create(_seats_of(games))
    for game in games:
        _bots_after_change(game)
    _announce_live([game.pk for game in games])
    return games


def _seats_of(games: list[Game]) -> list[Seat]:
    """The new games' seats, pointed at their games now that these have keys."""
    for game in games:
        for seat in game.table:
            seat.game = game
    return [seat for game in games for seat in game.table]


def _new_game(users: tuple[Any, ...], setup: Setup, rated: bool, tc: TimeControl, event: Event | None = None,
              seed: str | None = None) -> Game:
    rules = engine.GAMES.get(setup.kind)
    if rules is None:
        raise Refusal(gettext("there is no game %(kind)s: choose one of %(kinds)s")
                      % {"kind": repr(setup.kind), "kinds": ", ".join(engine.GAMES)})
    try:
        names = rules.seats_for(len(users))
    except engine.EngineError as error:  # "Rhombus is played by 2 or 4 players, not 3"
        raise Refusal(refusals.describe(error)) from None
    if setup.variant not in rules.variants:
        raise Refusal(gettext("%(game)s has the variants %(variants)s, not %(variant)s")
                      % {"game": rules.title, "variants": ", ".join(rules.variants), "variant": repr(setup.variant)})
    if len({user.pk for user in users}) != len(users):
        raise Refusal(gettext("a game needs %(count)s different players") % {"count": len(users)})
    if event is None:  # a tournament's pairings are the event's, not its players' choice
        _may_sit_together(users)
    now = timezone.now()
    game = Game(kind=rules.name, variant=setup.variant, players=len(users), rated=rated,
                initial_seconds=tc.initial_seconds, increment_seconds=tc.increment_seconds,
                days_per_move=tc.days_per_move, clocks={name: tc.budget_ms for name in names})
    game._table = [Seat(number=number, name=name, user=user) for number, (name, user) in enumerate(zip(names, users))]
    if tc.correspondence:  # days per move from the start
        game.turn_started_at = now
    else:  # the clocks wait for each side's first move (FIRST_MOVE_WINDOW)
        game.abort_at = now + FIRST_MOVE_WINDOW
    if seed is not None:  # tests and replays only; the default is a fresh secret
        game.seed = seed
    if event is not None:
        game.event, game.event_round, game.event_url = event.name, event.round, event.url
        game.forfeit_no_shows = event.forfeit_no_shows
    game.commitment = rules.commitment(game.seed)
    game.position = dict(rules.to_json(rules.start(game.seed, len(users), setup.variant, setup.dealer)))
    return game


# --- Changing a game ------------------------------------------------------


class SessionCheck(NamedTuple):
    """A socket's session, checked in the move's own statement (issue 24):
    ``judge`` gets what the game's locked load read of it (the evidence of
    games.signins.still_signs_in, or signins.UNREAD where it read none) and
    raises to stop the move, before anything else is checked."""

    key: str | None
    user_id: int
    judge: Callable[[Any], None]


def submit(game_id: int, user: Any, ply: int, action_text: str, *, session: SessionCheck | None = None) -> Game:
    """Play ``action_text`` for ``user`` at ``ply``, or raise :class:`Refusal`.

    ``ply`` is the ply the client saw: a mismatch means the client is behind
    (or replaying an old frame), so the action is refused, not guessed at.
    A websocket's move passes its ``session``, judged first thing.
    """
    try:
        return _submit(game_id, user, ply, action_text, session)
    except IntegrityError:
        # Only reachable if the row lock were bypassed: (game, ply) is unique.
        raise Refusal(gettext("ply %(ply)s has already been played") % {"ply": ply}) from None


def _submit(game_id: int, user: Any, ply: int, action_text: str, session: SessionCheck | None) -> Game:
    with transaction.atomic():
        game, seat = _running_game_of(game_id, user, session)
        if ply != game.ply:
            raise Refusal(gettext("stale ply %(ply)s: the game is at ply %(current)s; resync and try again")
                          % {"ply": ply, "current": game.ply})
        if game.to_move != seat:
            raise Refusal(gettext("it is %(seat)s's turn (%(rule)s)")
                          % {"seat": seat_title(game.to_move), "rule": TURN_RULE[game.kind]})
        if _abort_unstarted(game) or _flag(game):  # too late: aborted, or lost on time (R17, RH27)
            return game
        state, played = _apply(game, action_text)
        _record(game, state)
        _save_move(game, ply, seat, played)
        _keep_actions(game, ply, [{"seat": seat, "action": played}])  # the mover's view needs no query
        _notify_on_commit(game, mover=seat, moved=True)
        _bots_after_change(game)
        for listener in _move_listeners:
            listener(game)
    return game


def resign(game_id: int, user: Any) -> Game:
    """``user`` gives up: the other side wins by resignation (R17); in a team
    game the resignation ends it for the team (RH27)."""
    with transaction.atomic():
        game, seat = _running_game_of(game_id, user)
        now = timezone.now()
        game.charge_clock(now, increment=False)
        game.finish(now, game.other_side_name(seat), Game.Reason.RESIGNATION, _points(game))
        game.save()
        _notify_on_commit(game)
    return game


def adjudicate(game_id: int, winner: str | None, note: str) -> Game:
    """End a running game with the result an organizer or moderator decided:
    ``winner`` a seat (its side wins), or None for a draw, and ``note`` the
    written reason, kept on the game. Unrated: the result was not played out.
    Who may do it is for the caller (tournaments, admin) to check."""
    if not note.strip():
        raise Refusal(gettext("an adjudication needs a written reason"))
    with transaction.atomic():
        game = _locked(game_id)
        if winner is not None and winner not in game.seat_names:
            raise Refusal(gettext("the winner is one of %(seats)s or nobody (a draw), not %(winner)s")
                          % {"seats": ", ".join(game.seat_names), "winner": repr(winner)})
        _check_running(game)
        now = timezone.now()
        game.charge_clock(now, increment=False)
        game.rated = False
        game.abort_at = None
        game.adjudication_note = note.strip()
        game.finish(now, winner and game.side_name(winner), Game.Reason.ADJUDICATION, _points(game))
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
        _call_off(game, now, seat=game.to_move, no_show=True)
    return True


def _forfeit_no_show(game: Game, now: datetime) -> None:
    """The seat to move never made its first move: its side loses by
    forfeit, and so does the other side if none of it came either (no
    winner). Unrated, as nothing was played."""
    absent = game.to_move
    other_side = [game.seat(name) for name in game.sides[0 if absent not in game.sides[0] else 1]]
    moved = set(Move.objects.filter(game_id=game.pk).values_list("seat", flat=True))
    other_came = any(seat.name in moved or seat.seen_at is not None or _bot_plays(game, seat.name)
                     for seat in other_side)
    game.charge_clock(now, increment=False)
    game.rated = False
    game.abort_at = None
    game.finish(now, game.other_side_name(absent) if other_came else None, Game.Reason.NO_SHOW, _points(game))
    game.save()
    _notify_on_commit(game)


def flag(game_id: int, user: Any) -> Game:
    """A player asks to end the game because the side to move is out of time
    (or to abort it: the side to move let its first-move window pass)."""
    with transaction.atomic():
        game, _ = _running_game_of(game_id, user)
        if not (_abort_unstarted(game) or _flag(game)):
            raise Refusal(gettext("%(seat)s still has time") % {"seat": seat_title(game.to_move)})
    return game


def _flag(game: Game) -> bool:
    """Finish a locked game on time if the mover's clock is spent; True if it was."""
    now = timezone.now()
    if game.turn_started_at is None or game.remaining_ms(now) > 0:
        return False
    game.charge_clock(now, increment=False)
    game.clocks = {**game.clocks, game.to_move: 0}
    game.finish(now, game.other_side_name(game.to_move), Game.Reason.TIME, _points(game))
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
             .only("id", "position", "clocks", "turn_started_at"))
    return sorted({*unstarted, *(game.pk for game in timed.iterator() if game.remaining_ms(now) <= 0)})


def claim_abandonment(game_id: int, user: Any) -> Game:
    """``user`` claims the win for their side because a player of the other
    side left during their own turn (R17, RH27)."""
    with transaction.atomic():
        game, seat = _running_game_of(game_id, user)
        if _abort_unstarted(game) or _flag(game):  # aborted, or out of time: that came first
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
        game.finish(now, game.side_name(seat), Game.Reason.ABANDONMENT, _points(game))
        game.save()
        _notify_on_commit(game)
    return game


def _duration(left: timedelta) -> str:
    seconds = int(left.total_seconds()) + 1
    if seconds <= 120:
        return gettext("%(n)s s") % {"n": seconds}
    if seconds <= 7200:
        return gettext("%(n)s min") % {"n": seconds // 60}
    return gettext("%(n)s h") % {"n": seconds // 3600}


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
    """Stamp the user's Seat row (not the game's: a heartbeat never waits for a
    move), in one statement that locks it and returns what it held before."""
    if user is None or not getattr(user, "is_authenticated", False):
        return Presence(None, None)
    return _stamp_with(game_id, user.pk, field, timezone.now())


def _stamp_with(game_id: int, user_id: int, field: str, now: datetime) -> Presence:
    before = _stamped(game_id, user_id, field, now)
    if before is None:
        return Presence(None, None)
    if not _changes_presence(before, field, now):
        return Presence(before.name, None)
    ply = Game.objects.filter(pk=game_id).values_list("ply", flat=True).get()
    return Presence(before.name, _presence_event(field, ply, before.name))


def _changes_presence(before: Seat, field: str, now: datetime) -> bool:
    """Whether stamping ``field`` of the seat as it was ``before`` at ``now``
    turns it present or absent (the group is told only then)."""
    after = Seat(name=before.name, seen_at=before.seen_at, left_at=before.left_at)
    setattr(after, field, now)
    return after.present(now) != before.present(now)


def _presence_event(field: str, ply: int, seat: str) -> dict[str, Any]:
    return {"type": "game.left" if field == "left_at" else "game.changed", "ply": ply, "seat": seat}


def _stamped(game_id: int, user_id: int, field: str, now: datetime) -> Seat | None:
    """Set the seat's ``field`` to ``now``; the seat as it was before (None: no such seat).

    On PostgreSQL one statement (``_stamp_sql``, which ``stay_present`` runs for
    many seats): a player's socket runs it when it opens or closes and on each
    ping, and the ORM's two were 7 % of daphne's CPU at 500 games (issue 24).
    Elsewhere the ORM."""
    if connection.vendor != "postgresql":  # RETURNING there names only the updated row
        with transaction.atomic():
            seat = Seat.objects.select_for_update().filter(game_id=game_id, user_id=user_id).first()
            if seat is not None:
                Seat.objects.filter(pk=seat.pk).update(**{field: now})
            return seat
    with statements.cursor() as cursor:
        cursor.execute(_stamp_sql(field), _stamp_params(field, now, [(game_id, user_id)]))
        row = cursor.fetchone()
    return None if row is None else Seat(name=row[1], seen_at=row[2], left_at=row[3])


@functools.cache
def _stamp_sql(field: str) -> str:
    """Set ``field`` of the seats of (game id, user id) pairs, given as two
    arrays; each seat's game, name and stamps from before. The rows are locked
    in one order (by key), so that two processes that both hold sockets of the
    same players (``stay_present``) never wait on each other in a cycle."""
    seat = Seat._meta
    table, column = seat.db_table, seat.get_field(field).column
    game, user, pk = seat.get_field("game").column, seat.get_field("user").column, seat.pk.column
    seen, left, name = (seat.get_field(f).column for f in ("seen_at", "left_at", "name"))
    return (f'UPDATE "{table}" s SET "{column}" = %s '
            f'FROM (SELECT "{pk}", "{seen}", "{left}" FROM "{table}" '
            f'WHERE ("{game}", "{user}") IN (SELECT * FROM unnest(%s::bigint[], %s::bigint[])) '
            f'ORDER BY "{pk}" FOR UPDATE) old '
            f'WHERE s."{pk}" = old."{pk}" RETURNING s."{game}", s."{name}", old."{seen}", old."{left}"')


def _stamp_params(field: str, now: datetime, seats: list[tuple[int, int]]) -> list[Any]:
    return [Seat._meta.get_field(field).get_db_prep_save(now, connection),
            [game_id for game_id, _user in seats], [user_id for _game, user_id in seats]]


def stay_present(seats: list[tuple[int, int]]) -> list[tuple[int, dict[str, Any]]]:
    """The heartbeat of every player socket open in this process, in one
    statement: stamp the seats of these (game id, user id) pairs as seen now
    (``arrive`` for each, issue 24: each socket stamping its own seat was a
    hop and a statement every PRESENCE_HEARTBEAT per socket, most of an idle
    process's CPU). Returns, for each seat whose presence this changed (a
    stamp gone stale), its game and the group message that says so."""
    seats = sorted(set(seats))
    if not seats:
        return []
    now = timezone.now()
    if connection.vendor != "postgresql":
        stamped = [(game_id, _stamp_with(game_id, user_id, "seen_at", now)) for game_id, user_id in seats]
        return [(game_id, presence.event) for game_id, presence in stamped if presence.event is not None]
    with statements.cursor() as cursor:
        cursor.execute(_stamp_sql("seen_at"), _stamp_params("seen_at", now, seats))
        rows = cursor.fetchall()
    changed = [(game_id, name) for game_id, name, seen, left in rows
               if _changes_presence(Seat(name=name, seen_at=seen, left_at=left), "seen_at", now)]
    if not changed:
        return []
    plies = dict(Game.objects.filter(pk__in={game_id for game_id, _name in changed}).values_list("pk", "ply"))
    return [(game_id, _presence_event("seen_at", plies[game_id], name)) for game_id, name in changed]


# --- Rematch ---------------------------------------------------------------


def rematch(game_id: int, user: Any) -> Game:
    """Offer a rematch of a game that is over, or accept the others' offer.

    Once every player has asked (bots accept at once), a new game starts
    with the same game, time control and rated flag. Ace in the Hole swaps
    the colours; in Rhombus everyone keeps their seat and the winning side
    deals, so the losers move first (RH28, RH37; after a draw or an abort
    the deal passes on). Repeats (double clicks) change nothing.
    """
    with transaction.atomic():
        game = _locked(game_id)
        seat = _player_seat(game, user)
        if game.running:
            raise Refusal(gettext("the game is still running: finish it before asking for a rematch"))
        if game.event:  # its players' next game is the event's (a rematch would be outside it)
            raise Refusal(gettext("this game belongs to %(event)s, so it has no rematch: your next game "
                                  "there starts with the next round") % {"event": game.event})
        if game.rematch_game_id is not None or seat in game.rematch_offers:
            return game
        if any(not _bot_plays(game, name) for name in game.seat_names if name != seat):
            _may_start(user, game.rated)  # playing the computer again is never refused
        _may_sit_together([s.user for s in game.table])  # refused at the offer, not only at the last answer
        game.rematch_offers = [*game.rematch_offers, seat]
        waiting = [name for name in game.seat_names if name not in game.rematch_offers and not _bot_plays(game, name)]
        if not waiting:
            users = [s.user for s in game.table]
            dealer = game.rules.dealer_after(game.rules.from_json(game.position), game.winner or None)
            if dealer is None:  # no dealer in the rules: each player moves on one seat
                users = users[-1:] + users[:-1]
            game.rematch_game = start_game(*users, rated=game.rated, time_control=game.time_control,
                                           setup=Setup(game.kind, game.variant, dealer))
        game.save(update_fields=["rematch_game", "rematch_offers"])
        # Only a new game changes anyone's "your turn" list: then everyone's.
        _notify_on_commit(game, turns_for=[s.user_id for s in game.table] if not waiting else [])
    return game


def abort(game_id: int, user: Any) -> Game:
    """Call the game off before every seat has moved once: no result, unrated (R17, RH27)."""
    with transaction.atomic():
        game, seat = _running_game_of(game_id, user)
        if game.forfeit_no_shows:
            raise Refusal(gettext("a tournament game cannot be aborted: resign instead "
                                  "(a player who does not move in time loses by forfeit)"))
        if game.ply >= game.players:
            raise Refusal(gettext("too late to abort: every player has moved (%(rule)s); resign instead")
                          % {"rule": ENDINGS_RULE[game.kind]})
        _call_off(game, timezone.now(), seat=seat)
    return game


def _call_off(game: Game, now: datetime, *, seat: str | None, no_show: bool = False) -> None:
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
    _notify_on_commit(game)


def _running_game_of(game_id: int, user: Any, session: SessionCheck | None = None) -> tuple[Game, str]:
    """The locked game and ``user``'s seat in it, or a Refusal: not playing, or
    over. A ``session`` is read with the game and judged before all that."""
    if session is None:
        game = _locked(game_id)
    else:
        loaded = load(game_id, lock=True, session=(session.key, session.user_id))
        session.judge(signins.UNREAD if loaded is None else loaded.session_evidence)
        game = _locked(game_id, loaded)
    seat = _player_seat(game, user)
    _check_running(game)
    return game, seat


def _locked(game_id: int, loaded: Game | None = None) -> Game:
    game = loaded or load(game_id, lock=True)
    if game is None:
        raise Refusal(gettext("there is no game %(id)s") % {"id": game_id})
    return game


def load(game_id: int, *, lock: bool = False, actions_from: int | None = None,
         session: tuple[str | None, int] | None = None) -> Game | None:
    """The game, its seats and their players' names (``Seat.user_name``) in
    one query, the game's row locked for the transaction when ``lock`` is set.

    This is live play's hot path: every move loads the game once to change it
    and once per other socket to view it. Written as raw SQL on a cursor,
    because compiling the ORM's query, and even ``raw()``'s work per row
    (matching columns to fields, looking up converters), cost more than
    running it (docs/performance.md); each field's own conversion (JSON) is
    still applied. One row per seat comes back; only the first (seat 0)
    carries the game's columns, the others NULLs, so the position is not sent
    and decoded once per seat.

    With ``actions_from`` (a ply), the same statement also reads the actions
    played from that ply up to the game's own, which a view of a game that
    does not spell its moves carries (``seat_view``): a Rhombus socket's
    update then costs one statement, not two (issue 24).

    With ``session`` (a session key and a user id), it also reads what
    games.signins judges that session by (``Game.session_evidence``, None
    when the session is gone, signins.UNREAD where it was not read): a
    move's session check costs no statement of its own.
    """
    postgresql = connection.vendor == "postgresql"
    with_actions = actions_from is not None and postgresql
    with_session = session is not None and postgresql
    params = [*([actions_from] if with_actions else []),
              *(signins.evidence_params(*session) if with_session and session else []), game_id]
    with statements.cursor() as cursor:
        cursor.execute(_load_sql(lock, with_actions, with_session), params)
        rows = cursor.fetchall()
    if not rows:
        return None
    games, seats = len(statements.fields(Game)), len(statements.fields(Seat))
    game = _from_row(Game, rows[0][:games])
    game._table = []
    for row in rows:
        seat = _from_row(Seat, row[games:games + seats])
        seat.user_name = row[games + seats]
        game._table.append(seat)
    game.session_evidence = signins.UNREAD
    if with_session:
        evidence = tuple(rows[0][-3:])
        game.session_evidence = None if evidence[0] is None else evidence
    if with_actions:
        played = rows[0][games + seats + 1]
        if isinstance(played, str):
            played = json.loads(played)
        _keep_actions(game, actions_from, [{"seat": seat, "action": action} for seat, action in played or ()])
    return game


def _from_row(model: Any, row: tuple[Any, ...]) -> Any:
    values = list(row)
    for i, converters, column in statements.converters(model, connection.alias):
        for convert in converters:
            values[i] = convert(values[i], column, connection)
    return model.from_db(connection.alias, [f.attname for f in statements.fields(model)], values)


@functools.cache
def _load_sql(lock: bool, with_actions: bool = False, with_session: bool = False) -> str:
    users = get_user_model()._meta
    username = users.get_field(get_user_model().USERNAME_FIELD).column
    seat = Seat._meta
    first = f's."{seat.get_field("number").column}" = 0'
    columns = ", ".join([*(f'CASE WHEN {first} THEN g."{f.column}" END' for f in statements.fields(Game)),
                         *(f's."{f.column}"' for f in statements.fields(Seat)), f'u."{username}"'])
    if with_actions:  # PostgreSQL only (load): [[seat, action], ...] from a ply, in order
        move = Move._meta
        ply, game_ply = move.get_field("ply").column, Game._meta.get_field("ply").column
        columns += (f', CASE WHEN {first} THEN (SELECT json_agg(json_build_array(m."{move.get_field("seat").column}", '
                    f'm."{move.get_field("action").column}") ORDER BY m."{ply}") '
                    f'FROM "{move.db_table}" m WHERE m."{move.get_field("game").column}" = g."{Game._meta.pk.column}" '
                    f'AND m."{ply}" >= %s::integer AND m."{ply}" < g."{game_ply}") END')
    evidence = ""
    if with_session:  # PostgreSQL only (load): the session's evidence, or NULLs
        columns += ", ev.*"
        evidence = f"LEFT JOIN ({signins.evidence_sql()}) ev ON TRUE "
    sql = (f'SELECT {columns} '
           f'FROM "{Game._meta.db_table}" g '
           f'JOIN "{seat.db_table}" s ON s."{seat.get_field("game").column}" = g."{Game._meta.pk.column}" '
           f'JOIN "{users.db_table}" u ON u."{users.pk.column}" = s."{seat.get_field("user").column}" '
           f'{evidence}WHERE g."{Game._meta.pk.column}" = %s ORDER BY s."{seat.get_field("number").column}"')
    # Only the game's row is locked, never the seats' or players'. SQLite has no
    # row locks (one writer at a time) and no FOR UPDATE, like select_for_update there.
    if lock and connection.features.has_select_for_update_of:
        sql += " FOR UPDATE OF g"
    return sql


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
    row = game.seat(seat)
    name = getattr(row, "user_name", None)
    return str(name) if name is not None else str(row.user.get_username())


def _player_seat(game: Game, user: Any) -> str:
    if user is None or not getattr(user, "is_authenticated", False):
        raise Refusal(gettext("log in to play"))
    seat = game.seat_of(user)
    if seat is None:
        raise Refusal(gettext("you are not playing in this game"))
    return seat


def _check_running(game: Game) -> None:
    if not game.running:
        raise Refusal(gettext("the game is over (%(status)s)") % {"status": game.status})


def _apply(game: Game, action_text: str) -> tuple[Any, str]:
    """The state after the action, and the action as the record keeps it
    (canonical: Ace in the Hole's capture mark included, Rhombus's N1 form)."""
    try:
        return game.rules.play(game.rules.from_json(game.position), action_text)
    except engine.EngineError as error:  # IllegalAction names the rule; NotationError the format
        raise Refusal(refusals.describe(error)) from None


def _points(game: Game) -> dict[str, int] | None:
    """Each seat's points in the current position, where the rules count them (R16)."""
    return game.rules.score(game.rules.from_json(game.position))


def _record(game: Game, state: Any) -> None:
    """Store the new state, run the clocks, and the result if the rules say it is over."""
    now = timezone.now()
    game.charge_clock(now, increment=True)
    game.position = dict(game.rules.to_json(state))
    game._parsed = (game.position, state)  # the mover's view reads it (state_of), not the JSON again
    game.ply = state.ply
    if game.abort_at is not None:  # a first move: the next seat's is due, or the clocks start
        started = game.ply >= game.players
        game.abort_at = None if started else now + FIRST_MOVE_WINDOW
        game.turn_started_at = now if started else None
    over = game.rules.outcome(state)
    if over is not None:
        game.finish(now, over.winner, RULE_REASONS.get(over.reason, over.reason), getattr(over, "score", None))


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
    with statements.cursor() as cursor:
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


# --- Telling the watchers -------------------------------------------------


def _notify_on_commit(game: Game, kind: str = "game.changed", *, mover: str | None = None,
                      turns_for: list[int] | None = None, **extra: Any) -> None:
    """After commit, the game's sockets reload, and the players whose "your
    turn" list changed (``turns_for``, or worked out from the move) are told so
    on their personal sockets (notify.live)."""
    game_id, ply = game.pk, game.ply
    turns = notify_live.turns_changed(_turn_changed_for(game, mover) if turns_for is None else turns_for)

    def send() -> None:
        _send_to_groups([_game_message(game_id, ply, kind, **extra), *turns])

    transaction.on_commit(send)
    if not game.running:  # it leaves the live list (a rematch's offer says so again: harmless)
        _announce_live([game_id])


def _turn_changed_for(game: Game, mover: str | None) -> list[int]:
    """The players who gained or lost the move: the mover and the next to move,
    or, when the game ended without a move, the one who had it. From the
    loaded seats: no query on the move path."""
    if mover is not None:
        seats = [mover, game.to_move] if game.running else [mover]
    elif not game.running:
        seats = [game.to_move]
    else:
        return []
    return [game.user_id_at(seat) for seat in dict.fromkeys(seats)]


# Every daphne process's live-games hub (games/watch.py) is one member of this
# group: told of each game that starts or ends, it re-reads that game's row.
# Moves are not sent here: a hub hears them through the groups of the games
# its sockets show, where the move's message goes anyway.
LIVE_GROUP = "games-live"


def _announce_live(game_ids: list[int]) -> None:
    """After commit, tell the live-games hubs that these games started or ended."""
    transaction.on_commit(lambda: _send_to_groups([(LIVE_GROUP, {"type": "live.changed", "games": game_ids})]))


def notify(game_id: int, ply: int, kind: str = "game.changed", **extra: Any) -> None:
    """Tell every consumer of the game to reload its own view.

    The message carries no position at all, so nothing hidden can reach the
    channel layer (Redis) or the wrong socket. ``game.left`` (with the seat)
    also asks that seat's remaining sockets to say they are still there.
    """
    _send_to_groups([_game_message(game_id, ply, kind, **extra)])


def _game_message(game_id: int, ply: int, kind: str, **extra: Any) -> tuple[str, dict[str, Any]]:
    # "game" for the live-games hubs (games/watch.py), members of many games' groups.
    return group_name(game_id), {"type": kind, "game": game_id, "ply": ply, **extra}


def _send_to_groups(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Group messages now, in one call to the layer, or into this thread's
    outbox (held_notifications)."""
    outbox = getattr(_outboxes, "current", None)
    if outbox is not None:
        outbox.extend(messages)
        return
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(send_to_groups)(layer, [(group, message, None) for group, message in messages])


GroupSend = tuple[str, dict[str, Any], "str | None"]  # a group, its message, the channel it skips


async def send_to_groups(layer: Any, sends: list[GroupSend]) -> None:
    """Each ``(group, message, skipping)`` in order: in one round trip where
    the layer can (aceweb.layers.RedisChannelLayer.group_send_many), else one
    ``group_send`` each, skipping no one (an in-process layer's is cheap)."""
    many = getattr(layer, "group_send_many", None)
    if many is not None:
        await many(sends)
        return
    for group, message, _skipping in sends:
        await layer.group_send(group, message)


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


def view_for(game: Game, user: Any, *, since: int | None = None) -> PayloadJSON:
    """The user's seat's view (spectator view for anyone else) plus the public
    game fields: the only thing ever sent to a client."""
    return seat_view(game, game.seat_of(user), since=since)


def seat_view(game: Game, seat: str | None, *, since: int | None = None) -> PayloadJSON:
    """What ``seat`` (None: a spectator) may see, from the rules' own view
    (R18, RH29): its own hand and no other, not even a partner's (RH36), and
    never the pile's order before the end. Every socket frame and every bot's
    input is built here.

    A game whose view does not spell its moves (Rhombus) adds the actions
    played: all of them, or with ``since`` (a ply the receiver already has)
    only those from that ply on, ``actions_from`` saying where they start. A
    long game's list would otherwise be rebuilt and sent in every frame.
    """
    # Rhombus's mover gets the card sets that have an action, not every legal
    # text (a Formation flush has tens of thousands): games.steps answers, use
    # by use, what can follow (issue 24). Ace in the Hole's list is cheap: kept.
    view = dict(game.rules.seat_view(state_of(game), seat, listing=False).to_json())
    if "discards" not in view:  # Ace in the Hole's discards spell its moves; Rhombus's pile does not
        start = 0 if since is None else min(since, game.ply)
        view["actions"] = _actions(game, start)
        view["actions_from"] = start
    if not game.running:  # resigned, out of time or aborted: the engine does not know it is over
        view.update({key: [] for key in ("legal", "sets") if key in view})
        if "firsts" in view:  # the one-card sets' first uses: nothing left to offer (docs/protocol.md)
            view["firsts"] = {}
    if "seed_hex" in view:  # Rhombus: the seed is public once the game is over, however it ended (RH30)
        view["seed_hex"] = None if game.running else game.position.get("seed_hex")
    payload: PayloadJSON = {**view, "game": game_json(game)}
    return payload


def view_since(payload: PayloadJSON, since: int | None) -> PayloadJSON:
    """``seat_view(game, seat, since=since)`` from ``payload``, the same seat's
    ``seat_view(game, seat)`` of the same game: the actions a Rhombus view
    lists cut to those from ``since`` on. No other part of a view depends on
    ``since``."""
    if since is None or "actions_from" not in payload:
        return payload
    start = min(since, payload["ply"])
    return {**payload, "actions": payload["actions"][start - payload["actions_from"]:], "actions_from": start}


def state_of(game: Game) -> Any:
    """The rules' state of ``game.position``, read from its JSON once: a move
    keeps the state it made (``_record``) for the mover's view. Kept beside the
    very position object it was read from, so a new position is read anew."""
    kept = getattr(game, "_parsed", None)
    if kept is not None and kept[0] is game.position:
        return kept[1]
    state = game.rules.from_json(game.position)
    game._parsed = (game.position, state)
    return state


def _actions(game: Game, start: int) -> list[dict[str, str]]:
    """The actions from ply ``start`` up to the game's own ply, public as written
    (RH29): [{"seat": "SW", "action": "KC b1-b3"}, ...]. No query when there are
    none (a presence change, a clock's end), nor when ``game`` came with them:
    the move that made it (``_submit``) or a load that read them (``load``).

    Bounded by ``game.ply``: a move committed since ``game`` was read is not this
    view's (moves are only ever added), so the list and the view are of one
    moment (issue 22, 6: frames carried the action after their own ply).
    """
    if start >= game.ply:
        return []
    kept = getattr(game, "_actions_kept", None)
    if kept is not None and kept[0] <= start and kept[0] + len(kept[1]) == game.ply:
        return kept[1][start - kept[0]:]
    moves = (Move.objects.filter(game_id=game.pk, ply__gte=start, ply__lt=game.ply).order_by("ply")
             .values_list("seat", "action"))
    return [{"seat": seat, "action": action} for seat, action in moves]


def _keep_actions(game: Game, start: int, actions: list[dict[str, str]]) -> None:
    """Keep with ``game`` the actions played from ply ``start`` to its own ply
    (``_actions`` uses them only if they reach exactly that far)."""
    game._actions_kept = (start, actions)


def game_json(game: Game) -> GameJSON:
    over = not game.running
    now = timezone.now()
    claim_at = game.claim_win_at(now)
    finished = game.status == Game.Status.FINISHED
    return {
        "id": game.pk,
        "kind": game.kind,
        "title": game.title,
        "variant": game.variant,
        "seats": list(game.seat_names),
        "sides": [list(side) for side in game.sides],
        "players": {seat.name: player_name(game, seat.name) for seat in game.table},
        "status": game.status,
        "winner": game.winner or None,
        "reason": game.reason or None,
        "result": game.result,
        "score": game.score if finished else None,
        "rated": game.rated,
        "commitment": game.commitment,
        # R19: the seed becomes public once the game is over, never before.
        "seed": game.seed if over else None,
        "clock": clock_json(game),
        "presence": {seat.name: seat.present(now) for seat in game.table},
        "claim_win_at": claim_at.isoformat() if claim_at else None,
        "rematch": {"offered_by": list(game.rematch_offers),
                    "game_id": game.rematch_game_id},
        "bot": _bot_json(game),
        "ratings": _ratings_json(game),
        "event": {"name": game.event, "round": game.event_round, "url": game.event_url} if game.event else None,
        "adjudication": game.adjudication_note or None,
        "ending": game.reason_label if game.reason and not game.running else None,
    }


def clock_json(game: Game) -> ClockJSON:
    running = game.to_move if game.running else None
    started = game.turn_started_at.isoformat() if game.turn_started_at and running else None
    return {
        "ms": {seat: game.clock_ms(seat) for seat in game.seat_names},
        "running": running,
        "turn_started_at": started,
        "initial_seconds": game.initial_seconds,
        "increment_seconds": game.increment_seconds,
        "days_per_move": game.days_per_move,
        "time_control": game.time_control.key,
        "abort_at": game.abort_at.isoformat() if game.abort_at and running else None,
    }
