"""The Rhombus game state: an immutable value (RH1-RH9, RH24, RH27).

A :class:`State` is what the server knows, hidden cards and the pile order
included.  It is never changed; :func:`engine.rhombus.apply` returns a new one.
Seats are a tuple in turn order (``("SW", "NE")`` for two players), and every
per-seat field is a tuple indexed like it, so the 4-player game fits the same
shape; the side (team) of seat i is ``i % 2`` in both (RH3, RH31), and
the partner of seat i is seat ``(i + 2) % 4``.  ``out`` marks RH34's out
players, who move their partner's pieces (:func:`plays_for`).
"""
from __future__ import annotations

from typing import NamedTuple

from ..shuffle import Seed, dealt_pack, seed_bytes
from .cards import CARD_NAMES, FOUR_PLAYERS, SQUARE_NAMES, START, TWO_PLAYERS, WHITE_NEIGHBOURS

Cards = tuple[int, ...]
EMPTY = -1
PIECES_2P = 6
PIECES_4P = 4  # RH32
QUIET_LIMIT = 100  # RH27: a product setting
CLASSIC, FORMATION = "classic", "formation"  # RH41
VARIANTS = (CLASSIC, FORMATION)


class State(NamedTuple):
    """A full position.

    ``board`` has 25 entries, the seat index of the piece on each square or
    ``EMPTY``.  ``tables`` and ``hands`` hold each seat's cards; their lengths
    are the seat's table and hand places (RH7, RH19).  ``pile`` and
    ``discard`` list the top card first.  ``seed`` is the secret seed's bytes
    (None for a hand-made position, which then reshuffles from ``b""``).
    """

    variant: str
    seats: tuple[str, ...]
    board: tuple[int, ...]
    tables: tuple[Cards, ...]
    hands: tuple[Cards, ...]
    reserve: tuple[int, ...]
    eliminated: tuple[int, ...]
    out: tuple[bool, ...]
    pile: Cards
    discard: Cards
    reshuffles: int
    dealer: int
    to_move: int
    quiet: int
    ply: int
    seed: bytes | None

    @property
    def turn(self) -> str:
        """The seat to act, e.g. ``"SW"``."""
        return self.seats[self.to_move]

    def seat_index(self, seat: str) -> int:
        if seat not in self.seats:
            raise ValueError(f"{seat!r} is not a seat of this game: {', '.join(self.seats)}")
        return self.seats.index(seat)

    def pieces(self) -> dict[str, str]:
        """``{"a1": "SW", ...}``: the pieces on the board, in square order."""
        return {SQUARE_NAMES[sq]: self.seats[who] for sq, who in enumerate(self.board) if who != EMPTY}

    def table(self, seat: str) -> list[str]:
        return [CARD_NAMES[c] for c in self.tables[self.seat_index(seat)]]

    def hand(self, seat: str) -> list[str]:
        return [CARD_NAMES[c] for c in self.hands[self.seat_index(seat)]]


def side_of(seat: int) -> int:
    """The side of a seat: itself with two players, its team with four (RH3, RH31)."""
    return seat % 2


def pieces_per_seat(players: int) -> int:
    """RH4, RH32: 6 pieces a player with two players, 4 with four."""
    return PIECES_2P if players == 2 else PIECES_4P


def plays_for(s: State, seat: int) -> int:
    """The seat whose pieces ``seat`` moves: its own, or once out its partner's (RH33, RH34).

    The partner sits two places on in turn order (RH31).  The 2-player game
    has no out players (an ``out`` flag read from a 2-player position is
    ignored, as before), so there it is always ``seat``.
    """
    return (seat + 2) % 4 if len(s.seats) == 4 and s.out[seat] else seat


def new_game(seed: Seed, players: int = 2, variant: str = "classic", dealer: str | None = None) -> State:
    """The starting position (RH4, RH7-RH9, RH31, RH32): the pack shuffled from ``seed``, then dealt.

    The first player is the one after the dealer; by default ``NE`` (two
    players) or ``NW`` (four) deals, so ``SW`` starts (RH9).  With four
    players the seats are ``SW SE NE NW`` in turn order (counter-clockwise,
    RH31), each with 2 pieces on the white neighbours of its corner and 2 in
    the reserve (RH32).  ``variant="formation"`` deals from two packs, 3
    table cards then 1 hand card a player (RH41, RH42).

    >>> s = new_game("demo")
    >>> s.turn, s.pieces(), len(s.pile), s.reserve
    ('SW', {'a1': 'SW', 'b1': 'SW', 'a2': 'SW', 'e4': 'NE', 'd5': 'NE', 'e5': 'NE'}, 30, (3, 3))
    >>> s = new_game("demo", players=4)
    >>> s.seats, s.turn, len(s.pile), s.reserve
    (('SW', 'SE', 'NE', 'NW'), 'SW', 24, (2, 2, 2, 2))
    >>> s = new_game("demo", variant="formation")
    >>> len(s.tables[0]), len(s.hands[0]), len(s.pile)
    (3, 1, 64)
    """
    if players not in (2, 4):
        raise ValueError(f"Rhombus is played by 2 or 4 players, not {players!r}")
    if variant not in VARIANTS:
        raise ValueError(f"Rhombus has the variants {', '.join(VARIANTS)}, not {variant!r}")
    seats = TWO_PLAYERS if players == 2 else FOUR_PLAYERS
    dealer_seat = dealer or seats[-1]
    if dealer_seat not in seats:
        raise ValueError(f"the dealer is one of {', '.join(seats)}, not {dealer_seat!r}")
    dealer_index = seats.index(dealer_seat)
    first = (dealer_index + 1) % len(seats)
    pack = dealt_pack(seed, 2 if variant == FORMATION else 1)
    held, on_table = (4, 3) if variant == FORMATION else (3, 2)  # RH7, RH42
    tables: list[Cards] = [()] * players
    hands: list[Cards] = [()] * players
    for n in range(players):  # RH8: the first player gets cards 1-3, the next in turn order 4-6, ...
        seat = (first + n) % players
        tables[seat], hands[seat] = pack[held * n:held * n + on_table], pack[held * n + on_table:held * (n + 1)]
    board = [EMPTY] * 25
    for i, name in enumerate(seats):
        # RH4: start square and white neighbours; RH32: the start square stays empty.
        on_board = (START[name], *WHITE_NEIGHBOURS[name]) if players == 2 else WHITE_NEIGHBOURS[name]
        for sq in on_board:
            board[sq] = i
    in_reserve = 3 if players == 2 else 2
    return State(
        variant=variant, seats=seats, board=tuple(board),
        tables=tuple(tables), hands=tuple(hands),
        reserve=(in_reserve,) * players, eliminated=(0,) * players, out=(False,) * players,
        pile=pack[held * players:], discard=(), reshuffles=0,
        dealer=dealer_index, to_move=first, quiet=0, ply=0, seed=seed_bytes(seed),
    )


__all__ = [
    "CLASSIC", "EMPTY", "FORMATION", "PIECES_2P", "VARIANTS", "PIECES_4P", "QUIET_LIMIT", "State", "new_game", "pieces_per_seat", "plays_for", "side_of",
]
