"""Hand-made Rhombus positions for tests, built through the page's position format."""
from __future__ import annotations

from typing import Any

from engine.rhombus import State, from_json, legal_actions
from engine.rhombus.cards import CARD_NAMES


def board(diagram: str) -> dict[str, str]:
    """A board from a diagram as the rules page draws it: rank 5 first, ``S``/``N``/``.``."""
    rows = [line.split() for line in diagram.strip().splitlines()]
    assert len(rows) == 5 and all(len(r) == 5 for r in rows), diagram
    out = {}
    for i, row in enumerate(rows):
        for f, mark in enumerate(row):
            if mark != ".":
                out[f"{'abcde'[f]}{5 - i}"] = {"S": "SW", "N": "NE"}[mark]
    return out


def position(
    diagram: str,
    sw: tuple[list[str], list[str]],
    ne: tuple[list[str], list[str]] | None = None,
    to_move: str = "SW",
    reserve: tuple[int, int] = (0, 0),
    eliminated: tuple[int, int] = (0, 0),
    pile: list[str] | None = None,
    discard: list[str] | None = None,
    **extra: Any,
) -> State:
    """A position with ``sw``/``ne`` = (table, hand).

    Cards named nowhere go to the pile in card order, or, when ``pile`` is
    given, under the ``discard`` cards.  ``ne`` defaults to three cards
    nobody else holds.
    """
    named = set(sw[0] + sw[1] + (ne[0] + ne[1] if ne else []) + (pile or []) + (discard or []))
    spare = [c for c in CARD_NAMES if c not in named]
    if ne is None:
        ne, spare = (spare[:2], spare[2:3]), spare[3:]
    data: dict[str, Any] = {
        "variant": "classic",
        "board": board(diagram),
        "seats": {
            "SW": {"table": sw[0], "hand": sw[1], "reserve": reserve[0], "eliminated": eliminated[0]},
            "NE": {"table": ne[0], "hand": ne[1], "reserve": reserve[1], "eliminated": eliminated[1]},
        },
        "pile": spare if pile is None else pile,
        "discard": (discard or []) + (spare if pile is not None else []),
        "to_move": to_move,
        "seed_hex": b"test".hex(),
    }
    data.update(extra)
    return from_json(data)


def texts(s: State) -> list[str]:
    return [str(a) for a in legal_actions(s)]


# The start position (RH4); the page's diagram of worked example 1 leaves out d5.
START = """
. . . N N
. . . . N
. . . . .
S . . . .
S S . . .
"""


# The team game's diagrams: S = SW, E = SE, N = NE, W = NW (RH3, RH31).
TEAM_MARKS = {"S": "SW", "E": "SE", "N": "NE", "W": "NW"}


def team_board(diagram: str) -> dict[str, str]:
    rows = [line.split() for line in diagram.strip().splitlines()]
    assert len(rows) == 5 and all(len(r) == 5 for r in rows), diagram
    return {
        f"{'abcde'[f]}{5 - i}": TEAM_MARKS[mark]
        for i, row in enumerate(rows) for f, mark in enumerate(row) if mark != "."
    }


def team_position(
    diagram: str,
    cards: dict[str, tuple[list[str], list[str]]],
    to_move: str = "SW",
    reserve: dict[str, int] | None = None,
    eliminated: dict[str, int] | None = None,
    **extra: Any,
) -> State:
    """A 4-player position; ``cards`` maps seats to (table, hand).

    Seats not in ``cards`` get three cards nobody else holds; the rest go to
    the pile in card order.  ``out`` follows the board, as RH34 makes it:
    a seat with no piece on the board is out.
    """
    named = {c for table, hand in cards.values() for c in table + hand}
    spare = [c for c in CARD_NAMES if c not in named]
    seats: dict[str, Any] = {}
    squares = team_board(diagram)
    for name in ("SW", "SE", "NE", "NW"):
        if name in cards:
            table, hand = cards[name]
        else:
            (table, hand), spare = (spare[:2], spare[2:3]), spare[3:]
        seats[name] = {
            "table": table, "hand": hand,
            "reserve": (reserve or {}).get(name, 0), "eliminated": (eliminated or {}).get(name, 0),
            "out": name not in squares.values(),
        }
    data: dict[str, Any] = {
        "variant": "classic", "board": squares, "seats": seats, "pile": spare, "to_move": to_move,
        "seed_hex": b"test".hex(),
    }
    data.update(extra)
    return from_json(data)
