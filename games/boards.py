"""Turning engine positions into what the board templates draw.

The engine speaks in position JSON ({"e1": "AH", ...} for Ace in the Hole,
{"a1": "SW", ...} for Rhombus); templates want rows of cells, top rank first.
Nothing here knows the rules beyond the boards' colours.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext, pgettext_lazy

import engine
from engine import rhombus

FILES = "abcdefgh"
RANKS = tuple(range(8, 0, -1))  # rank 8 at the top: the board as Red sees it
CAPTURED_PLACES = 8  # R4

SUIT_SYMBOLS = {"H": "\u2665", "D": "\u2666", "S": "\u2660", "C": "\u2663"}
# The names a pawn's title and a square's aria-label give (static/js/card-names.js
# words them alike, with the same catalog entries): the suit as it follows "of",
# in a context for the languages that decline it there (Russian: "треф").
SUIT_NAMES = {"H": pgettext_lazy("card suit, as in Ace of Hearts", "Hearts"),
              "D": pgettext_lazy("card suit, as in Ace of Diamonds", "Diamonds"),
              "S": pgettext_lazy("card suit, as in Ace of Spades", "Spades"),
              "C": pgettext_lazy("card suit, as in Ace of Clubs", "Clubs")}
RANK_NAMES = {"A": pgettext_lazy("card rank", "Ace"), "K": pgettext_lazy("card rank", "King"),
              "Q": pgettext_lazy("card rank", "Queen"), "J": pgettext_lazy("card rank", "Jack")}
RED_SUITS = frozenset("HD")


@dataclass(frozen=True)
class Pawn:
    """A pawn (A, K, Q, J) or a card (any rank), drawn as its face: rank and suit sign."""

    code: str  # rank then suit, as in position JSON: "AH", "10C"

    @property
    def rank(self) -> str:
        return self.code[:-1]

    @property
    def suit(self) -> str:
        return SUIT_SYMBOLS[self.code[-1]]

    @property
    def side(self) -> str:
        return "red" if self.code[-1] in RED_SUITS else "black"

    @property
    def label(self) -> str:
        return f"{self.rank}{self.suit}"

    @property
    def name(self) -> str:
        rank = RANK_NAMES.get(self.rank, self.rank)  # number cards keep their number, as card-names.js
        return gettext("%(rank)s of %(suit)s") % {"rank": rank, "suit": SUIT_NAMES[self.code[-1]]}


@dataclass(frozen=True)
class Cell:
    square: str
    dark: bool
    pawn: Pawn | None


@dataclass(frozen=True)
class Row:
    rank: int
    cells: tuple[Cell, ...]


def is_dark(square: str) -> bool:
    """a1 is dark (R1), and colours alternate along ranks and files."""
    return (FILES.index(square[0]) + int(square[1:])) % 2 == 1


def board_rows(board: Mapping[str, str]) -> list[Row]:
    """Eight rows of eight cells, rank 8 first, files a to h."""
    rows = []
    for rank in RANKS:
        squares = [f"{file}{rank}" for file in FILES]
        cells = tuple(Cell(sq, is_dark(sq), _pawn(board.get(sq))) for sq in squares)
        rows.append(Row(rank, cells))
    return rows


def captured_places(pawns: Sequence[str]) -> list[Pawn | None]:
    """A captured area's places (R4), filled in order, empty ones as None."""
    filled: list[Pawn | None] = [Pawn(code) for code in pawns]
    return filled + [None] * (CAPTURED_PLACES - len(filled))


def starting_board() -> dict[str, str]:
    """Every pawn on its home square (R3), as the engine sets up a new game."""
    return dict(engine.to_json(engine.new_game(0))["board"])


RHOMBUS_FILES = "abcde"
RHOMBUS_CORNERS = {"a1": "SW", "e1": "SE", "e5": "NE", "a5": "NW"}  # the start squares (RH3)


def rhombus_rows(board: Mapping[str, str]) -> list[list[dict[str, object]]]:
    """The 5x5 board as static/js/rhombus.js draws it, rank 5 first: each
    square's name, colour (RH2: dark when file + rank is even), corner and piece."""
    return [[{
        "square": f"{file}{rank}",
        "file": file if rank == 1 else "",
        "rank": rank if file == "a" else "",
        "dark": (RHOMBUS_FILES.index(file) + 1 + rank) % 2 == 0,
        "corner": RHOMBUS_CORNERS.get(f"{file}{rank}", ""),
        "piece": board.get(f"{file}{rank}", ""),
    } for file in RHOMBUS_FILES] for rank in range(5, 0, -1)]


def rhombus_starting_board(players: int = 2) -> dict[str, str]:
    """The pieces on the board at the start (RH4 for two players, RH32 for
    four), as the engine sets up a new game; the seed only shuffles the cards."""
    return dict(rhombus.to_json(rhombus.new_game(0, players=players))["board"])


def _pawn(code: str | None) -> Pawn | None:
    return Pawn(code) if code else None
