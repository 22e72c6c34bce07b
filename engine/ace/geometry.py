"""Precomputed move tables for a flat 64-square board (R10-R12).

Move generation only looks things up here: for a square and a distance, which
squares a slide passes over (as a bit mask) and where it lands; for a leaper,
its landing squares; for a face card, the eight neighbours.  Every list is in
a fixed order so that generation is deterministic.
"""
from __future__ import annotations

from typing import Final

BIT: Final = tuple(1 << sq for sq in range(64))

DIRECTIONS: Final = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
LEAPER_OFFSETS: Final = {8: (1, 2), 9: (1, 3), 10: (2, 3)}


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


def _slides(distance: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each square: (mask of squares passed over, landing square) per direction."""
    table = []
    for sq in range(64):
        f, r = sq % 8, sq // 8
        moves = []
        for df, dr in DIRECTIONS:
            if not _on_board(f + df * distance, r + dr * distance):
                continue
            path = 0
            for step in range(1, distance):
                path |= BIT[(r + dr * step) * 8 + f + df * step]
            moves.append((path, (r + dr * distance) * 8 + f + df * distance))
        table.append(tuple(moves))
    return tuple(table)


def _orientations(a: int, b: int) -> list[tuple[int, int]]:
    """The eight orientations of offset (a, b), without repeats."""
    seen: list[tuple[int, int]] = []
    for x, y in ((a, b), (b, a)):
        for sx in (1, -1):
            for sy in (1, -1):
                if (x * sx, y * sy) not in seen:
                    seen.append((x * sx, y * sy))
    return seen


def _jumps(offsets: list[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
    table = []
    for sq in range(64):
        f, r = sq % 8, sq // 8
        table.append(tuple(
            (r + dr) * 8 + f + df for df, dr in offsets if _on_board(f + df, r + dr)
        ))
    return tuple(table)


# SLIDES[n][square] for the cards 2-7 (R10); index 0 and 1 unused.
SLIDES: Final = tuple(_slides(n) if n >= 2 else () for n in range(8))
# LEAPS[n][square] for the cards 8, 9, 10 (R11).
LEAPS: Final = {n: _jumps(_orientations(*offset)) for n, offset in LEAPER_OFFSETS.items()}
# STEPS[square]: one square in any direction, for face cards (R12).
STEPS: Final = _jumps(list(DIRECTIONS))
