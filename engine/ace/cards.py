"""Squares, cards and pawns as small integers, with their names (R1-R5).

The rules speak in names (``e1``, ``5H``, ``KS``); the engine works on
integers so that move generation is a few table look-ups. This module is the
only place that knows how one maps to the other.

Squares are ``rank * 8 + file``: ``a1`` is 0, ``h1`` is 7, ``a8`` is 56.
Cards are ``suit * 13 + rank``, suits in the order H D S C and ranks in the
order A 2 3 4 5 6 7 8 9 10 J Q K.  Pawns are ``suit * 4 + face``, faces in the
order A K Q J.
"""
from __future__ import annotations

from typing import Final

RED, BLACK = 0, 1
SEATS: Final = ("red", "black")
SEAT_NAMES: Final = ("Red", "Black")

FILES: Final = "abcdefgh"
SQUARE_NAMES: Final = tuple(f + r for r in "12345678" for f in FILES)
SQUARE_INDEX: Final = {name: i for i, name in enumerate(SQUARE_NAMES)}

SUITS: Final = "HDSC"
SUIT_WORDS: Final = ("heart", "diamond", "spade", "club")
SUIT_PLURALS: Final = ("Hearts", "Diamonds", "Spades", "Clubs")
RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
ACE, JACK, QUEEN, KING = 0, 10, 11, 12

CARD_NAMES: Final = tuple(r + s for s in SUITS for r in RANKS)
CARD_INDEX: Final = {name: i for i, name in enumerate(CARD_NAMES)}

FACES: Final = "AKQJ"
FACE_WORDS: Final = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack"}
FACE_RANK: Final = {"A": ACE, "K": KING, "Q": QUEEN, "J": JACK}
PAWN_NAMES: Final = tuple(f + s for s in SUITS for f in FACES)
PAWN_INDEX: Final = {name: i for i, name in enumerate(PAWN_NAMES)}

# Where a pawn is when it is not on a square.
CAPTURED: Final = -1
OUT_OF_PLAY: Final = -2

# R4/R16: what a captured pawn scores for the side that captured it.
PAWN_POINTS: Final = {"A": 40, "K": 20, "Q": 10, "J": 5}
POINTS: Final = tuple(PAWN_POINTS[name[0]] for name in PAWN_NAMES)


def side_of_card(card: int) -> int:
    """RED for hearts and diamonds, BLACK for spades and clubs (R5)."""
    return card // 26


def side_of_pawn(pawn: int) -> int:
    """RED for the heart and diamond pawns, BLACK for the others (R2)."""
    return pawn // 8


def pawn_of_card(card: int) -> int | None:
    """The pawn a face card concerns (R12), or None for a number card.

    >>> PAWN_NAMES[pawn_of_card(CARD_INDEX["KH"])]
    'KH'
    """
    name = CARD_NAMES[card]
    if name[0] not in FACES:  # "10H" starts with "1"
        return None
    return PAWN_INDEX[name]


def pawn_word(pawn: int) -> str:
    """``'King of Hearts'`` for KH."""
    name = PAWN_NAMES[pawn]
    return f"{FACE_WORDS[name[0]]} of {SUIT_PLURALS[SUITS.index(name[1])]}"


# R3: every pawn's home square.
HOME_NAMES: Final = {
    "JD": "a1", "QD": "b1", "KD": "c1", "AD": "d1",
    "AH": "e1", "KH": "f1", "QH": "g1", "JH": "h1",
    "JC": "a8", "QC": "b8", "KC": "c8", "AC": "d8",
    "AS": "e8", "KS": "f8", "QS": "g8", "JS": "h8",
}
HOME: Final = tuple(SQUARE_INDEX[HOME_NAMES[name]] for name in PAWN_NAMES)

# Each side's pawns and cards, in index order.
SIDE_PAWNS: Final = (tuple(range(0, 8)), tuple(range(8, 16)))
SIDE_CARDS: Final = (tuple(range(0, 26)), tuple(range(26, 52)))
SUIT_PAWNS: Final = tuple(tuple(range(s * 4, s * 4 + 4)) for s in range(4))
ACES: Final = tuple(
    tuple(p for p in SIDE_PAWNS[side] if PAWN_NAMES[p][0] == "A") for side in (RED, BLACK)
)
