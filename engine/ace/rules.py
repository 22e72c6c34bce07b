"""Legal actions, applying an action, and the end of the game (R7-R16).

Generation works on integers and bit masks (see :mod:`engine.ace.geometry`); it is
the inner loop of every playout, so it stays flat.  Explaining *why* an action
is illegal is kept apart, in :mod:`engine.ace.explain`, and only runs on refusal.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, Final

from .actions import Action
from .cards import ACES, CAPTURED, POINTS, SEATS, SIDE_PAWNS
from .explain import explain
from .geometry import BIT
from .moves import (
    BURNS, CARD_PAWNS, GEN, HOME_BIT, IS_FACE, PATHS, TABLES, burn, entries, gen_row, release,
)
from .state import State

Cards = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``winner`` is ``"red"``, ``"black"`` or None for a draw."""

    winner: str | None
    reason: str  # "aces" (R15) or "points" (R16)
    score: dict[str, int]

    def __reduce__(self) -> tuple[type[Outcome], tuple[object, ...]]:
        # Pickled as its constructor's arguments: a mypyc build cannot restore a frozen
        # class field by field (scripts/mypyc_engine.py).
        return type(self), tuple(getattr(self, f.name) for f in fields(self) if f.init)


def card_moves(card: int, where: tuple[int, ...], own: int, occ: int) -> list[Action]:
    """Every move or release that ``card`` allows (R9-R12), in table order."""
    out: list[Action] = []
    add_moves(out, card, where, own, occ)
    return out


def add_moves(out: list[Action], card: int, where: tuple[int, ...], own: int, occ: int) -> bool:
    """Append ``card``'s moves and releases to ``out``; False if it has none (R13)."""
    before = len(out)
    row = TABLES[card]
    for pawn in CARD_PAWNS[card]:
        sq = where[pawn]
        if sq >= 0:
            found = row[sq]
            if found is None:
                found = entries(card, sq)
            for path, bit, quiet, capture in found:
                if not (occ & path or own & bit):
                    out.append(capture if occ & bit else quiet)
        elif sq == CAPTURED and IS_FACE[card] and not own & HOME_BIT[pawn]:
            out.append(release(card, bool(occ & HOME_BIT[pawn])))
    return len(out) > before


def aces_captured(where: tuple[int, ...], side: int) -> bool:
    """R15: both of ``side``'s Aces are in the opponent's captured area."""
    first, second = ACES[side]
    return where[first] == CAPTURED and where[second] == CAPTURED


def ace_releases(hand: Cards, where: tuple[int, ...], own: int, occ: int) -> list[Action]:
    """The releases of an Ace that ``hand`` allows: all a player may do under R15."""
    return [
        a for card in hand if card % 13 == 0
        for a in card_moves(card, where, own, occ)
    ]


_TEXT: Final = attrgetter("order")


def legal_actions(s: State) -> list[Action]:
    """Every legal action in ``s``, sorted as their texts sort; [] once the game is over
    (R7, R13, R15).

    Nothing but the board and the mover's own hand decides what is legal. The
    list made is kept for ``s`` (see ``_listed``): asked again for the same
    state object, this returns a copy of it.

    >>> import engine
    >>> [str(a) for a in legal_actions(engine.new_game(42))][:3]
    ['10D a1-c4', '10D a1-d3', '10D b1-d4']

    The inner loop is the engine's hottest code (every playout and every
    page's legal list), so it is written flat, on the generator tables of
    :mod:`engine.ace.moves` (``GEN``): ``occ & (path | landing)`` is zero for
    a quiet move, equals the landing bit when only the landing is taken, and
    that landing is a capture unless the pawn there is the mover's own.
    """
    global _listed
    last = _listed
    if last[0] is s:
        return list(last[1])
    where, hands, _, _, me, _, occupied = s
    own = occupied[me]
    occ = own | occupied[1 - me]
    first, second = ACES[me]
    if where[first] == CAPTURED and where[second] == CAPTURED:  # R15
        actions = ace_releases(hands[me], where, own, occ)
    else:
        actions = []
        append = actions.append
        for card in hands[me]:
            before = len(actions)
            row = GEN[card] or gen_row(card)
            for pawn in CARD_PAWNS[card]:
                sq = where[pawn]
                if sq >= 0:
                    for mask, bit, quiet, capture in row[sq]:
                        taken = occ & mask
                        if not taken:
                            append(quiet)
                        elif taken == bit and not own & bit:
                            append(capture)
                elif sq == CAPTURED and IS_FACE[card] and not own & HOME_BIT[pawn]:
                    append(release(card, bool(occ & HOME_BIT[pawn])))
            if len(actions) == before:
                append(BURNS[card])  # R13
    actions.sort(key=_TEXT)
    _listed = (s, tuple(actions))
    return actions


