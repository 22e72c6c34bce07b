"""Per-card, per-square move tables holding ready-made actions (R9-R12).

``entries(card, square)`` lists, for a pawn that ``card`` may move standing on
``square``, every landing square the card's geometry allows, as
``(path_mask, landing_bit, quiet_action, capturing_action)``.  Filling a
position into it is then two mask tests per entry, and the generator never
builds an action: each distinct action exists once and is shared.  Tables
fill lazily, so importing the engine stays cheap.
"""
from __future__ import annotations

from typing import Final

from .actions import Action
from .cards import CARD_NAMES, HOME, SQUARE_NAMES, SUIT_PAWNS, pawn_of_card
from .geometry import BIT, LEAPS, SLIDES, STEPS

Entry = tuple[int, int, Action, Action]

# CARD_PAWNS[card]: the pawns a card may move: its suit's four for a number
# card (R9), its own pawn alone for a face card (R12).
CARD_PAWNS: Final = tuple(
    (face,) if (face := pawn_of_card(card)) is not None else SUIT_PAWNS[card // 13]
    for card in range(52)
)
IS_FACE: Final = tuple(pawn_of_card(card) is not None for card in range(52))
HOME_BIT: Final = tuple(BIT[sq] for sq in HOME)

# TABLES[card][square]: None until first asked for; read through `entries`,
# or directly in the generator's inner loop.
TABLES: Final[list[list[tuple[Entry, ...] | None]]] = [[None] * 64 for _ in range(52)]


def _landings(card: int, sq: int) -> list[tuple[int, int]]:
    """(path mask, landing square) pairs that ``card``'s geometry allows from ``sq``."""
    rank = card % 13
    if 1 <= rank <= 6:
        return list(SLIDES[rank + 1][sq])
    if 7 <= rank <= 9:
        return [(0, to) for to in LEAPS[rank + 1][sq]]
    return [(0, to) for to in STEPS[sq]]


def _fill(card: int, sq: int) -> tuple[Entry, ...]:
    name, frm = CARD_NAMES[card], SQUARE_NAMES[sq]
    table = tuple(
        (path, BIT[to],
         Action(name, "move", frm, SQUARE_NAMES[to], False),
         Action(name, "move", frm, SQUARE_NAMES[to], True))
        for path, to in _landings(card, sq)
    )
    TABLES[card][sq] = table
    return table


def entries(card: int, sq: int) -> tuple[Entry, ...]:
    """The move entries of ``card`` from ``sq`` (see the module docstring)."""
    found = TABLES[card][sq]
    return _fill(card, sq) if found is None else found


# The generator's form of the same tables (issue 24): GEN[card][square] holds
# (path_mask | landing_bit, landing_bit, quiet_action, capturing_action), so one
# mask test tells a quiet move (nothing on the path or the landing) from the
# rest, and a second, only then, a capture (the path clear, the landing an
# opponent's).  A jump's path is empty, so the same test serves every card.
# A card's row fills whole on its first use: one check per card, not per pawn.
GenEntry = tuple[int, int, Action, Action]
GEN: Final[list[tuple[tuple[GenEntry, ...], ...] | None]] = [None] * 52


def gen_row(card: int) -> tuple[tuple[GenEntry, ...], ...]:
    """``GEN[card]``, filled on first use from the same shared actions as :func:`entries`."""
    row = GEN[card]
    if row is None:
        row = GEN[card] = tuple(
            tuple((path | bit, bit, quiet, capture) for path, bit, quiet, capture in entries(card, sq))
            for sq in range(64)
        )
    return row


# PATHS[(rank << 12) | (from << 6) | to]: the squares a card of that rank (0 = A,
# 12 = K) passes over from ``from`` to ``to`` as a mask, for every move its shape
# allows (R10-R12); a move missing here has the wrong shape.  `apply` checks the
# one action it is given with a single look-up.
PATHS: Final = {
    (rank << 12) | (sq << 6) | to: path
    for rank in range(13) for sq in range(64) for path, to in _landings(rank, sq)
}


def fill_all() -> None:
    """Build every table now rather than on first use: a long-lived server does
    this once at start, then freezes it out of the garbage collector's view."""
    for card in range(52):
        for sq in range(64):
            entries(card, sq)
        gen_row(card)


_RELEASES: Final = tuple(
    (Action(CARD_NAMES[c], "release"), Action(CARD_NAMES[c], "release", capture=True))
    if IS_FACE[c] else None
    for c in range(52)
)
BURNS: Final = tuple(Action(CARD_NAMES[c], "burn") for c in range(52))


def release(card: int, capture: bool) -> Action:
    pair = _RELEASES[card]
    assert pair is not None
    return pair[capture]


def burn(card: int) -> Action:
    return BURNS[card]
