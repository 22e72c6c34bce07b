"""A fast, mutable copy of the rules for the bots' playouts (R7-R16).

The public engine builds an immutable :class:`~engine.ace.state.State` and shares
ready-made :class:`~engine.ace.actions.Action` values, which is right for the site
but costs a few microseconds a move.  A search plays hundreds of thousands of
moves a second, so it runs on this module instead: a :class:`Sim` is a
mutable position of plain lists and bit masks, and a move is a tuple of
three small integers ``(card, pawn, to)``:

- a move: ``pawn`` stands on the board and goes to square ``to``;
- a release: ``pawn`` is captured and ``to`` is its home square (R12);
- a burn: ``pawn`` and ``to`` are -1 (R13).

Nothing here is part of the engine's public API.  ``tests/engine/test_bots.py``
checks, over many random positions, that :func:`legal_moves`, :func:`play`
and :func:`result` agree exactly with :func:`engine.legal_actions`,
:func:`engine.apply` and :func:`engine.outcome`.
"""
from __future__ import annotations

from .actions import Action
from .cards import ACES, CAPTURED, CARD_NAMES, HOME, POINTS, SIDE_PAWNS, SQUARE_NAMES
from .geometry import BIT, LEAPS, SLIDES, STEPS
from .moves import CARD_PAWNS, HOME_BIT, IS_FACE, burn, release
from .state import State

Move = tuple[int, int, int]

# FAST[card][square]: (path mask, landing bit, landing square) for every
# landing that the card's geometry allows from the square (R10-R12).
def _landings(card: int, sq: int) -> tuple[tuple[int, int, int], ...]:
    rank = card % 13
    if 1 <= rank <= 6:
        pairs = list(SLIDES[rank + 1][sq])
    elif 7 <= rank <= 9:
        pairs = [(0, to) for to in LEAPS[rank + 1][sq]]
    else:
        pairs = [(0, to) for to in STEPS[sq]]
    return tuple((path, BIT[to], to) for path, to in pairs)


FAST = tuple(tuple(_landings(card, sq) for sq in range(64)) for card in range(52))
# LAND[card][square]: every landing square of FAST[card][square] as one mask, so a
# capture search can skip a pawn that cannot reach any opponent pawn.
LAND = tuple(tuple(sum(bit for _, bit, _ in row) for row in rows) for rows in FAST)
ACE_CARDS = frozenset(c for c in range(52) if c % 13 == 0)


class Sim:
    """A mutable position: ``where`` by pawn, ``board`` by square (pawn or -1).

    Decks are stored bottom card first, so drawing is ``list.pop()``.
    """

    __slots__ = ("where", "board", "occ", "hands", "decks", "to_move")

    def __init__(self, where: list[int], hands: list[list[int]], decks: list[list[int]],
                 to_move: int, board: list[int] | None = None, occ: list[int] | None = None) -> None:
        """``board`` and ``occ`` are worked out from ``where`` unless given (by :meth:`copy`)."""
        self.where = where
        if board is None:
            board = [-1] * 64
            for pawn, sq in enumerate(where):
                if sq >= 0:
                    board[sq] = pawn
        self.board = board
        self.occ = occ if occ is not None else [
            sum(BIT[where[p]] for p in SIDE_PAWNS[side] if where[p] >= 0) for side in (0, 1)
        ]
        self.hands = hands
        self.decks = decks
        self.to_move = to_move

    @classmethod
    def from_state(cls, s: State) -> Sim:
        return cls(
            list(s.where), [list(s.hands[0]), list(s.hands[1])],
            [list(reversed(s.decks[0])), list(reversed(s.decks[1]))], s.to_move,
        )

    def copy(self) -> Sim:
        # Through __init__, not Sim.__new__ and six attributes set: a class compiled
        # by mypyc (scripts/mypyc_engine.py) is made only through its __init__.
        hands, decks = self.hands, self.decks
        return Sim(self.where[:], [hands[0][:], hands[1][:]], [decks[0][:], decks[1][:]],
                   self.to_move, self.board[:], self.occ[:])


def legal_moves(sim: Sim) -> list[Move]:
    """The legal moves of the side to move, in hand order (R7, R13, R15)."""
    me = sim.to_move
    where = sim.where
    own = sim.occ[me]
    occ = own | sim.occ[1 - me]
    out: list[Move] = []
    first, second = ACES[me]
    if where[first] == CAPTURED and where[second] == CAPTURED:
        for card in sim.hands[me]:
            if card in ACE_CARDS:
                pawn = CARD_PAWNS[card][0]
                if where[pawn] == CAPTURED and not own & HOME_BIT[pawn]:
                    out.append((card, pawn, HOME[pawn]))
        return out
    # The loop body is card_moves inlined: calling it per card made this function,
    # the playouts' hottest, about 8% slower (measured). tests/engine/test_bots.py
    # keeps the twins in step: card_moves against legal_moves, legal_moves against
    # the engine.
    for card in sim.hands[me]:
        before = len(out)
        row = FAST[card]
        for pawn in CARD_PAWNS[card]:
            sq = where[pawn]
            if sq >= 0:
                for path, bit, to in row[sq]:
                    if not (occ & path | own & bit):
                        out.append((card, pawn, to))
            elif sq == CAPTURED and IS_FACE[card] and not own & HOME_BIT[pawn]:
                out.append((card, pawn, HOME[pawn]))
        if len(out) == before:
            out.append((card, -1, -1))
    return out


