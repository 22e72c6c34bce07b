"""Loading and saving a game on live play's hot path: one hand-written
statement to read a game with its seats (locked, for a change), one to save
a move, and the checks every change makes on the locked game.

Written as SQL on a cursor because compiling the ORM's queries cost more than
running them (docs/performance.md); each field's own conversion still applies.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext

from games import signins, statements
from games.models import Game, Move, Seat
from games.refusals import Refusal


# The columns a move changes (games.moving's ``_record``), and those a result adds (Game.finish):
# saving only these keeps the per-move UPDATE small.
MOVE_FIELDS = ["position", "ply", "clocks", "turn_started_at", "abort_at"]
RESULT_FIELDS = ["status", "winner", "reason", "score", "finished"]


class SessionCheck(NamedTuple):
    """A socket's session, checked in the move's own statement (issue 24):
    ``judge`` gets what the game's locked load read of it (the evidence of
    games.signins.still_signs_in, or signins.UNREAD where it read none) and
    raises to stop the move, before anything else is checked."""

    key: str | None
    user_id: int
    judge: Callable[[Any], None]


def running_game_of(game_id: int, user: Any, session: SessionCheck | None = None) -> tuple[Game, str]:
    """The locked game and ``user``'s seat in it, or a Refusal: not playing, or
    over. A ``session`` is read with the game and judged before all that."""
    if session is None:
        game = locked(game_id)
    else:
        loaded = load(game_id, lock=True, session=(session.key, session.user_id))
        session.judge(signins.UNREAD if loaded is None else loaded.session_evidence)
        game = locked(game_id, loaded)
    seat = player_seat(game, user)
    check_running(game)
    return game, seat


def locked(game_id: int, loaded: Game | None = None) -> Game:
    game = loaded or load(game_id, lock=True)
    if game is None:
        raise Refusal(gettext("there is no game %(id)s") % {"id": game_id})
    return game


def player_seat(game: Game, user: Any) -> str:
    if user is None or not getattr(user, "is_authenticated", False):
        raise Refusal(gettext("log in to play"))
    seat = game.seat_of(user)
    if seat is None:
        raise Refusal(gettext("you are not playing in this game"))
    return seat


def check_running(game: Game) -> None:
    if not game.running:
        raise Refusal(gettext("the game is over (%(status)s)") % {"status": game.status})


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
    does not spell its moves carries (``payloads.seat_view``): a Rhombus socket's
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
        keep_actions(game, actions_from, [{"seat": seat, "action": action} for seat, action in played or ()])
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


def keep_actions(game: Game, start: int, actions: list[dict[str, str]]) -> None:
    """Keep with ``game`` the actions played from ply ``start`` to its own ply
    (``payloads._actions`` uses them only if they reach exactly that far)."""
    game._actions_kept = (start, actions)


def save_move(game: Game, ply: int, seat: str, action: str) -> None:
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
