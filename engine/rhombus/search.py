"""The search behind legal actions: uses, walks and pairings (RH11-RH23).

A :class:`Search` finds the outcomes of one list of uses in any order
(RH11) by any walks (RH13, RH14), and each outcome's smallest text (N1): the
canonical text.  It first collects the outcomes alone, as sets, remembered
per uses left and position; then it gives each outcome to the smallest first
use (in text order) that still reaches it, and builds that use's rest the
same way, so each canonical text is built once, not every text of every
order and walk (issue 24).  A one-use action and an action's last move are
walked piece by piece for their end squares only (:func:`end_bits`, kept per
the squares the move can touch, so positions and listings share them).

Positions in the search are packed ints (:func:`pack`): a move is a few bit
flips and an outcome hashes as an int.  Each piece's possible visited sets
(RH13 rule 3) are kept together in one state, and only while a later use of
the action could still move a piece; before the last move they are cut to
the squares that move can touch, so walks that differ only elsewhere lead
to one state.  :class:`Play` and :func:`walks` are the same rules on tuples,
for the fast playouts and the checks.
"""
from __future__ import annotations

import functools
from itertools import combinations
from typing import Iterable, Iterator, NamedTuple

from .cards import (
    ALL_SQUARES, BIT, CARD_NAMES, EIGHT, JACK, KILLERS, MOVERS, NINE, SEVEN, SIX, SQUARE_NAMES,
    STEPS, TEN, DIAGONAL_RAYS, rank, suit,
)
from .moves import (
    diagonal, diagonal_ends, occupied, orthogonal, orthogonal_ends, seat_squares, targets,
)
from .state import EMPTY, State, side_of

Spec = tuple[int, int | None]  # (card, the kill card paired with it or None)
Board = tuple[int, ...]
Counts = tuple[int, ...]
Result = tuple[Board, Counts, Counts]  # board, reserve, eliminated after the uses
# What an action leaves behind (N1): the cards taken from the places (sorted,
# a multiset: Formation has two of each card, RH42), board, reserve and
# eliminated counts, table places after Mystery, the table cards it took
# into the hand (sorted; empty when none), and whether it is an Eliminator:
# an Eliminator and a flush are two actions even where they leave the same (N8).
Key = tuple[tuple[int, ...], Board, Counts, Counts, int, tuple[int, ...], bool]


class Play(NamedTuple):
    """The board part of a state in the middle of an action (RH11).

    ``masks`` holds, for each piece that moved and may move again, its square
    and every set of squares it may have visited so far (RH13 rule 3), one
    per choice of earlier walks; a later use is legal if one of them allows
    it.  Keeping the choices together, rather than one state each, keeps a
    6 followed by other movers from multiplying the states.
    """

    board: Board
    masks: tuple[tuple[int, frozenset[int]], ...]
    reserve: Counts
    eliminated: Counts

    def visited(self, sq: int) -> frozenset[int]:
        """The possible visited sets of the piece on ``sq``: just ``sq`` if it has not moved."""
        for at, masks in self.masks:
            if at == sq:
                return masks
        return frozenset((BIT[sq],))


# -- the search ---------------------------------------------------------------


def mover_moves(card: int, sq: int, mask: int, free: int, final: int) -> tuple[tuple[int, int], ...]:
    """Every (end, mask) of ``card``'s move from ``sq`` (RH13, RH14)."""
    r = rank(card)
    if r == JACK:
        return diagonal(sq, mask, free, final)
    return orthogonal(sq, STEPS[r], mask, free, final)


def walks(card: int, kill: int | None, play: Play, owner: int, side: int) -> Iterator[tuple[int, int, set[int]]]:
    """(from, to, visited sets after) of every move ``card`` allows a piece of
    ``owner``'s, for ``side``, the board not yet changed (RH12-RH17): ends
    reached by several walks come once, with every walk's visited set."""
    board = play.board
    free = ALL_SQUARES & ~occupied(board)
    final = targets(board, side) if kill is not None else free
    own = seat_squares(board, owner)
    for frm in range(25):
        if not own & BIT[frm]:
            continue
        ends: dict[int, set[int]] = {}
        for mask in play.visited(frm):
            for end, after in mover_moves(card, frm, mask, free, final):
                ends.setdefault(end, set()).add(after)
        for end, masks in ends.items():
            yield frm, end, masks


