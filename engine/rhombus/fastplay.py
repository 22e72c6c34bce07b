"""A fast, mutable copy of the Rhombus rules for random playouts (RH10-RH48).

The public engine (:func:`engine.rhombus.legal_actions`) finds every legal
action with its canonical text (N1), builds an :class:`Action` for each and
returns a new immutable state per move: right for the site, but most of a
playout's time goes into texts nobody reads.  This module plays on a
:class:`Sim`, a mutable position of plain lists and integers, and a move is
the action's **outcome** (:data:`engine.rhombus.search.Key`: the cards taken,
the board, reserve and eliminated counts after the uses, the table places
after Mystery, the table cards Mystery took into the hand, and whether it
is an Eliminator, never one action with a flush, N8).  By N1 an
action *is* its outcome, so the outcomes of a position are exactly its legal
actions, one each; :func:`to_action` gives the public :class:`Action`.

Two ways to move:

- :func:`legal_moves` lists every outcome, sorted: the same set as
  ``legal(s).by_key`` (``tests/engine/rhombus/test_fastplay.py`` checks it on
  thousands of positions of every variant and player count).
- :func:`random_move` samples one without listing all.  Its distribution
  is documented, not uniform over all actions (a random playout through
  the public API is; the benchmark reports both): **uniform over the card
  sets** that have at least one legal outcome (a single card, a pair, a
  flush with its Eliminator, a reactivation, ...); within the set,
  **uniform over its ways to play** that have an outcome (each pairing of
  kill cards, RH20-RH21, the Eliminator, the reactivation, the
  Entryliminator) and over the Mystery choices (RH19); within a way, the
  uses are made in a random order, each by a uniformly random legal walk,
  bishop move or entry (RH11-RH18), backtracking depth first when a later
  use cannot be made.  The first complete play found is the move, so a
  hand with a flush costs a few walks rather than every order of every
  walk.

Nothing here is part of the public API, and no texts are built: the search
keeps, per order of the uses that move pieces (RH11), only the boards they
reach.  Zero uses (RH15), Mystery (RH19) and unpaired kill cards change no
board, so they are left out of the orders.
"""
from __future__ import annotations

import random
from collections.abc import Iterable

from ..shuffle import shuffled
from .actions import Action
from .cards import BIT, MOVERS, NINE, START, rank, suit
from .moves import protected, seat_squares, side_squares
from .rules import action_of, formation_side
from .search import (
    Key, Play, Result, Spec, entered, is_straight_flush, moved, mystery_choices, pair_specs, sub_hands,
    table_places_after, use_combinations, walks,
)
from .state import EMPTY, FORMATION, QUIET_LIMIT, State

Move = Key
# How a game ended: (winning side or None for a draw, the rule), as rules.outcome.
Ending = tuple[int | None, str]


class Sim:
    """A mutable position.

    ``pile`` and ``discard`` are stored bottom card first, so a draw is
    ``list.pop()`` and a discard is ``list.extend``; everything else is laid
    out as in :class:`~engine.rhombus.State`.
    """

    __slots__ = ("variant", "seats", "board", "tables", "hands", "reserve", "eliminated", "out",
                 "pile", "discard", "reshuffles", "dealer", "to_move", "quiet", "ply", "seed")
    variant: str
    seats: tuple[str, ...]
    board: tuple[int, ...]
    tables: list[list[int]]
    hands: list[list[int]]
    reserve: tuple[int, ...]
    eliminated: tuple[int, ...]
    out: tuple[bool, ...]
    pile: list[int]
    discard: list[int]
    reshuffles: int
    dealer: int
    to_move: int
    quiet: int
    ply: int
    seed: bytes | None

    def __init__(self, s: State | Sim) -> None:
        """The position ``s``; given a Sim, a copy of it that shares nothing mutable.

        (Copies come through here, not through ``Sim.__new__`` and the fields set
        one by one: a class compiled by mypyc, see ``scripts/mypyc_engine.py``, is
        made only through its ``__init__``.)
        """
        if isinstance(s, Sim):
            self.tables = [t[:] for t in s.tables]
            self.hands = [h[:] for h in s.hands]
            self.pile = s.pile[:]
            self.discard = s.discard[:]
        else:
            self.tables = [list(t) for t in s.tables]
            self.hands = [list(h) for h in s.hands]
            self.pile = list(reversed(s.pile))
            self.discard = list(reversed(s.discard))
        self.variant = s.variant
        self.seats = s.seats
        self.board = s.board
        self.reserve = s.reserve
        self.eliminated = s.eliminated
        self.out = s.out
        self.reshuffles = s.reshuffles
        self.dealer = s.dealer
        self.to_move = s.to_move
        self.quiet = s.quiet
        self.ply = s.ply
        self.seed = s.seed

    def copy(self) -> Sim:
        return Sim(self)

    def state(self) -> State:
        """The public :class:`State` of this position."""
        return State(
            variant=self.variant, seats=self.seats, board=self.board,
            tables=tuple(tuple(t) for t in self.tables), hands=tuple(tuple(h) for h in self.hands),
            reserve=self.reserve, eliminated=self.eliminated, out=self.out,
            pile=tuple(reversed(self.pile)), discard=tuple(reversed(self.discard)),
            reshuffles=self.reshuffles, dealer=self.dealer, to_move=self.to_move,
            quiet=self.quiet, ply=self.ply, seed=self.seed,
        )

    def owner(self) -> int:
        """The seat whose pieces the player to move moves (RH34, :func:`~engine.rhombus.plays_for`)."""
        me = self.to_move
        return (me + 2) % 4 if len(self.seats) == 4 and self.out[me] else me


