"""Legal actions, applying an action, and the end of the game (R7-R16).

Generation works on integers and bit masks (see :mod:`engine.ace.geometry`); it is
the inner loop of every playout, so it stays flat.  Explaining *why* an action
is illegal is kept apart, in :mod:`engine.ace.explain`, and only runs on refusal.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from operator import attrgetter

from .actions import Action
from .cards import ACES, CAPTURED, POINTS, SEATS, SIDE_PAWNS
from .explain import explain
from .geometry import BIT
from .moves import CARD_PAWNS, HOME_BIT, IS_FACE, TABLES, burn, entries, release
from .state import State

Cards = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``winner`` is ``"red"``, ``"black"`` or None for a draw."""

    winner: str | None
    reason: str  # "aces" (R15) or "points" (R16)
    score: dict[str, int]


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


def legal_for(hand: Cards, where: tuple[int, ...], own: int, occ: int, side: int) -> list[Action]:
    """Legal actions for ``side`` holding ``hand``, sorted by their text (R7, R13, R15).

    Shared by :func:`legal_actions` and a seat's view: nothing but the board
    and the mover's own hand decides what is legal.
    """
    if aces_captured(where, side):
        actions = ace_releases(hand, where, own, occ)
    else:
        actions = []
        for card in hand:
            if not add_moves(actions, card, where, own, occ):
                actions.append(burn(card))
    actions.sort(key=_TEXT)
    return actions


_TEXT = attrgetter("order")


def legal_actions(s: State) -> list[Action]:
    """Every legal action in ``s``, sorted as their texts sort; [] once the game is over.

    >>> import engine
    >>> [str(a) for a in legal_actions(engine.new_game(42))][:3]
    ['10D a1-c4', '10D a1-d3', '10D b1-d4']
    """
    me = s.to_move
    own = s.occupied[me]
    return legal_for(s.hands[me], s.where, own, own | s.occupied[1 - me], me)


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


def apply(s: State, action: Action | str | dict[str, Any]) -> State:
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
    return _play(s, check(s, action))


def check(s: State, action: Action) -> Action:
    """``action`` as the position spells it, or :class:`IllegalAction`."""
    legal = _find(s, action)
    if legal is None:
        raise explain(s, action, outcome(s))
    return legal


def _find(s: State, action: Action) -> Action | None:
    """The legal action that ``action`` names, looked up without generating the rest."""
    me, card = s.to_move, action.card_index
    if card not in s.hands[me]:
        return None
    where, own = s.where, s.occupied[me]
    occ = own | s.occupied[1 - me]
    if aces_captured(where, me) and not (card % 13 == 0 and action.kind == "release"):
        return None
    if action.kind == "burn":
        return None if card_moves(card, where, own, occ) else burn(card)
    if action.kind == "release":
        pawn = CARD_PAWNS[card][0]
        if where[pawn] != CAPTURED or own & HOME_BIT[pawn]:
            return None
        return release(card, bool(occ & HOME_BIT[pawn]))
    frm = action.from_index
    if not own & BIT[frm] or where.index(frm) not in CARD_PAWNS[card]:
        return None
    for path, bit, quiet, capture in entries(card, frm):
        if bit == BIT[action.to_index]:
            if occ & path or own & bit:
                return None
            return capture if occ & bit else quiet
    return None


def _play(s: State, action: Action) -> State:
    me = s.to_move
    where = s.where
    own, other = s.occupied[me], s.occupied[1 - me]
    if action.kind != "burn":
        to = action.to_index
        squares = list(where)
        if action.kind == "move":
            pawn = where.index(action.from_index)
            own &= ~BIT[action.from_index]
        else:
            pawn = CARD_PAWNS[action.card_index][0]
        if other & BIT[to]:
            squares[where.index(to)] = CAPTURED
            other &= ~BIT[to]
        squares[pawn] = to
        own |= BIT[to]
        where = tuple(squares)
    hand, deck = s.hands[me], s.decks[me]
    i = hand.index(action.card_index)
    hand = hand[:i] + hand[i + 1:] + deck[:1]
    if me == 0:
        return _new_state(State, (
            where, (hand, s.hands[1]), (deck[1:], s.decks[1]),
            (s.discards[0] + (action,), s.discards[1]), 1, s.ply + 1, (own, other),
        ))
    return _new_state(State, (
        where, (s.hands[0], hand), (s.decks[0], deck[1:]),
        (s.discards[0], s.discards[1] + (action,)), 0, s.ply + 1, (other, own),
    ))


# A State from its seven fields in order, without the NamedTuple's generated
# __new__ (a Python function taking keywords): one call fewer on every move.
_new_state = tuple.__new__


__all__ = [
    "Outcome", "add_moves", "apply", "card_moves", "check", "legal_actions", "legal_for",
    "outcome", "score",
]