def moved(play: Play, frm: int, end: int, kill: bool, visited: frozenset[int] | None) -> Play:
    """``play`` after the piece on ``frm`` went to ``end``, taking what stood there if ``kill``.

    ``visited`` are the piece's possible visited sets, None when it will not move again.
    """
    board = list(play.board)
    eliminated = play.eliminated
    if kill:
        victim = board[end]
        eliminated = eliminated[:victim] + (eliminated[victim] + 1,) + eliminated[victim + 1:]
    board[end], board[frm] = board[frm], EMPTY
    masks = [m for m in play.masks if m[0] != frm]
    if visited is not None:
        masks.append((end, minimal(visited)))
        masks.sort(key=_square_of)
    return Play(tuple(board), tuple(masks), play.reserve, eliminated)


def minimal(masks: frozenset[int]) -> frozenset[int]:
    """The visited sets of ``masks`` that hold no other one.

    A piece that may have visited only ``a`` can make every later walk it
    could make having visited ``b``, a superset, and ends on the same
    squares with fewer visited (RH13 rule 3): ``b`` adds no outcome and no
    text, and dropping it keeps a piece's choices, and so the search's
    states, few.
    """
    if len(masks) < 2:
        return masks
    kept: list[int] = []
    for m in sorted(masks, key=int.bit_count):
        if not any(k & m == k for k in kept):
            kept.append(m)
    return masks if len(kept) == len(masks) else frozenset(kept)


def _squares(bits: int) -> Iterator[int]:
    """The squares of a bit set, in square order."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def _square_of(entry: tuple[int, frozenset[int]]) -> int:
    return entry[0]


def entered(play: Play, seat: int, start: int, kill: bool) -> Play:
    """``play`` after a ``9`` brought ``seat``'s reserve piece onto ``start`` (RH18)."""
    board = list(play.board)
    eliminated = play.eliminated
    if kill:
        victim = board[start]
        eliminated = eliminated[:victim] + (eliminated[victim] + 1,) + eliminated[victim + 1:]
    board[start] = seat
    reserve = play.reserve[:seat] + (play.reserve[seat] - 1,) + play.reserve[seat + 1:]
    return Play(tuple(board), play.masks, reserve, eliminated)


# -- the listing's search on packed positions -----------------------------------
#
# The listing's search keeps a position in the middle of an action as one int
# (:func:`pack`): seat w's pieces are bits 25w..25w+24, its eliminated count the
# four bits at ELIMINATED + 4w and its reserve the four at RESERVE + 4w.  A move
# is then two or three bit flips, an outcome hashes as an int, and the search's
# memos and outcome sets hold ints instead of 25-square tuples (issue 24).

ELIMINATED = 100
RESERVE = 116
_UNMOVED: tuple[frozenset[int], ...] = tuple(frozenset((BIT[sq],)) for sq in range(25))
Masks = tuple[tuple[int, frozenset[int]], ...]  # as Play.masks
Choice = tuple[str, int, int, Masks]  # (text of the first use, uses left after it, position, masks)


def pack(play: Play) -> int:
    """``play``'s board, reserve and eliminated counts as one int (its masks aside)."""
    packed = 0
    for sq, who in enumerate(play.board):
        if who != EMPTY:
            packed |= 1 << (25 * who + sq)
    for w, n in enumerate(play.eliminated):
        packed += n << (ELIMINATED + 4 * w)
    for w, n in enumerate(play.reserve):
        packed += n << (RESERVE + 4 * w)
    return packed


@functools.lru_cache(maxsize=1 << 16)
def unpack(packed: int, seats: int) -> Result:
    """The (board, reserve, eliminated) that :func:`pack` packed, for ``seats`` seats."""
    board = [EMPTY] * 25
    for w in range(seats):
        for sq in _squares(packed >> (25 * w) & ALL_SQUARES):
            board[sq] = w
    return (
        tuple(board),
        tuple(packed >> (RESERVE + 4 * w) & 15 for w in range(seats)),
        tuple(packed >> (ELIMINATED + 4 * w) & 15 for w in range(seats)),
    )


BOARD_BITS = (1 << ELIMINATED) - 1


def unpack_from(play: Play, packed_play: int, packed: int) -> Result:
    """:func:`unpack` for a position reached from ``play`` (packed: ``packed_play``): only the
    squares that changed are looked at."""
    changed = (packed ^ packed_play) & BOARD_BITS
    board = play.board
    if changed:
        squares = list(board)
        for bit in _squares(changed & ~packed):  # removals first: a kill empties a square another piece takes
            squares[bit % 25] = EMPTY
        for bit in _squares(changed & packed):
            squares[bit % 25] = bit // 25
        board = tuple(squares)
    if packed >> ELIMINATED == packed_play >> ELIMINATED:
        return (board, play.reserve, play.eliminated)
    seats = len(play.reserve)
    return (
        board,
        tuple(packed >> (RESERVE + 4 * w) & 15 for w in range(seats)),
        tuple(packed >> (ELIMINATED + 4 * w) & 15 for w in range(seats)),
    )