# -- the search without texts ----------------------------------------------------


def _results(owner: int, start: int, specs: tuple[Spec, ...], play: Play) -> set[Result]:
    """The (board, reserve, eliminated) every order and walk of ``specs`` can leave (RH11-RH18)."""
    active = tuple(spec for spec in specs if rank(spec[0]) in MOVERS or rank(spec[0]) == NINE)
    if not active:
        return {(play.board, play.reserve, play.eliminated)}
    movers = sum(1 << i for i, (c, _) in enumerate(active) if rank(c) in MOVERS)
    side = owner % 2
    memo: dict[tuple[int, Play], set[Result]] = {}

    def explore(left: int, play: Play) -> set[Result]:
        if not left & movers and play.masks:
            play = play._replace(masks=())
        memo_key = (left, play)
        found = memo.get(memo_key)
        if found is not None:
            return found
        found = set()
        for i, (card, kill) in enumerate(active):
            if not left >> i & 1:
                continue
            rest = left & ~(1 << i)
            for after in _expand(card, kill, play, bool(rest & movers), owner, start, side):
                if rest:
                    found |= explore(rest, after)
                else:
                    found.add((after.board, after.reserve, after.eliminated))
        memo[memo_key] = found
        return found

    return explore((1 << len(active)) - 1, play)


def _expand(card: int, kill: int | None, play: Play, again: bool, owner: int, start: int,
            side: int) -> Iterable[Play]:
    """The plays one use can lead to (Search.expand without texts)."""
    board = play.board
    if rank(card) == NINE:
        if kill is None:
            yield play  # RH18: a 9 may always be zero
        if play.reserve[owner] <= 0:
            return
        who = board[start]
        if kill is None and who == EMPTY:
            yield entered(play, owner, start, False)
        elif kill is not None and who != EMPTY and who % 2 != side and not protected(board, start):
            yield entered(play, owner, start, True)
        return
    killing = kill is not None
    for frm, end, masks in walks(card, kill, play, owner, side):
        yield moved(play, frm, end, killing, frozenset(masks) if again else None)


# -- card sets -------------------------------------------------------------------

# A card set's ways to play: the spec lists of its uses, whether it is an
# Eliminator (RH22), a reactivation (RH23) or an Entryliminator (RH46).
Group = tuple[tuple[int, ...], list[tuple[Spec, ...]], bool, bool, bool]


