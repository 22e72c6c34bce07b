"""Cursors for the statements live play runs many times a second (issue 24).

Django's psycopg 3 cursors bind parameters on the client: each statement goes
out as one string with its values quoted into it (a move's UPDATE quotes the
whole position, about 2 kB of JSON, character by character), and PostgreSQL
parses and plans it afresh every time. ``cursor()`` here binds on the server
instead (psycopg's ``Cursor``), so the values travel apart from the SQL and
psycopg prepares a statement once a connection has run it five times
(``prepare_threshold``): after that PostgreSQL only binds and executes it.
Django's own options keep client binding for everything else, whose SQL the
ORM writes in ways server binding does not always accept.

The cursor is Django's wrapper around it, so query logging, execute wrappers
(``django_assert_num_queries``, CaptureQueriesContext) and error translation
work as for any other cursor. Elsewhere than on PostgreSQL it is the usual one.
"""

from __future__ import annotations

import functools
from typing import Any

from django.db import connection, connections


def cursor() -> Any:
    """A cursor on the default connection, binding on the server where it can.

    Use it as Django's: ``with statements.cursor() as cursor: cursor.execute(sql, params)``,
    with ``%s`` placeholders. The SQL should be a fixed text (the parameters
    apart), or the prepared statements it leaves are of no use.
    """
    if connection.vendor != "postgresql":
        return connection.cursor()
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID, ServerBindingCursor, register_tzloader
    from psycopg.pq import Format

    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        raw = ServerBindingCursor(connection.connection)
        # As Django's create_cursor: times in the connection's zone.
        if connection.timezone != connection.connection.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT).timezone:
            register_tzloader(connection.timezone, raw)
    return connection._prepare_cursor(raw)


@functools.cache
def fields(model: Any) -> tuple[Any, ...]:
    """A model's columns in the order its rows are read here (``from_db``)."""
    return tuple(model._meta.concrete_fields)


@functools.cache
def converters(model: Any, alias: str) -> list[tuple[int, list[Any], Any]]:
    """The backend's and each field's converters for a model's columns, as the
    ORM's compiler finds them (``SQLCompiler.get_converters``), found once."""
    db = connections[alias]
    found = []
    for i, field in enumerate(fields(model)):
        column = field.get_col(model._meta.db_table)
        converters = db.ops.get_db_converters(column) + field.get_db_converters(db)
        if converters:
            found.append((i, converters, column))
    return found
