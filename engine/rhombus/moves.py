"""Walks, bishop moves and blockades on bit masks (RH12-RH14, RH17).

A square set is an int with bit ``sq`` set for each square.  A piece's
``mask`` is every square it has stood on or crossed in the current action
(RH13 rule 3), its starting square included; walks never enter it.
"""
from __future__ import annotations

import functools

from .cards import ADJACENT, BIT, DIAGONAL_RAYS
from .state import EMPTY, side_of

Step = tuple[int, int]  # (end square, the piece's mask after the move)


# Mostly hit within one state's search (flushes try each walk again in
# every order of the uses); kept small, as entries for 6-step walks are big.
@functools.lru_cache(maxsize=4096)
def orthogonal(frm: int, steps: int, mask: int, free: int, final: int) -> tuple[Step, ...]:
    """Every (end, mask) of a walk of exactly ``steps`` side-steps (RH13).

    ``free`` are the squares the walk may cross, ``final`` those it may end
    on (empty squares, or for a kill the opponent pieces it may take).  Two
    walks with the same end and the same squares are one result.
    """
    found: set[Step] = set()

    def go(sq: int, left: int, seen: int) -> None:
        for nxt in ADJACENT[sq]:
            bit = BIT[nxt]
            if seen & bit:
                continue
            if left == 1:
                if final & bit:
                    found.add((nxt, seen | bit))
            elif free & bit:
                go(nxt, left - 1, seen | bit)

    go(frm, steps, mask)
    return tuple(sorted(found))


# Its entries are small (an int), so many more are kept: a flush's last walks.
@functools.lru_cache(maxsize=1 << 16)
def orthogonal_ends(frm: int, steps: int, mask: int, free: int, final: int) -> int:
    """The end squares (a bit set) of :func:`orthogonal`'s walks, for a last move
    whose visited squares no longer matter (RH13)."""
    ends = 0
    stack = [(frm, steps, mask | BIT[frm])]
    while stack:
        sq, left, seen = stack.pop()
        for nxt in ADJACENT[sq]:
            bit = BIT[nxt]
            if seen & bit:
                continue
            if left == 1:
                if final & bit:
                    ends |= bit
            elif free & bit:
                stack.append((nxt, left - 1, seen | bit))
    return ends


def diagonal_ends(frm: int, mask: int, free: int, final: int) -> int:
    """The end squares (a bit set) of :func:`diagonal`'s moves."""
    ends = 0
    for end, _ in diagonal(frm, mask, free, final):
        ends |= BIT[end]
    return ends


def diagonal(frm: int, mask: int, free: int, final: int) -> tuple[Step, ...]:
    """Every (end, mask) of a J move: k >= 1 squares along one diagonal (RH14).

    Pieces touching the path only at a corner never matter: only the
    squares on the diagonal itself are looked at.
    """
    found: list[Step] = []
    for ray in DIAGONAL_RAYS[frm]:
        seen = mask
        for sq in ray:
            bit = BIT[sq]
            if seen & bit:
                break
            seen |= bit
            if final & bit:
                found.append((sq, seen))
            if not free & bit:
                break
    return tuple(found)


@functools.lru_cache(maxsize=1 << 14)
def occupied(board: tuple[int, ...]) -> int:
    return sum(BIT[sq] for sq, who in enumerate(board) if who != EMPTY)


@functools.lru_cache(maxsize=1 << 14)
def seat_squares(board: tuple[int, ...], seat: int) -> int:
    return sum(BIT[sq] for sq, who in enumerate(board) if who == seat)


def side_squares(board: tuple[int, ...], side: int) -> int:
    return sum(BIT[sq] for sq, who in enumerate(board) if who != EMPTY and side_of(who) == side)


_DIAGONAL_STEPS = ((1, 1), (1, -1))


def _run(board: tuple[int, ...], sq: int, side: int, df: int, dr: int) -> int:
    """How many pieces of ``side`` follow ``sq`` in one diagonal direction, with no gap."""
    n, f, r = 0, sq % 5 + df, sq // 5 + dr
    while 0 <= f < 5 and 0 <= r < 5:
        who = board[r * 5 + f]
        if who == EMPTY or side_of(who) != side:
            break
        n, f, r = n + 1, f + df, r + dr
    return n


def protected(board: tuple[int, ...], sq: int) -> bool:
    """RH17: the piece on ``sq`` is one of 3+ of its side in a row on a diagonal line."""
    who = board[sq]
    if who == EMPTY:
        return False
    side = side_of(who)
    return any(
        1 + _run(board, sq, side, df, dr) + _run(board, sq, side, -df, -dr) >= 3
        for df, dr in _DIAGONAL_STEPS
    )


@functools.lru_cache(maxsize=1 << 14)
def targets(board: tuple[int, ...], side: int) -> int:
    """The squares of opponent pieces that ``side`` may kill: not protected (RH16, RH17)."""
    return sum(
        BIT[sq] for sq, who in enumerate(board)
        if who != EMPTY and side_of(who) != side and not protected(board, sq)
    )


__all__ = [
    "diagonal", "diagonal_ends", "occupied", "orthogonal", "orthogonal_ends", "protected", "seat_squares",
    "side_squares", "targets",
]