def card_groups(sim: Sim) -> list[Group]:
    """Every card set the player to move may act with, in a fixed order (RH20-RH23, RH45, RH46)."""
    me = sim.to_move
    formation = sim.variant == FORMATION
    held = tuple(sorted(sim.tables[me] + sim.hands[me]))
    found: dict[tuple[int, ...], list[tuple[Spec, ...]]] = {}
    for cards, ways in use_combinations(held, formation):
        found[cards] = ways
    out: list[Group] = []
    for cards, ways in found.items():
        elim = len(cards) == 3 and is_straight_flush(cards) and (formation or len(held) == 3)
        out.append((cards, ways, elim, False, False))
    if not formation and len(held) == 3 and len({rank(c) for c in held}) == 1:
        out.append((held, [], False, True, False))
    if formation and len(held) == 4 and _entryliminator_cards(held):
        if held in found:
            out = [(c, w, e, r, c == held) for c, w, e, r, _ in out]
        else:
            out.append((held, [], False, False, True))
    if formation:  # RH45 d: an Eliminator from any three of four cards, even when no flush is listed
        for cards in sub_hands(held, 3):
            if is_straight_flush(cards) and cards not in found:
                out.append((cards, [], True, False, False))
    return out


def _entryliminator_cards(held: tuple[int, ...]) -> bool:
    """RH46's cards: a 9 and three other cards of its suit forming a straight."""
    for nine in {c for c in held if rank(c) == NINE}:
        rest = list(held)
        rest.remove(nine)
        if all(suit(c) == suit(nine) for c in rest) and is_straight_flush(tuple(rest)):
            return True
    return False


def group_moves(sim: Sim, group: Group) -> set[Move]:
    """The outcomes of one card set (N1)."""
    cards, ways, elim, react, entry = group
    me = sim.to_move
    owner = sim.owner()
    table, hand = tuple(sim.tables[me]), tuple(sim.hands[me])
    board, reserve, eliminated = sim.board, sim.reserve, sim.eliminated
    places_now = len(table)
    out: set[Move] = set()
    if ways:
        start = START[sim.seats[owner]]
        play = Play(board, (), reserve, eliminated)
        places = table_places_after(cards, places_now)
        results: set[Result] = set()
        for specs in ways:
            results |= _results(owner, start, specs, play)
        for taken in mystery_choices(cards, table, hand):
            for b, r, e in results:
                out.add((cards, b, r, e, places, taken, False))
    if elim:
        play = Play(board, (), reserve, eliminated)
        own = seat_squares(board, owner)
        enemy = side_squares(board, 1 - me % 2)
        for frm in range(25):
            if own & BIT[frm]:
                for to in range(25):
                    if enemy & BIT[to]:
                        after = moved(play, frm, to, True, None)
                        out.add((cards, after.board, after.reserve, after.eliminated, places_now, (), True))
    if react:
        el, res = list(eliminated), list(reserve)
        if el[owner] > 0:
            el[owner], res[owner] = el[owner] - 1, res[owner] + 1
        out.add((cards, board, tuple(res), tuple(el), places_now, (), False))
    if entry:
        start = START[sim.seats[me]]
        who = board[start]
        if reserve[me] > 0 and who != EMPTY and who % 2 != me % 2:
            after = entered(Play(board, (), reserve, eliminated), me, start, True)
            out.add((cards, after.board, after.reserve, after.eliminated, places_now, (), False))
    return out


def _sample_group(sim: Sim, group: Group, rng: random.Random) -> Move | None:
    """One random outcome of a card set, or None if it has none (the module docstring's distribution)."""
    cards, ways, elim, react, entry = group
    me = sim.to_move
    owner = sim.owner()
    board, reserve, eliminated = sim.board, sim.reserve, sim.eliminated
    places_now = len(sim.tables[me])
    parts: list[tuple[Spec, ...] | str] = [*ways, *(["elim"] if elim else []), *(["react"] if react else []),
                                            *(["entry"] if entry else [])]
    rng.shuffle(parts)
    for part in parts:
        if not isinstance(part, str):
            res = _sample_uses(owner, START[sim.seats[owner]], part, board, reserve, eliminated, rng)
            if res is None:
                continue
            choices = mystery_choices(cards, tuple(sim.tables[me]), tuple(sim.hands[me]))
            taken = choices[int(rng.random() * len(choices))]
            return (cards, res[0], res[1], res[2], table_places_after(cards, places_now), taken, False)
        found = group_moves(sim, (cards, [], part == "elim", part == "react", part == "entry"))
        if found:
            moves = sorted(found)
            return moves[int(rng.random() * len(moves))]
    return None


