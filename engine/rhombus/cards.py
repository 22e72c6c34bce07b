"""Cards, squares, seats and the board's geometry for Rhombus (RH1-RH6).

Everything is a small integer so that the move search can use bit masks:

- a card is ``rank * 4 + suit``, rank 0..8 for ``6 7 8 9 10 J Q K A`` and
  suit 0..3 for ``C D H S``, so sorting the integers is RH5's card order;
- a square is ``(rank - 1) * 5 + file``, file 0..4 for ``a``..``e``, so
  ``a1`` is 0 and ``e5`` is 24;
- a seat is an index into the state's ``seats`` tuple (turn order).

>>> CARD_NAMES[CARD_INDEX["10H"]], SQUARE_NAMES[SQUARE_INDEX["c3"]]
('10H', 'c3')
>>> [SQUARE_NAMES[sq] for sq in ADJACENT[SQUARE_INDEX["a1"]]]
['b1', 'a2']
"""
from __future__ import annotations

RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")

CARD_NAMES: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
CARD_INDEX: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}
DECK: tuple[int, ...] = tuple(range(len(CARD_NAMES)))

# Rank indices, named for the rules that talk about them (RH6).
SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(9)
STEPS = {SIX: 6, QUEEN: 3, KING: 2, ACE: 1}  # orthogonal movers (RH13)
MOVERS = frozenset({SIX, QUEEN, KING, ACE, JACK})
KILLERS = frozenset({SEVEN, TEN})


def rank(card: int) -> int:
    return card >> 2


def suit(card: int) -> int:
    return card & 3


FILES = "abcde"
SQUARE_NAMES: tuple[str, ...] = tuple(f"{FILES[f]}{r + 1}" for r in range(5) for f in range(5))
SQUARE_INDEX: dict[str, int] = {name: i for i, name in enumerate(SQUARE_NAMES)}
BIT: tuple[int, ...] = tuple(1 << sq for sq in range(25))
ALL_SQUARES = (1 << 25) - 1


def _square(f: int, r: int) -> int | None:
    return r * 5 + f if 0 <= f < 5 and 0 <= r < 5 else None


def _adjacent(sq: int) -> tuple[int, ...]:
    f, r = sq % 5, sq // 5
    near = (_square(f - 1, r), _square(f + 1, r), _square(f, r - 1), _square(f, r + 1))
    return tuple(sorted(n for n in near if n is not None))


def _ray(sq: int, df: int, dr: int) -> tuple[int, ...]:
    out = []
    f, r = sq % 5 + df, sq // 5 + dr
    while (nxt := _square(f, r)) is not None:
        out.append(nxt)
        f, r = f + df, r + dr
    return tuple(out)


ADJACENT: tuple[tuple[int, ...], ...] = tuple(_adjacent(sq) for sq in range(25))
# The four diagonal rays leaving each square, nearest square first (RH14).
DIAGONAL_RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(ray for ray in (_ray(sq, df, dr) for df, dr in ((1, 1), (-1, -1), (1, -1), (-1, 1))) if ray)
    for sq in range(25)
)


def is_dark(sq: int) -> bool:
    """RH2: dark when file + rank is even (a=1); the grey corners are dark too."""
    return (sq % 5 + sq // 5) % 2 == 0


# Seats by corner (RH3); a state lists the seats it uses in turn order.
SEAT_NAMES = ("SW", "SE", "NE", "NW")
START = {"SW": 0, "SE": 4, "NE": 24, "NW": 20}
WHITE_NEIGHBOURS = {"SW": (1, 5), "SE": (3, 9), "NE": (23, 19), "NW": (15, 21)}
TWO_PLAYERS = ("SW", "NE")
FOUR_PLAYERS = ("SW", "SE", "NE", "NW")  # counter-clockwise turn order (RH31)


def card_word(card: int) -> str:
    """``"Q of hearts"``, for messages."""
    return f"{RANKS[rank(card)]} of {SUIT_WORDS[suit(card)]}"


__all__ = [
    "ACE", "ADJACENT", "ALL_SQUARES", "BIT", "CARD_INDEX", "CARD_NAMES", "DECK", "DIAGONAL_RAYS",
    "EIGHT", "FOUR_PLAYERS", "JACK", "KILLERS", "KING", "MOVERS", "NINE", "QUEEN", "RANKS",
    "SEAT_NAMES", "SEVEN", "SIX", "SQUARE_INDEX", "SQUARE_NAMES", "START", "STEPS", "SUITS", "SUIT_WORDS",
    "TEN", "TWO_PLAYERS", "WHITE_NEIGHBOURS", "card_word", "is_dark", "rank", "suit",
]
