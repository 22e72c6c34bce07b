"""The search behind legal actions: uses, walks and pairings (RH11-RH23).

A :class:`Search` finds the outcomes of one list of uses in any order
(RH11) by any walks (RH13, RH14), and each outcome's smallest text (N1): the
canonical text.  It first collects the outcomes alone, as sets, remembered
per uses left and play; then it gives each outcome to the smallest first
use (in text order) that still reaches it, and builds that use's rest the
same way, so each canonical text is built once, not every text of every
order and walk (issue 24).  A one-use action and an action's last move are
walked piece by piece for their end squares only.

Each piece's possible visited sets (RH13 rule 3) are kept together in one
state, and only while a later use of the action could still move a piece,
which keeps flushes of three movers cheap.
"""
from __future__ import annotations

from itertools import combinations
from typing import Iterator, NamedTuple

from .cards import (
    ALL_SQUARES, BIT, CARD_NAMES, EIGHT, JACK, KILLERS, MOVERS, NINE, SEVEN, SIX, SQUARE_NAMES,
    STEPS, TEN, rank, suit,
)
from .moves import (
    diagonal, diagonal_ends, occupied, orthogonal, orthogonal_ends, protected, seat_squares, targets,
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


def _text_of(choice: tuple[str, int, Play]) -> str:
    return choice[0]


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


class Search:
    """One player's search for the outcomes of one list of uses (RH11).

    ``me`` is the seat whose pieces move, whose reserve a ``9`` uses and
    whose start square ``start`` is: the player's own, or an out player's
    partner (RH34, :func:`engine.rhombus.state.plays_for`).  Kills take only
    pieces of the other side, so a partner's piece is never a target (RH33).
    """

    def __init__(self, me: int, start: int, specs: tuple[Spec, ...], taken: tuple[int, ...]) -> None:
        self.me, self.start, self.specs, self.taken = me, start, specs, taken
        # Bit i set when use i moves a piece: while one is left, visited squares matter.
        self.movers = sum(1 << i for i, (c, _) in enumerate(specs) if rank(c) in MOVERS)
        # N4: the taken cards go on the first 8s in text order, so an 8's text
        # depends on how many 8s the text already has, which ``left`` tells.
        self.eights = sum(1 << i for i, (c, _) in enumerate(specs) if rank(c) == EIGHT)
        self.first: dict[tuple[int, Play], list[tuple[str, int, Play]]] = {}
        self.reached: dict[tuple[int, Play], frozenset[Result]] = {}
        self.last: dict[tuple[Spec, Board, Counts, Counts, int, frozenset[int]],
                        tuple[list[tuple[int, Result]], frozenset[Result]]] = {}

    def run(self, play: Play) -> dict[Result, str]:
        """Every outcome of the uses with its canonical text (N1)."""
        if len(self.specs) == 1 and rank(self.specs[0][0]) in MOVERS:
            return self.single_move(self.specs[0], play)
        if len(self.specs) == 1:  # one use: each text is its own outcome's, the smallest kept
            best: dict[Result, str] = {}
            for text, after in self.expand(self.specs[0], play, False, 1):
                outcome = (after.board, after.reserve, after.eliminated)
                if outcome not in best or text < best[outcome]:
                    best[outcome] = text
            return best
        left = (1 << len(self.specs)) - 1
        play = self._settled(left, play)
        return self.texts(left, play, set(self.outcomes(left, play)))

    def _settled(self, left: int, play: Play) -> Play:
        if not left & self.movers and play.masks:
            return play._replace(masks=())  # no piece moves again: visited squares no longer matter
        return play

    def choices(self, left: int, play: Play) -> list[tuple[str, int, Play]]:
        """Every first use from ``play`` as (its text, the uses left after it, the play after it),
        in text order.  Of identical uses (Formation's two copies of a card, RH42) only the
        first left is tried: the other gives the same texts and outcomes."""
        memo_key = (left, play)
        found = self.first.get(memo_key)
        if found is not None:
            return found
        found = []
        specs = self.specs
        for i, spec in enumerate(specs):
            if not left >> i & 1 or any(left >> j & 1 and specs[j] == spec for j in range(i)):
                continue
            rest = left & ~(1 << i)
            again = bool(rest & self.movers)
            for text, after in self.expand(spec, play, again, left):
                found.append((text, rest, self._settled(rest, after) if rest else after))
        found.sort(key=_text_of)
        self.first[memo_key] = found
        return found

    def outcomes(self, left: int, play: Play) -> frozenset[Result]:
        """The outcomes the uses ``left`` reach from ``play``, without texts."""
        memo_key = (left, play)
        found = self.reached.get(memo_key)
        if found is not None:
            return found
        out: set[Result] = set()
        if left & (left - 1) == 0 and left & self.movers:  # the last use, a move: piece by piece
            spec = self.specs[left.bit_length() - 1]
            me = self.me
            for sq, who in enumerate(play.board):
                if who == me:
                    out |= self.last_moves(spec, play, sq)[1]
            found = self.reached[memo_key] = frozenset(out)
            return found
        for _, rest, after in self.choices(left, play):
            if rest:
                out |= self.outcomes(rest, after)
            else:
                out.add((after.board, after.reserve, after.eliminated))
        found = self.reached[memo_key] = frozenset(out)
        return found

    def single_move(self, spec: Spec, play: Play) -> dict[Result, str]:
        """A one-use action that moves a piece: one outcome per piece and end square,
        each with its one text (RH13, RH14, N1)."""
        card, kill = spec
        head = f"{CARD_NAMES[card]}+{CARD_NAMES[kill]} " if kill is not None else f"{CARD_NAMES[card]} "
        sep = "x" if kill is not None else "-"
        board, me = play.board, self.me
        best: dict[Result, str] = {}
        for sq, who in enumerate(board):
            if who != me:
                continue
            frm = head + SQUARE_NAMES[sq] + sep
            for end, after in self._ends(spec, play, sq):
                best[after] = frm + SQUARE_NAMES[end]
        return best

    def _ends(self, spec: Spec, play: Play, sq: int) -> list[tuple[int, Result]]:
        """(end square, outcome) of each move of the piece on ``sq`` by ``spec``, in square order,
        as the last use of the action (its visited squares are not kept)."""
        card, kill = spec
        board = play.board
        free = ALL_SQUARES & ~occupied(board)
        final = targets(board, side_of(self.me)) if kill is not None else free
        bits = 0
        r = rank(card)
        for mask in play.visited(sq):
            if r == JACK:
                bits |= diagonal_ends(sq, mask, free, final)
            else:
                bits |= orthogonal_ends(sq, STEPS[r], mask, free, final)
        out: list[tuple[int, Result]] = []
        for end in _squares(bits):
            after = list(board)
            eliminated = play.eliminated
            if kill is not None:
                victim = after[end]
                eliminated = eliminated[:victim] + (eliminated[victim] + 1,) + eliminated[victim + 1:]
            after[end], after[sq] = after[sq], EMPTY
            out.append((end, (tuple(after), play.reserve, eliminated)))
        return out

    def last_moves(self, spec: Spec, play: Play, sq: int) -> tuple[list[tuple[int, Result]], frozenset[Result]]:
        """The moves (end square, outcome) of the last use, a move, made by the piece on
        ``sq``, and their outcomes.

        Only that piece's visited sets matter to it, so searches whose
        plays differ only in other pieces' visited sets share this.
        """
        visited = play.visited(sq)
        memo_key = (spec, play.board, play.reserve, play.eliminated, sq, visited)
        found = self.last.get(memo_key)
        if found is None:
            ends = self._ends(spec, play, sq)
            found = self.last[memo_key] = (ends, frozenset(after for _, after in ends))
        return found

    def texts(self, left: int, play: Play, wanted: set[Result]) -> dict[Result, str]:
        """The canonical texts of the outcomes ``wanted`` (all reachable from here).

        Texts are compared in plain string order; two first uses from one
        play never have texts of which one begins the other (cards, squares
        and keywords have fixed forms, and N4's taken card depends only on
        the 8s already used), so the smallest text of an outcome is the
        smallest first use that can still reach it followed by the smallest
        rest: each outcome goes to the first use, in text order, whose
        outcomes hold it, and only then are the rest's texts built.
        """
        best: dict[Result, str] = {}
        if left & (left - 1) == 0 and left & self.movers:  # the last use, a move: one text per outcome
            card, kill = self.specs[left.bit_length() - 1]
            head = f"{CARD_NAMES[card]}+{CARD_NAMES[kill]} " if kill is not None else f"{CARD_NAMES[card]} "
            sep = "x" if kill is not None else "-"
            for sq, who in enumerate(play.board):
                if who == self.me:
                    for end, result in self.last_moves((card, kill), play, sq)[0]:
                        if result in wanted:
                            best[result] = f"{head}{SQUARE_NAMES[sq]}{sep}{SQUARE_NAMES[end]}"
            return best
        for text, rest, after in self.choices(left, play):
            if not rest:
                outcome = (after.board, after.reserve, after.eliminated)
                if outcome in wanted:
                    best[outcome] = text
                    wanted.discard(outcome)
            else:
                mine = wanted & self.outcomes(rest, after)
                if mine:
                    wanted -= mine
                    for outcome, suffix in self.texts(rest, after, mine).items():
                        best[outcome] = f"{text}, {suffix}"
            if not wanted:
                break
        return best

    def expand(self, spec: Spec, play: Play, again: bool, left: int) -> Iterator[tuple[str, Play]]:
        card, kill = spec
        r, name = rank(card), CARD_NAMES[card]
        if r in MOVERS:
            yield from self.moves(card, kill, play, again)
        elif r == NINE:
            yield from self.entries(card, kill, play)
        elif r == EIGHT:
            done = bin(self.eights & ~left).count("1")
            if done < len(self.taken):
                yield f"{name} mystery {CARD_NAMES[self.taken[done]]}", play
            else:
                yield f"{name} mystery", play
        else:
            yield f"{name} 0", play

    def moves(self, card: int, kill: int | None, play: Play, again: bool) -> Iterator[tuple[str, Play]]:
        head = f"{CARD_NAMES[card]}+{CARD_NAMES[kill]}" if kill is not None else CARD_NAMES[card]
        sep = "x" if kill is not None else "-"
        for frm, end, masks in walks(card, kill, play, self.me, side_of(self.me)):
            text = f"{head} {SQUARE_NAMES[frm]}{sep}{SQUARE_NAMES[end]}"
            # When no later use moves a piece, visited squares no longer matter.
            yield text, moved(play, frm, end, kill is not None, frozenset(masks) if again else None)

    def entries(self, card: int, kill: int | None, play: Play) -> Iterator[tuple[str, Play]]:
        name, start, me = CARD_NAMES[card], self.start, self.me
        if kill is None:
            yield f"{name} 0", play
        if play.reserve[me] <= 0:
            return
        who = play.board[start]
        if kill is None and who == EMPTY:
            yield f"{name} @{SQUARE_NAMES[start]}", entered(play, me, start, False)
        elif kill is not None and who != EMPTY and side_of(who) != side_of(me) and not protected(play.board, start):
            yield f"{name}+{CARD_NAMES[kill]} @x{SQUARE_NAMES[start]}", entered(play, me, start, True)


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
    "KILL_PAIR_MOVERS", "Key", "mystery_choices", "remove_cards", "sub_hands", "start_play", "table_places_after",
    "Play", "Result", "Search", "Spec", "entered", "flush_specs", "is_straight_flush", "mover_moves",
    "moved", "pair_specs", "use_combinations", "walks",
]
