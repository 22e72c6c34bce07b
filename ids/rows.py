"""Whether a number can be a row's id: 1 to MAX_ID, the range of PostgreSQL's
bigint, which every primary key here is (BigAutoField).

The ORM answers "no such row" for a number past that range, but the
statements live play runs itself (games/statements.py) send it to PostgreSQL,
which fails with "bigint out of range": a 500, or a socket dropped with a
traceback (issue 35, 11). So every id from outside is checked here first:
routes through the ``id`` converter (``<id:game_id>``, registered by
IdsConfig), form fields and socket frames through ``row_id``.
"""

from __future__ import annotations

MAX_ID = 2**63 - 1
_MOST_DIGITS = len(str(MAX_ID))


def row_id(value: object) -> int | None:
    """``value`` as a row id: an int (not a bool) or a string of ASCII digits
    (as a URL or form field holds it) from 1 to MAX_ID; None for anything else.
    Also for the other positive numbers a visitor types (a page, a round, a
    time-out's minutes), checked then against their own range: int() is never
    handed thousands of digits (a ValueError past 4,300).

    >>> row_id("12"), row_id(12), row_id("0"), row_id(2**63), row_id("x"), row_id(True)
    (12, 12, None, None, None, None)
    """
    if isinstance(value, str):
        if not (value.isascii() and value.isdigit()) or len(value.lstrip("0")) > _MOST_DIGITS:
            return None  # also spares int() a string of thousands of digits
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return value if 1 <= value <= MAX_ID else None


class IdConverter:
    """``<id:name>`` in a route: digits that can be a row's id. Any other number
    matches no route, so a page answers 404 as for a row that does not exist."""

    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        number = row_id(value)
        if number is None:
            raise ValueError(f"{value} cannot be a row id (1 to {MAX_ID})")
        return number

    def to_url(self, value: int) -> str:
        return str(value)
