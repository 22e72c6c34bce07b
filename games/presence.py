"""Presence (R17 abandonment): which players have a socket open on their game.

Each player socket stamps its seat when it opens, on its heartbeat and when it
closes; the group is told only when a seat turns present or absent.
"""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any, NamedTuple

from django.db import connection, transaction
from django.utils import timezone

from games import statements
from games.models import Game, Seat


class Presence(NamedTuple):
    """A stamped seat (None for a spectator or no such game), and the group
    message to send when its presence changed (None when it did not)."""

    seat: str | None
    event: dict[str, Any] | None


def arrive(game_id: int, user: Any) -> Presence:
    """A socket of ``user`` opened or is still open: stamp their seat as seen.

    The group needs telling only when the seat's presence changes, not on
    every heartbeat. The caller sends ``event`` (committed by then) to
    ``broadcast.group_name(game_id)``: the consumer does it from its own event loop,
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