# The last legal list made, with the very state object it is for (issue 24): a
# move's position is listed by the mover's view, the socket, the API and the
# bot alike, and `apply` checks an action against it. Kept by identity, so it
# never changes what a State is (its equality, hash, pickle or JSON), and as
# one tuple read and written whole, so threads sharing it see a pair that
# belongs together. A tuple, so no caller can change the list kept.
_listed: tuple[State | None, tuple[Action, ...]] = (None, ())


def listed(s: State) -> tuple[Action, ...]:
    """``legal_actions(s)`` as a tuple, made once for the last state asked about."""
    last = _listed
    if last[0] is s:
        return last[1]
    # Not `_listed[1]` after the call: another thread may have listed since.
    return tuple(legal_actions(s))


def score(where: tuple[int, ...]) -> dict[str, int]:
    """Points in each side's captured area (R16): A 40, K 20, Q 10, J 5."""
    return {
        seat: sum(POINTS[p] for p in SIDE_PAWNS[1 - side] if where[p] == CAPTURED)
        for side, seat in enumerate(SEATS)
    }


def outcome(s: State) -> Outcome | None:
    """None while the game runs; else who won, why, and the score (R15, R16).

    A position whose player to move holds no card is over: real play reaches
    it only when both hands and decks are empty (R16), and a hand-made
    position that reaches it earlier is scored the same way.
    """
    me = s.to_move
    where = s.where
    if aces_captured(where, me):
        own = s.occupied[me]
        if not ace_releases(s.hands[me], where, own, own | s.occupied[1 - me]):
            return Outcome(SEATS[1 - me], "aces", score(where))
    if s.hands[me]:
        return None
    points = score(where)
    if points["red"] == points["black"]:
        return Outcome(None, "points", points)
    return Outcome("red" if points["red"] > points["black"] else "black", "points", points)


# `action` is typed `object`, not `Action | str | dict`: anything else must raise
# NotationError, and a mypyc build would raise TypeError on entry for a narrower type.
def apply(s: State, action: object) -> State:
    """The state after ``action``; ``s`` itself is never changed.

    ``action`` may be an :class:`Action`, its text or its JSON form.  Raises
    :class:`IllegalAction` naming the rule the action breaks, or
    :class:`NotationError` for something that is not an action.  The
    capture mark need not be right: the position decides whether a move
    captures, and the new state's discard pile holds the action as it really
    was.

    >>> import engine
    >>> s = engine.apply(engine.new_game(42), "QH g1-g2")
    >>> s.board["g2"], s.turn, s.ply
    ('QH', 'black', 1)
    >>> engine.apply(s, "QH g2-g3")
    Traceback (most recent call last):
    ...
    engine.errors.IllegalAction: QH g2-g3: QH, a Red card, is not in Black's hand (R7)
    """
    if not isinstance(action, Action):
        action = Action.from_json(action)  # text or the JSON form; else NotationError
    last = _listed
    if last[0] is s and type(action) is Action:
        # Listed for this very state: one bisection (the list is sorted by
        # `order`, one-to-one with the text and so with the action's value)
        # tells a legal action, spelt as the position says, with no check.
        # A subclass's action is left to the full check, which replaces it.
        kept = last[1]
        i = bisect_left(kept, action.order, key=_TEXT)
        if i < len(kept) and kept[i].order == action.order:
            return _play(s, action if action.kind == "move" else kept[i])
    if action.kind == "move":
        after = _move(s, action)
    else:
        legal = _find(s, action)
        after = None if legal is None else _play(s, legal)
    if after is None:
        raise explain(s, action, outcome(s))
    return after


def check(s: State, action: Action) -> Action:
    """``action`` as the position spells it, or :class:`IllegalAction`."""
    legal = _find(s, action)
    if legal is None:
        raise explain(s, action, outcome(s))
    return legal


def _find(s: State, action: Action) -> Action | None:
    """The legal action that ``action`` names, looked up without generating the rest.

    A move is checked with one look-up of its shape (``PATHS``) and three mask
    tests; ``action`` itself is returned when it already says rightly whether
    it captures, else the table's action that does.
    """
    where, hands, _, _, me, _, occupied = s
    card = action.card_index
    if card not in hands[me]:
        return None
    kind = action.kind
    first, second = ACES[me]
    if where[first] == CAPTURED and where[second] == CAPTURED and not (
            card % 13 == 0 and kind == "release"):
        return None  # R15
    own = occupied[me]
    occ = own | occupied[1 - me]
    if kind == "move":
        frm, to = action.from_index, action.to_index
        path = PATHS.get((card % 13) << 12 | frm << 6 | to)
        if path is None or not own & BIT[frm] or where.index(frm) not in CARD_PAWNS[card]:
            return None
        bit = BIT[to]
        if occ & path or own & bit:
            return None
        capture = bool(occ & bit)
        if capture is action.capture and type(action) is Action:
            return action
        return _table_action(card, frm, bit, capture)
    if kind == "burn":
        return None if card_moves(card, where, own, occ) else burn(card)
    pawn = CARD_PAWNS[card][0]  # a release
    if where[pawn] != CAPTURED or own & HOME_BIT[pawn]:
        return None
    return release(card, bool(occ & HOME_BIT[pawn]))


