"""A fixed way to choose Rhombus actions so that a game reaches its end by
the rules in a few dozen actions: one side hunts, the other keeps still.

Used by the browser tests (tests/gamepage/test_rhombus_page_browser.py) to
decide what to click; it reads only the mover's legal texts, which the test
asks of the rules (the page is never sent them, issue 24), and the board.
"""

from __future__ import annotations

import re
from typing import Any

MOVE = re.compile(r"([a-e][1-5])[-x]([a-e][1-5])")
ENTER = re.compile(r"@x?([a-e][1-5])")
CORNERS = {"a1": "SW", "e1": "SE", "e5": "NE", "a5": "NW"}


def board_after(board: dict[str, str], text: str) -> dict[str, str]:
    """The board once the text's moves and new pieces are made, in its order."""
    after = dict(board)
    for use in text.split(", "):
        move = MOVE.search(use)
        enter = ENTER.search(use)
        if move:
            after[move[2]] = after.pop(move[1])
        elif enter:
            after[enter[1]] = CORNERS[enter[1]]
    return after


def _distance(a: str, b: str) -> int:
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1]) - int(b[1]))


def _closeness(board: dict[str, str], ours: list[str]) -> int:
    """How far our pieces stand from the nearest opponent piece, summed (smaller is closer)."""
    mine = [sq for sq, seat in board.items() if seat in ours]
    theirs = [sq for sq, seat in board.items() if seat not in ours]
    if not theirs:
        return 0
    return sum(min(_distance(m, t) for t in theirs) for m in mine)


def choose(view: dict[str, Any], hunters: list[str]) -> str:
    """The action ``view``'s seat plays: a hunter takes the most eliminations,
    else closes in; anyone else brings no piece in and prefers to stay still."""
    legal: list[str] = view["legal"]
    seat = view["seat"]
    side = next(side for side in view["game"]["sides"] if seat in side)
    if seat in hunters:
        return min(legal, key=lambda text: (-text.count("x"), _closeness(board_after(view["board"], text), side), text))
    return min(legal, key=lambda text: ("@" in text, len(MOVE.findall(text)), text))