def _occupied(packed: int) -> int:
    return (packed | packed >> 25 | packed >> 50 | packed >> 75) & ALL_SQUARES


def _side_bits(packed: int, side: int) -> int:
    """The squares of ``side``'s pieces (its seats ``side`` and ``side + 2``, RH3)."""
    return (packed >> (25 * side) | packed >> (25 * side + 50)) & ALL_SQUARES


_PROTECTED: dict[int, int] = {}


def protected_squares(pieces: int) -> int:
    """RH17: of one side's ``pieces`` (a bit set), those in a blockade: 3+ in a row on a diagonal line."""
    found = _PROTECTED.get(pieces)
    if found is not None:
        return found
    found = 0
    for sq in _squares(pieces):
        f, r = sq % 5, sq // 5
        for df, dr in _DIAGONALS:
            n = 1
            for sign in (1, -1):
                ff, rr = f + sign * df, r + sign * dr
                while 0 <= ff < 5 and 0 <= rr < 5 and pieces >> (rr * 5 + ff) & 1:
                    n, ff, rr = n + 1, ff + sign * df, rr + sign * dr
            if n >= 3:
                found |= BIT[sq]
                break
    if len(_PROTECTED) > 1 << 16:
        _PROTECTED.clear()
    _PROTECTED[pieces] = found
    return found


_DIAGONALS = ((1, 1), (1, -1))