def _move(s: State, action: Action) -> State | None:
    """The state after the move ``action``, or None if it is illegal: :func:`_find`
    and :func:`_play` in one, so the moving pawn is looked up once (R9-R12, R14)."""
    where, (red_hand, black_hand), (red_deck, black_deck), (red_pile, black_pile), me, ply, \
        (red_occ, black_occ) = s
    card = action.card_index
    hand = black_hand if me else red_hand
    if card not in hand:
        return None
    first, second = ACES[me]
    if where[first] == CAPTURED and where[second] == CAPTURED:
        return None  # R15
    own, other = (black_occ, red_occ) if me else (red_occ, black_occ)
    frm, to = action.from_index, action.to_index
    path = PATHS.get((card % 13) << 12 | frm << 6 | to)
    if path is None or not own & BIT[frm]:
        return None
    pawn = where.index(frm)
    bit = BIT[to]
    if pawn not in CARD_PAWNS[card] or (own | other) & path or own & bit:
        return None
    squares = list(where)
    if other & bit:
        squares[where.index(to)] = CAPTURED
        other ^= bit
        if action.capture is not True or type(action) is not Action:
            action = _table_action(card, frm, bit, True)
    elif action.capture is not False or type(action) is not Action:
        action = _table_action(card, frm, bit, False)
    squares[pawn] = to
    own ^= BIT[frm] | bit
    if me:
        return _new_state(State, (
            tuple(squares), (red_hand, _after(black_hand, card, black_deck)), (red_deck, black_deck[1:]),
            (red_pile, black_pile + (action,)), 0, ply + 1, (other, own),
        ))
    return _new_state(State, (
        tuple(squares), (_after(red_hand, card, red_deck), black_hand), (red_deck[1:], black_deck),
        (red_pile + (action,), black_pile), 1, ply + 1, (own, other),
    ))


def _table_action(card: int, frm: int, bit: int, capture: bool) -> Action:
    """The move table's action of ``card`` from ``frm`` to the square ``bit``, its
    capture mark as the position says (the text need not have had it right)."""
    for _, landing, quiet, capturing in entries(card, frm):
        if landing == bit:
            return capturing if capture else quiet
    raise AssertionError(f"{CARD_PAWNS[card]}: no table entry from {frm}")


def _play(s: State, action: Action) -> State:
    """The state after ``action``, which must be legal and rightly marked (R8, R12, R14)."""
    where, hands, decks, piles, me, ply, occupied = s
    kind = action.kind
    if kind != "burn":
        to = action.to_index
        bit = BIT[to]
        own = occupied[me]
        other = occupied[1 - me]
        squares = list(where)
        if kind == "move":
            frm = action.from_index
            pawn = where.index(frm)
            own ^= BIT[frm]
        else:
            pawn = CARD_PAWNS[action.card_index][0]
        if other & bit:
            squares[where.index(to)] = CAPTURED
            other ^= bit
        squares[pawn] = to
        own |= bit
        where = tuple(squares)
        occupied = (other, own) if me else (own, other)
    card = action.card_index
    hand = hands[me]
    deck = decks[me]
    if len(hand) == 3 and deck:  # _after's usual case, inlined: a call fewer a move
        first, second, third = hand
        hand = (second, third, deck[0]) if card == first else (
            (first, third, deck[0]) if card == second else (first, second, deck[0]))
    else:
        hand = _after(hand, card, deck)
    if me:
        return _new_state(State, (
            where, (hands[0], hand), (decks[0], deck[1:]),
            (piles[0], piles[1] + (action,)), 0, ply + 1, occupied,
        ))
    return _new_state(State, (
        where, (hand, hands[1]), (deck[1:], decks[1]),
        (piles[0] + (action,), piles[1]), 1, ply + 1, occupied,
    ))


def _after(hand: Cards, card: int, deck: Cards) -> Cards:
    """``hand`` once ``card`` is played and the deck's top card drawn (R8).

    Spelled out for the usual three cards and a deck left: a tuple display
    builds five times faster than joining slices.
    """
    if len(hand) == 3 and deck:
        first, second, third = hand
        if card == first:
            return (second, third, deck[0])
        if card == second:
            return (first, third, deck[0])
        return (first, second, deck[0])
    i = hand.index(card)
    return hand[:i] + hand[i + 1:] + deck[:1]


# A State from its seven fields in order, without the NamedTuple's generated
# __new__ (a Python function taking keywords): one call fewer on every move.
_new_state: Final = tuple.__new__


__all__ = [
    "Outcome", "add_moves", "apply", "card_moves", "check", "legal_actions",
    "listed", "outcome", "score",
]