def _sample_uses(owner: int, start: int, specs: tuple[Spec, ...], board: tuple[int, ...],
                 reserve: tuple[int, ...], eliminated: tuple[int, ...], rng: random.Random) -> Result | None:
    """A random play of ``specs``: random order, random walks, depth-first backtracking (RH11-RH18)."""
    active = [spec for spec in specs if rank(spec[0]) in MOVERS or rank(spec[0]) == NINE]
    side = owner % 2
    shuffle = rng.shuffle

    def go(left: list[Spec], play: Play) -> Result | None:
        if not left:
            return (play.board, play.reserve, play.eliminated)
        order = list(range(len(left)))
        shuffle(order)
        for i in order:
            card, kill = left[i]
            rest = left[:i] + left[i + 1:]
            again = any(rank(c) in MOVERS for c, _ in rest)
            if rank(card) == NINE:
                options: list[Play] | list[tuple[int, int, frozenset[int]]] = list(
                    _expand(card, kill, play, again, owner, start, side))
            else:
                options = [(frm, end, frozenset(masks))
                           for frm, end, masks in walks(card, kill, play, owner, side)]
            shuffle(options)
            for option in options:  # all walks to one end stay together, as in the full search
                if isinstance(option, Play):
                    after = option
                else:
                    frm, end, masks = option
                    after = moved(play, frm, end, kill is not None, masks if again else None)
                found = go(rest, after)
                if found is not None:
                    return found
        return None

    return go(active, Play(board, (), reserve, eliminated))


def _discards(sim: Sim, shapes: list[tuple[int, ...]]) -> set[Move]:
    places = len(sim.tables[sim.to_move])
    return {(cards, sim.board, sim.reserve, sim.eliminated, places, (), False) for cards in shapes}


def discard_shapes(held: tuple[int, ...]) -> list[tuple[int, ...]]:
    """RH47, N10: as :func:`engine.rhombus.rules.discard_shapes`."""
    shapes: list[tuple[int, ...]] = list(sub_hands(held, 1))
    shapes += [p for p in sub_hands(held, 2) if p[0] == p[1] or pair_specs(p[0], p[1])]
    shapes += [c for c in sub_hands(held, 3) if len({suit(x) for x in c}) == 1 or len({rank(x) for x in c}) == 1]
    shapes += [c for c in sub_hands(held, 4) if len({suit(x) for x in c}) == 1]
    return shapes


def _pieceless_moves(sim: Sim) -> set[Move]:
    """RH47: a Formation player with no piece on the board brings one in or discards."""
    me = sim.to_move
    found: set[Move] = set()
    for group in card_groups(sim):
        found |= {k for k in group_moves(sim, group) if k[2][me] < sim.reserve[me]}
    return found | _discards(sim, discard_shapes(tuple(sim.tables[me] + sim.hands[me])))


# -- moves, the end, playing --------------------------------------------------------


def ended(sim: Sim) -> Ending | None:
    """The endings that need no search (RH25, RH27, RH43), as :func:`engine.rhombus.rules.ended`."""
    board = sim.board
    if sim.variant == FORMATION:
        side = formation_side(board)
        if side is not None:
            return (side, "RH43")
    else:
        mover = sim.to_move % 2
        for side in (mover, 1 - mover):
            if not any(who != EMPTY and who % 2 == side for who in board):
                return (1 - side, "RH25")
    if sim.quiet >= QUIET_LIMIT:
        return (None, "RH27")
    return None


def legal_moves(sim: Sim) -> list[Move]:
    """Every legal action's outcome, sorted; [] once the game is over (N1, N12)."""
    if ended(sim) is not None:
        return []
    return sorted(_all_moves(sim))


def _all_moves(sim: Sim) -> set[Move]:
    me = sim.to_move
    if sim.variant == FORMATION and me not in sim.board:
        return _pieceless_moves(sim)
    found: set[Move] = set()
    for group in card_groups(sim):
        found |= group_moves(sim, group)
    if not found and sim.variant == FORMATION:  # RH48
        found = _discards(sim, sub_hands(tuple(sim.tables[me] + sim.hands[me]), 1))
    return found


def _has_move(sim: Sim) -> bool:
    """RH26: whether the player to move has a legal action; a zero use or an 8 always is one."""
    if sim.variant == FORMATION:
        return True  # RH48: Formation never ends by RH26
    me = sim.to_move
    if any(rank(c) not in MOVERS for c in sim.tables[me] + sim.hands[me]):
        return True
    groups = card_groups(sim)
    return any(group_moves(sim, g) for g in groups if len(g[0]) == 1) or any(group_moves(sim, g) for g in groups)


