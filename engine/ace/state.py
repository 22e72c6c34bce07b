"""The game state: an immutable value (R1-R8).

A :class:`State` is what the server knows: where every pawn is, both hands,
both deck orders, both discard piles, whose turn it is and the ply.  It is
never changed; :func:`engine.apply` returns a new one.
"""
from __future__ import annotations

from typing import Final, NamedTuple

from ..shuffle import Seed, shuffled_deck
from .actions import Action
from .cards import (
    BLACK, CAPTURED, CARD_NAMES, HOME, PAWN_NAMES, RED, SEATS, SIDE_PAWNS, SQUARE_NAMES,
)
from .geometry import BIT

HAND_SIZE: Final = 3

Cards = tuple[int, ...]


class State(NamedTuple):
    """A full position, hidden cards included.

    ``where[p]`` is pawn p's square, ``CAPTURED`` (in the opponent's captured
    area, R4) or ``OUT_OF_PLAY`` (hand-made positions only).  Hands, decks and
    discard piles are indexed by seat (``RED`` = 0, ``BLACK`` = 1); decks list
    the top card first.

    An immutable value, like a frozen dataclass; it is a NamedTuple because
    building one is the cost of every move in a playout, and a tuple builds
    three times faster.
    """

    where: tuple[int, ...]
    hands: tuple[Cards, Cards]
    decks: tuple[Cards, Cards]
    discards: tuple[tuple[Action, ...], tuple[Action, ...]]
    to_move: int
    ply: int
    # Bit masks of the squares each side's pawns stand on: an index over
    # `where` for the move generator, always built with it (see `build`).
    occupied: tuple[int, int] = (0, 0)

    @classmethod
    def build(
        cls,
        where: tuple[int, ...],
        hands: tuple[Cards, Cards],
        decks: tuple[Cards, Cards],
        discards: tuple[tuple[Action, ...], tuple[Action, ...]] = ((), ()),
        to_move: int = RED,
        ply: int = 0,
    ) -> State:
        """A state with its occupancy index computed from ``where``."""
        occupied = tuple(
            sum(BIT[where[p]] for p in SIDE_PAWNS[side] if where[p] >= 0) for side in (RED, BLACK)
        )
        return cls(where, hands, decks, discards, to_move, ply, (occupied[0], occupied[1]))

    @property
    def board(self) -> dict[str, str]:
        """``{"e1": "AH", ...}``: the pawns on the board by square."""
        return board_of(self.where)

    def captured(self, seat: str) -> list[str]:
        """The opponent pawns in ``seat``'s captured area (R4)."""
        return captured_of(self.where, seat)

    def hand(self, seat: str) -> list[str]:
        return [CARD_NAMES[c] for c in self.hands[SEATS.index(seat)]]

    def deck(self, seat: str) -> list[str]:
        return [CARD_NAMES[c] for c in self.decks[SEATS.index(seat)]]

    @property
    def turn(self) -> str:
        """``"red"`` or ``"black"``: whose turn it is."""
        return SEATS[self.to_move]


def board_of(where: tuple[int, ...]) -> dict[str, str]:
    """The pawns on the board by square name, in square order."""
    return {SQUARE_NAMES[sq]: PAWN_NAMES[p] for sq, p in sorted(
        (sq, p) for p, sq in enumerate(where) if sq >= 0)}


def captured_of(where: tuple[int, ...], seat: str) -> list[str]:
    """The opponent pawns in ``seat``'s captured area (R4)."""
    side = SEATS.index(seat)
    return [PAWN_NAMES[p] for p in SIDE_PAWNS[1 - side] if where[p] == CAPTURED]


def new_game(seed: Seed) -> State:
    """The starting position (R3, R6): decks shuffled from ``seed``, three cards each.

    >>> s = new_game(42)
    >>> s.turn, len(s.hand("red")), len(s.deck("black")), s.board["e1"]
    ('red', 3, 23, 'AH')
    """
    red, black = shuffled_deck(seed, RED), shuffled_deck(seed, BLACK)
    return State(
        HOME, (red[:HAND_SIZE], black[:HAND_SIZE]), (red[HAND_SIZE:], black[HAND_SIZE:]),
        ((), ()), RED, 0, _START_OCCUPIED,
    )


# Every game starts with every pawn at home (R3): its occupancy index, once.
_START_OCCUPIED: Final = State.build(HOME, ((), ()), ((), ())).occupied


__all__ = ["BLACK", "RED", "State", "new_game"]