def _reach(sq: int, r: int) -> int:
    """The squares a move of rank ``r`` from ``sq`` can touch: its diagonals for a J (RH14), else
    those within as many side-steps as it makes (RH13).  Nothing else decides where it ends."""
    if r == JACK:
        return sum(BIT[x] for ray in DIAGONAL_RAYS[sq] for x in ray) | BIT[sq]
    steps = STEPS[r]
    return sum(BIT[x] for x in range(25) if abs(x % 5 - sq % 5) + abs(x // 5 - sq // 5) <= steps)


REACH: dict[int, tuple[int, ...]] = {r: tuple(_reach(sq, r) for sq in range(25)) for r in MOVERS}
_END_BITS: dict[tuple[int, int, frozenset[int], int, int], int] = {}


def end_bits(r: int, sq: int, visited: frozenset[int], free: int, final: int) -> int:
    """The end squares (a bit set) of a move of rank ``r`` by the piece on ``sq`` with any of the
    ``visited`` sets, for a last move whose visited squares no longer matter (RH13, RH14).

    Kept per the squares the move can touch only, so positions that differ
    elsewhere, in one listing or the next, share it."""
    near = REACH[r][sq]
    key = (r, sq, visited, free & near, final & near)
    found = _END_BITS.get(key)
    if found is None:
        found = 0
        if r == JACK:
            for mask in visited:
                found |= diagonal_ends(sq, mask, free, final)
        else:
            steps = STEPS[r]
            for mask in visited:
                found |= orthogonal_ends(sq, steps, mask, free, final)
        if len(_END_BITS) >= 1 << 17:
            _END_BITS.clear()
        _END_BITS[key] = found
    return found


_SQUARE_LISTS: dict[int, tuple[int, ...]] = {}


def squares(bits: int) -> tuple[int, ...]:
    """The squares of a bit set of squares, in square order (kept per set)."""
    found = _SQUARE_LISTS.get(bits)
    if found is None:
        if len(_SQUARE_LISTS) >= 1 << 16:
            _SQUARE_LISTS.clear()
        found = _SQUARE_LISTS[bits] = tuple(_squares(bits))
    return found


_END_SHIFTS: dict[tuple[int, int], tuple[int, ...]] = {}


def end_shifts(ends: int, shift: int) -> tuple[int, ...]:
    """The bit of each end square in a packed position, for the seat whose pieces start at ``shift``."""
    found = _END_SHIFTS.get((ends, shift))
    if found is None:
        if len(_END_SHIFTS) >= 1 << 16:
            _END_SHIFTS.clear()
        found = _END_SHIFTS[ends, shift] = tuple(1 << (shift + end) for end in _squares(ends))
    return found


_CUT: dict[tuple[int, int, frozenset[int]], frozenset[int] | None] = {}


def _near_masks(masks: Masks, r: int) -> Masks:
    """``masks`` for a last move, of rank ``r``: each piece's visited sets cut to the squares the
    move can touch from its square (:data:`REACH`), the smallest kept (:func:`minimal`), and a
    piece whose cut sets hold only its own square dropped, as one that has not moved."""
    out = []
    for sq, sets in masks:
        key = (r, sq, sets)
        if key in _CUT:
            kept = _CUT[key]
        else:
            near = REACH[r][sq]
            kept = minimal(frozenset(m & near for m in sets))
            if kept == _UNMOVED[sq]:
                kept = None
            if len(_CUT) >= 1 << 16:
                _CUT.clear()
            _CUT[key] = kept
        if kept is not None:
            out.append((sq, kept))
    return tuple(out)


def _cut(sets: set[int], near: int, sq: int) -> frozenset[int] | None:
    """A piece's visited ``sets`` on ``sq`` cut to ``near`` as :func:`_near_masks` does, None when
    that leaves only its own square."""
    if len(sets) == 1:
        (mask,) = sets
        mask &= near
        return None if mask == BIT[sq] else frozenset((mask,))
    kept = minimal(frozenset(m & near for m in sets))
    return None if kept == _UNMOVED[sq] else kept


def _with(masks: Masks, sq: int, sets: frozenset[int]) -> Masks:
    """``masks`` (in square order, without ``sq``) with ``sq``'s visited sets added in its place."""
    if not masks:
        return ((sq, sets),)
    return tuple(sorted(masks + ((sq, sets),), key=_square_of))


def _visited(masks: Masks, sq: int) -> frozenset[int]:
    for at, sets in masks:
        if at == sq:
            return sets
    return _UNMOVED[sq]


def _kill_bits(packed: int, end: int, side: int) -> int:
    """What to add to ``packed`` so that the opponent piece on ``end`` is eliminated (RH16)."""
    for w in (1 - side, 3 - side):
        bit = 1 << (25 * w + end)
        if packed & bit:
            return (1 << (ELIMINATED + 4 * w)) - bit
    raise AssertionError("no opponent piece on the kill square")


class Search:
    """One player's search for the outcomes of one list of uses (RH11).

    ``me`` is the seat whose pieces move, whose reserve a ``9`` uses and
    whose start square ``start`` is: the player's own, or an out player's
    partner (RH34, :func:`engine.rhombus.state.plays_for`).  Kills take only
    pieces of the other side, so a partner's piece is never a target (RH33).

    Positions are packed ints (:func:`pack`); each piece that moved and may
    move again keeps every set of squares it may have visited (RH13 rule 3),
    as :class:`Play` does.
    """

    def __init__(self, me: int, start: int, specs: tuple[Spec, ...], taken: tuple[int, ...]) -> None:
        self.me, self.start, self.specs, self.taken = me, start, specs, taken
        self.side = side_of(me)
        self.shift = 25 * me
        # Bit i set when use i moves a piece: while one is left, visited squares matter.
        self.movers = sum(1 << i for i, (c, _) in enumerate(specs) if rank(c) in MOVERS)
        # N4: the taken cards go on the first 8s in text order, so an 8's text
        # depends on how many 8s the text already has, which ``left`` tells.
        self.eights = sum(1 << i for i, (c, _) in enumerate(specs) if rank(c) == EIGHT)
        self.heads = tuple(
            (f"{CARD_NAMES[c]}+{CARD_NAMES[k]} " if k is not None else f"{CARD_NAMES[c]} ", "x" if k is not None else "-")
            for c, k in specs
        )
        self.first: dict[tuple[int, int, Masks], list[Choice]] = {}
        self.reached: dict[tuple[int, int, Masks], frozenset[int]] = {}
        self.all_uses = (1 << len(specs)) - 1
        # For a search towards one outcome: the uses that kill (RH16, RH18) and the 9s (RH18).
        self.kills = sum(1 << i for i, (_, k) in enumerate(specs) if k is not None)
        self.nines = sum(1 << i for i, (c, _) in enumerate(specs) if rank(c) == NINE)
        # A search for any completion tries the uses that expand to the fewest positions first.
        self.try_order = sorted(range(len(specs)), key=lambda i: _expansion(rank(specs[i][0])))
        self.completes: dict[tuple[int, int, Masks], bool] = {}
        self.missed: set[tuple[int, int, Masks, int]] = set()

    def run(self, play: Play) -> dict[Result, str]:
        """Every outcome of the uses with its canonical text (N1)."""
        start = pack(play)
        return {unpack_from(play, start, outcome): text for outcome, text in self.packed_run(start).items()}

    def packed_run(self, packed: int) -> dict[int, str]:
        """:meth:`run` on a packed position, the outcomes packed."""
        left = (1 << len(self.specs)) - 1
        if len(self.specs) == 1 and self.movers:
            return self.texts(left, packed, (), None)
        if len(self.specs) == 1:  # one use: each text is its own outcome's, the smallest kept
            best: dict[int, str] = {}
            for text, _, after, _ in self.expand(0, packed, (), False, left):
                if after not in best or text < best[after]:
                    best[after] = text
            return best
        return self.texts(left, packed, (), set(self.outcomes(left, packed, ())))

    def choices(self, left: int, packed: int, masks: Masks) -> list[Choice]:
        """Every first use from the position as (its text, the uses left after it, the position and
        masks after it), in text order.  Of identical uses (Formation's two copies of a card, RH42)
        only the first left is tried: the other gives the same texts and outcomes."""
        memo_key = (left, packed, masks)
        found = self.first.get(memo_key)
        if found is not None:
            return found
        found = list(self.firsts(left, packed, masks))
        found.sort(key=_text_of)
        self.first[memo_key] = found
        return found

    def outcomes(self, left: int, packed: int, masks: Masks) -> frozenset[int]:
        """The outcomes the uses ``left`` reach from the position, without texts."""
        memo_key = (left, packed, masks)
        found = self.reached.get(memo_key)
        if found is not None:
            return found
        out: set[int] = set()
        if left & (left - 1) == 0 and left & self.movers:  # the last use, a move: piece by piece
            self.last_outcomes(left.bit_length() - 1, packed, masks, out)
        else:
            for _, rest, after, after_masks in self.choices(left, packed, masks):
                if rest:
                    out |= self.outcomes(rest, after, after_masks)
                else:
                    out.add(after)
        found = self.reached[memo_key] = frozenset(out)
        return found

    def reaches(self, left: int, packed: int, masks: Masks) -> bool:
        """Whether the uses ``left`` can all be made from the position: :meth:`outcomes` is not
        empty, found by stopping at the first complete action (issue 24's step-by-step builder)."""
        if not left:
            return True
        memo_key = (left, packed, masks)
        found = self.completes.get(memo_key)
        if found is not None:
            return found
        known = self.reached.get(memo_key)
        if known is not None:
            found = bool(known)
        elif left & (left - 1) == 0 and left & self.movers:  # the last use, a move: any piece with an end
            found = next(self.last_moves(left.bit_length() - 1, packed, masks), None) is not None
        else:
            found = any(self.reaches(rest, after, after_masks) for _, rest, after, after_masks in self.firsts(left, packed, masks))
        self.completes[memo_key] = found
        return found

    def firsts(self, left: int, packed: int, masks: Masks, target: int | None = None) -> Iterator[Choice]:
        """:meth:`choices`, one use after another and unsorted, so that a search for any
        completion expands only the uses it tries; with ``target``, only the moves after which
        the rest may still reach it (:meth:`may_reach`)."""
        specs = self.specs
        for i in self.try_order:
            if left >> i & 1 and not any(left >> j & 1 and specs[j] == specs[i] for j in range(i)):
                yield from self.expand(i, packed, masks, bool(left & ~(1 << i) & self.movers), left, target)

    def may_reach(self, left: int, packed: int, target: int) -> bool:
        """False when the uses ``left`` cannot turn ``packed`` into ``target``: each move empties one
        own square and fills one, a 9 fills its start square, a kill takes one opponent piece, and
        nothing else changes the board (RH12-RH18)."""
        shift = self.shift
        mine = ALL_SQUARES << shift
        others, others_then = packed & BOARD_BITS & ~mine, target & BOARD_BITS & ~mine
        if others_then & ~others or (others & ~others_then).bit_count() > (left & self.kills).bit_count():
            return False
        own, own_then = packed >> shift & ALL_SQUARES, target >> shift & ALL_SQUARES
        moves = (left & self.movers).bit_count()
        return (own & ~own_then).bit_count() <= moves and (own_then & ~own).bit_count() <= moves + (left & self.nines).bit_count()

    def text_to(self, left: int, packed: int, masks: Masks, target: int) -> str | None:
        """The smallest text (N1) of the uses ``left`` that leaves ``target``, None if none does.

        First uses are tried in text order and none begins another's text (see :meth:`texts`), so
        the first use that can reach ``target``, followed by its smallest rest, is the smallest."""
        if not self.may_reach(left, packed, target):
            return None
        memo_key = (left, packed, masks, target)
        if memo_key in self.missed:
            return None
        if left & (left - 1) == 0 and left & self.movers:  # the last use, a move: one text per outcome
            text = self.texts(left, packed, masks, {target}).get(target)
        else:
            text = None
            for first, rest, after, after_masks in sorted(self.firsts(left, packed, masks, target), key=_text_of):
                if not rest:
                    if after == target:
                        text = first
                        break
                    continue
                suffix = self.text_to(rest, after, after_masks, target)
                if suffix is not None:
                    text = f"{first}, {suffix}"
                    break
        if text is None:
            self.missed.add(memo_key)
        return text

    def last_moves(self, i: int, packed: int, masks: Masks) -> Iterator[tuple[int, int, int]]:
        """(piece's square, its end bits, the position with that piece lifted) for the last use ``i``,
        a move, for each own piece in square order: the piece ends on any of the end squares."""
        card, kill = self.specs[i]
        free = ALL_SQUARES & ~_occupied(packed)
        final = free
        if kill is not None:
            enemy = _side_bits(packed, 1 - self.side)
            final = enemy & ~protected_squares(enemy)
        r = rank(card)
        shift = self.shift
        for sq in squares(packed >> shift & ALL_SQUARES):
            ends = end_bits(r, sq, _visited(masks, sq), free, final)
            if ends:
                yield sq, ends, packed ^ (1 << (shift + sq))

    def last_outcomes(self, i: int, packed: int, masks: Masks, out: set[int]) -> None:
        """Adds to ``out`` the outcomes of the last use ``i``, a move (RH13, RH14)."""
        shift, kill = self.shift, self.specs[i][1]
        for sq, ends, base in self.last_moves(i, packed, masks):
            if kill is None:
                out.update(map(base.__or__, end_shifts(ends, shift)))
            else:
                for end in squares(ends):
                    out.add((base | 1 << (shift + end)) + _kill_bits(packed, end, self.side))

    def texts(self, left: int, packed: int, masks: Masks, wanted: set[int] | None) -> dict[int, str]:
        """The canonical texts of the outcomes ``wanted`` (all reachable from here; None: all).

        Texts are compared in plain string order; two first uses from one
        position never have texts of which one begins the other (cards,
        squares and keywords have fixed forms, and N4's taken card depends
        only on the 8s already used), so the smallest text of an outcome is
        the smallest first use that can still reach it followed by the
        smallest rest: each outcome goes to the first use, in text order,
        whose outcomes hold it, and only then are the rest's texts built.
        """
        best: dict[int, str] = {}
        if left & (left - 1) == 0 and left & self.movers:  # the last use, a move: one text per outcome
            i = left.bit_length() - 1
            head, sep = self.heads[i]
            shift, kill, side = self.shift, self.specs[i][1], self.side
            for sq, ends, base in self.last_moves(i, packed, masks):
                frm = head + SQUARE_NAMES[sq] + sep
                for end in squares(ends):
                    result = base | 1 << (shift + end)
                    if kill is not None:
                        result += _kill_bits(packed, end, side)
                    if wanted is None or result in wanted:
                        best[result] = frm + SQUARE_NAMES[end]
            return best
        assert wanted is not None
        for text, rest, after, after_masks in self.choices(left, packed, masks):
            if not rest:
                if after in wanted:
                    best[after] = text
                    wanted.discard(after)
            else:
                mine = wanted & self.outcomes(rest, after, after_masks)
                if mine:
                    wanted -= mine
                    for outcome, suffix in self.texts(rest, after, after_masks, mine).items():
                        best[outcome] = f"{text}, {suffix}"
            if not wanted:
                break
        return best

    def expand(self, i: int, packed: int, masks: Masks, again: bool, left: int,
               target: int | None = None) -> Iterable[Choice]:
        """Every way to make use ``i`` from the position: (text, uses left, position, masks).

        When no later use moves a piece (``again`` false), visited squares no longer matter."""
        card, kill = self.specs[i]
        rest = left & ~(1 << i)
        r, name = rank(card), CARD_NAMES[card]
        if r in MOVERS:
            return self.moves(i, packed, masks, again, rest, target)
        if r == NINE:
            return self.entries(i, packed, masks if again else (), rest)
        if not again:
            masks = ()
        if r == EIGHT:
            done = bin(self.eights & ~left).count("1")
            if done < len(self.taken):
                return [(f"{name} mystery {CARD_NAMES[self.taken[done]]}", rest, packed, masks)]
            return [(f"{name} mystery", rest, packed, masks)]
        return [(f"{name} 0", rest, packed, masks)]

    def moves(self, i: int, packed: int, masks: Masks, again: bool, rest: int,
              target: int | None = None) -> Iterator[Choice]:
        """A mover's uses, piece by piece in square order: a search for any completion takes only
        the first few, so each is made when asked for; with ``target``, only those after which the
        rest may still reach it, before their visited squares are worked out."""
        card, kill = self.specs[i]
        head, sep = self.heads[i]
        shift = self.shift
        free = ALL_SQUARES & ~_occupied(packed)
        final = free
        if kill is not None:
            enemy = _side_bits(packed, 1 - self.side)
            final = enemy & ~protected_squares(enemy)
        # With one move left, only the visited squares it can touch matter (RH13 rule 3): the
        # rest are dropped, so positions reached by walks that differ only there are one.
        later = rest & self.movers
        near = rank(self.specs[later.bit_length() - 1][0]) if again and not later & (later - 1) else None
        for frm in squares(packed >> shift & ALL_SQUARES):
            ends: dict[int, set[int]] = {}
            for mask in _visited(masks, frm):
                for end, after_mask in mover_moves(card, frm, mask, free, final):
                    ends.setdefault(end, set()).add(after_mask)
            if not ends:
                continue
            base = packed ^ (1 << (shift + frm))
            others = tuple(m for m in masks if m[0] != frm) if again else ()
            if near is not None:
                others = _near_masks(others, near)
            frm_text = head + SQUARE_NAMES[frm] + sep
            for end, sets in ends.items():
                after = base | 1 << (shift + end)
                if kill is not None:
                    after += _kill_bits(packed, end, self.side)
                if target is not None and not self.may_reach(rest, after, target):
                    continue
                if not again:
                    after_masks: Masks = ()
                elif near is None:
                    after_masks = _with(others, end, minimal(frozenset(sets)))
                else:
                    kept = _cut(sets, REACH[near][end], end)
                    after_masks = others if kept is None else _with(others, end, kept)
                yield (frm_text + SQUARE_NAMES[end], rest, after, after_masks)

    def entries(self, i: int, packed: int, masks: Masks, rest: int) -> list[Choice]:
        """A ``9``: zero, or a reserve piece onto the start square, for an Entry-Kill taking an
        unprotected opponent piece there (RH18)."""
        card, kill = self.specs[i]
        name, start, me = CARD_NAMES[card], self.start, self.me
        out: list[Choice] = []
        if kill is None:
            out.append((f"{name} 0", rest, packed, masks))
        if not packed >> (RESERVE + 4 * me) & 15:
            return out
        entering = (1 << (25 * me + start)) - (1 << (RESERVE + 4 * me))
        occupied = _occupied(packed) & BIT[start]
        if kill is None and not occupied:
            out.append((f"{name} @{SQUARE_NAMES[start]}", rest, packed + entering, masks))
        elif kill is not None and occupied:
            enemy = _side_bits(packed, 1 - self.side)
            if enemy & BIT[start] and not protected_squares(enemy) & BIT[start]:
                after = packed + _kill_bits(packed, start, self.side) + entering
                out.append((f"{name}+{CARD_NAMES[kill]} @x{SQUARE_NAMES[start]}", rest, after, masks))
        return out


def _expansion(r: int) -> int:
    """How many positions a use of rank ``r`` tends to reach: none moved, then by walk length."""
    if r not in MOVERS:
        return 0
    return 4 if r == JACK else STEPS[r]


def _text_of(choice: Choice) -> str:
    return choice[0]

# -- combinations (RH20-RH23) -------------------------------------------------


CONSECUTIVE_KILLS = {(SIX, SEVEN): (0, 1), (NINE, TEN): (0, 1), (TEN, JACK): (1, 0)}  # (mover, kill) positions
KILL_PAIR_MOVERS = frozenset(MOVERS - {SIX})  # RH20 (b): Q K A J


def pair_specs(a: int, b: int) -> list[tuple[Spec, ...]]:
    """The ways two cards, ``a`` below ``b``, may be played as a pair (RH20); [] if not a pair."""
    if suit(a) != suit(b):
        return []
    ra, rb = rank(a), rank(b)
    if rb == ra + 1:
        ways: list[tuple[Spec, ...]] = [((a, None), (b, None))]
        if (ra, rb) in CONSECUTIVE_KILLS:
            m, k = CONSECUTIVE_KILLS[ra, rb]
            pair = (a, b)
            ways.append(((pair[m], pair[k]),))
        return ways
    if ra in KILLERS and rb in KILL_PAIR_MOVERS:
        return [((b, a),)]  # (b): legal only as a kill
    return []


def flush_specs(cards: tuple[int, ...]) -> list[tuple[Spec, ...]]:
    """Every pairing of a flush's kill cards with its movers and 9 (RH21, RH45 b).

    Positions, not card values, are paired: a Formation flush may hold two
    identical cards (N11), each of which pairs on its own.
    """
    kills = [i for i, c in enumerate(cards) if rank(c) in KILLERS]
    partners = [i for i, c in enumerate(cards) if rank(c) in MOVERS or rank(c) == NINE]
    ways: set[tuple[Spec, ...]] = set()

    def go(k: int, used: frozenset[int], pairs: tuple[tuple[int, int], ...]) -> None:
        if k == len(kills):
            paired = used | {kill for _, kill in pairs}
            specs = tuple((cards[p], cards[kill]) for p, kill in pairs)
            ways.add(tuple(sorted(specs + tuple((c, None) for i, c in enumerate(cards) if i not in paired),
                                  key=_spec_order)))
            return
        go(k + 1, used, pairs)  # this kill card stays a zero
        for p in partners:
            if p not in used:
                go(k + 1, used | {p}, pairs + ((p, kills[k]),))

    go(0, frozenset(), ())
    return sorted(ways, key=lambda w: [_spec_order(x) for x in w])


def _spec_order(spec: Spec) -> tuple[int, int]:
    return (spec[0], -1 if spec[1] is None else spec[1])


def is_straight_flush(cards: tuple[int, ...]) -> bool:
    """RH22: three cards of one suit with consecutive ranks (no wrap-around)."""
    cs = sorted(cards)
    return (
        len(cs) == 3 and len({suit(c) for c in cs}) == 1
        and rank(cs[1]) == rank(cs[0]) + 1 and rank(cs[2]) == rank(cs[1]) + 1
    )


def sub_hands(held: tuple[int, ...], n: int) -> list[tuple[int, ...]]:
    """The different sorted n-card choices from ``held`` (identical cards counted once, N6)."""
    return sorted(set(combinations(sorted(held), n)))


def use_combinations(
    held: tuple[int, ...], formation: bool = False,
) -> Iterator[tuple[tuple[int, ...], list[tuple[Spec, ...]]]]:
    """Singles, pairs and flushes that ``held`` allows, with their pairings (RH20, RH21).

    Formation adds identical pairs, 4-card flushes, any three of four cards
    of one suit as a flush, and three of a kind used by any pieces (RH45);
    an identical pair and three of a kind never kill (N11).
    """
    for (c,) in sub_hands(held, 1):
        yield (c,), [((c, None),)]
    for a, b in sub_hands(held, 2):
        if formation and a == b:
            yield (a, b), [((a, None), (b, None))]
            continue
        ways = pair_specs(a, b)
        if ways:
            yield (a, b), ways
    for sizes in ((3, 4) if formation else (3,)):
        for cs in sub_hands(held, sizes):
            if len(cs) != len(held) and not formation:
                continue
            if len({suit(c) for c in cs}) == 1:
                yield cs, flush_specs(cs)
            elif formation and sizes == 3 and len({rank(c) for c in cs}) == 1:
                yield cs, [tuple((c, None) for c in cs)]


def start_play(s: State) -> Play:
    return Play(s.board, (), s.reserve, s.eliminated)


def table_places_after(cards: tuple[int, ...], table_places: int) -> int:
    """RH19: a used ``8`` turns one table place into a hand place while there is one."""
    eights = sum(1 for c in cards if rank(c) == EIGHT)
    return max(0, table_places - eights)


def remove_cards(table: tuple[int, ...], hand: tuple[int, ...], cards: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """The table and hand left after ``cards`` leave; of two identical cards the table copy goes (N6)."""
    t, h = list(table), list(hand)
    for c in cards:
        if c in t:
            t.remove(c)
        else:
            h.remove(c)
    return t, h


def mystery_choices(cards: tuple[int, ...], table: tuple[int, ...], hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """RH19: the table cards the action's ``8``s take into the hand, sorted (N4).

    After the cards leave, the player holds the table cards left and must
    have no more than the new number of table places; the rest, of the
    player's choice, go into the hand.  In the classic game that happens
    only when the 8 was the hand card and no table card was played.
    """
    if not any(rank(c) == EIGHT for c in cards):
        return [()]
    left, _ = remove_cards(table, hand, cards)
    extra = len(left) - table_places_after(cards, len(table))
    if extra <= 0:
        return [()]
    return sub_hands(tuple(left), extra)


__all__ = [
    "ELIMINATED", "REACH", "RESERVE", "end_bits", "pack", "protected_squares", "squares", "unpack", "unpack_from",
    "KILL_PAIR_MOVERS", "Key", "mystery_choices", "remove_cards", "sub_hands", "start_play", "table_places_after",
    "Play", "Result", "Search", "Spec", "entered", "flush_specs", "is_straight_flush", "mover_moves",
    "moved", "pair_specs", "use_combinations", "walks",
]