def card_moves(sim: Sim, card: int) -> list[Move]:
    """The moves and releases ``card`` allows the side to move (R9-R12); [] if none (R13).

    Outside R15 any of them is legal, and a card with none may be burnt.
    """
    me = sim.to_move
    where = sim.where
    own = sim.occ[me]
    occ = own | sim.occ[1 - me]
    out: list[Move] = []
    row = FAST[card]
    for pawn in CARD_PAWNS[card]:
        sq = where[pawn]
        if sq >= 0:
            for path, bit, to in row[sq]:
                if not (occ & path | own & bit):
                    out.append((card, pawn, to))
        elif sq == CAPTURED and IS_FACE[card] and not own & HOME_BIT[pawn]:
            out.append((card, pawn, HOME[pawn]))
    return out


def best_capture(sim: Sim) -> Move | None:
    """The legal capture that takes the most points, first found on ties; None if none.

    Not for a side whose Aces are both captured (R15 allows it Ace releases only).
    """
    me = sim.to_move
    where, board = sim.where, sim.board
    own = sim.occ[me]
    theirs = sim.occ[1 - me]
    occ = own | theirs
    best: Move | None = None
    worth = 0
    for card in sim.hands[me]:
        row, land = FAST[card], LAND[card]
        for pawn in CARD_PAWNS[card]:
            sq = where[pawn]
            if sq >= 0:
                if land[sq] & theirs:
                    for path, bit, to in row[sq]:
                        if theirs & bit and not occ & path and POINTS[board[to]] > worth:
                            worth, best = POINTS[board[to]], (card, pawn, to)
            elif sq == CAPTURED and IS_FACE[card] and theirs & HOME_BIT[pawn]:
                home = HOME[pawn]
                if POINTS[board[home]] > worth:
                    worth, best = POINTS[board[home]], (card, pawn, home)
    return best


def aces_down(sim: Sim) -> bool:
    """R15: both Aces of the side to move are captured."""
    first, second = ACES[sim.to_move]
    return sim.where[first] == CAPTURED and sim.where[second] == CAPTURED


def play(sim: Sim, move: Move) -> int:
    """Play ``move`` (which must be legal) in place; return the captured pawn or -1."""
    card, pawn, to = move
    me = sim.to_move
    victim = -1
    if pawn >= 0:
        where, board, occ = sim.where, sim.board, sim.occ
        frm = where[pawn]
        if frm >= 0:
            board[frm] = -1
            occ[me] ^= BIT[frm]
        victim = board[to]
        if victim >= 0:
            where[victim] = CAPTURED
            occ[1 - me] ^= BIT[to]
        board[to] = pawn
        where[pawn] = to
        occ[me] |= BIT[to]
    hand = sim.hands[me]
    hand.remove(card)
    deck = sim.decks[me]
    if deck:
        hand.append(deck.pop())
    sim.to_move = 1 - me
    return victim


def points(where: list[int], side: int) -> int:
    """What ``side``'s captured area scores (R16)."""
    return sum(POINTS[p] for p in SIDE_PAWNS[1 - side] if where[p] == CAPTURED)


def result(sim: Sim) -> int | None:
    """None while the game runs; else the winning side (0, 1), or 2 for a draw (R15, R16)."""
    me = sim.to_move
    where = sim.where
    first, second = ACES[me]
    if where[first] == CAPTURED and where[second] == CAPTURED:
        own = sim.occ[me]
        if not any(
            card in ACE_CARDS and where[CARD_PAWNS[card][0]] == CAPTURED
            and not own & HOME_BIT[CARD_PAWNS[card][0]]
            for card in sim.hands[me]
        ):
            return 1 - me
    if sim.hands[me]:
        return None
    red, black = points(where, 0), points(where, 1)
    return 2 if red == black else (0 if red > black else 1)


def to_action(sim: Sim, move: Move) -> Action:
    """The engine's :class:`Action` for ``move`` in ``sim`` (before it is played)."""
    card, pawn, to = move
    if pawn < 0:
        return burn(card)
    capture = sim.board[to] >= 0
    frm = sim.where[pawn]
    if frm == CAPTURED:
        return release(card, capture)
    return Action(CARD_NAMES[card], "move", SQUARE_NAMES[frm], SQUARE_NAMES[to], capture)


__all__ = [
    "FAST", "LAND", "Move", "Sim", "aces_down", "best_capture", "card_moves", "legal_moves",
    "play", "points", "result", "to_action",
]