def result(sim: Sim) -> Ending | None:
    """None while the game runs; else (winning side or None for a draw, rule), as rules.outcome."""
    over = ended(sim)
    if over is None and not _has_move(sim):
        return (1 - sim.to_move % 2, "RH26")
    return over


def random_move(sim: Sim, rng: random.Random) -> Move | None:
    """A random legal action's outcome (see the module docstring); None once the game is over."""
    if ended(sim) is not None:
        return None
    me = sim.to_move
    if sim.variant == FORMATION and me not in sim.board:
        moves = sorted(_pieceless_moves(sim))
        return moves[int(rng.random() * len(moves))]
    groups = card_groups(sim)
    rng.shuffle(groups)
    for group in groups:
        move = _sample_group(sim, group, rng)
        if move is not None:
            return move
    if sim.variant == FORMATION:  # RH48: a one-card discard
        singles = sub_hands(tuple(sim.tables[me] + sim.hands[me]), 1)
        return (singles[int(rng.random() * len(singles))], sim.board, sim.reserve, sim.eliminated,
                len(sim.tables[me]), (), False)
    return None


def play(sim: Sim, move: Move) -> None:
    """Play ``move`` (a legal outcome) in place: discard, Mystery, refill, turn (RH19, RH24, RH34, RH44)."""
    cards, board, reserve, eliminated, table_places, taken, _ = move
    me = sim.to_move
    table, hand = sim.tables[me], sim.hands[me]
    hand_places = len(table) + len(hand) - table_places
    for c in cards:  # of two identical cards the table copy goes (N6)
        if c in table:
            table.remove(c)
        else:
            hand.remove(c)
    for c in taken:
        table.remove(c)
        hand.append(c)
    sim.discard.extend(sorted(cards))
    pile = sim.pile
    for places, cards_now in ((table_places, table), (hand_places, hand)):
        while len(cards_now) < places:
            if not pile:
                pile = _reshuffle(sim)
            cards_now.append(pile.pop())
            if not pile:  # RH24: the moment the pile runs out, this action's cards included
                pile = _reshuffle(sim)
    killed = any(a > b for a, b in zip(eliminated, sim.eliminated))
    if sim.variant == FORMATION:  # RH44: an eliminated piece goes straight back to its owner's reserve
        reserve = tuple(r + e - e0 for r, e, e0 in zip(reserve, eliminated, sim.eliminated))
        eliminated = sim.eliminated
    elif len(sim.seats) == 4:  # RH34: a player with no own piece on the board is out
        res, el, out = list(reserve), list(eliminated), list(sim.out)
        for seat in range(4):
            if not out[seat] and seat not in board:
                out[seat] = True
                el[seat], res[seat] = el[seat] + res[seat], 0
        reserve, eliminated, sim.out = tuple(res), tuple(el), tuple(out)
    sim.board, sim.reserve, sim.eliminated = board, reserve, eliminated
    sim.to_move = (me + 1) % len(sim.seats)
    sim.quiet = 0 if killed else sim.quiet + 1
    sim.ply += 1


def _reshuffle(sim: Sim) -> list[int]:
    """RH24, RH30: the discard pile shuffled into a new pile, exactly as the public rules do."""
    sim.reshuffles += 1
    sim.pile = list(reversed(shuffled(tuple(reversed(sim.discard)), sim.seed or b"", sim.reshuffles)))
    sim.discard = []
    return sim.pile


def playout(sim: Sim, rng: random.Random, max_plies: int | None = None) -> Ending | None:
    """Random moves (:func:`random_move`) until the end, or ``max_plies``; the ending or None."""
    plies = 0
    while max_plies is None or plies < max_plies:
        move = random_move(sim, rng)
        if move is None:
            return result(sim)
        play(sim, move)
        plies += 1
    return result(sim)


def to_action(s: State, move: Move) -> Action:
    """The public :class:`Action` (canonical text, N1) of ``move`` in ``s``."""
    return action_of(s, move)


__all__ = ["Ending", "Move", "Sim", "card_groups", "ended", "group_moves", "legal_moves", "play", "playout",
           "random_move", "result", "to_action"]
