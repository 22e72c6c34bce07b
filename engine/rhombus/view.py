"""What one seat, or a spectator, may see of a Rhombus game (RH29): the only way out of a state.

A :class:`View` is built from the public parts of a state plus the hand of
its own seat; it has no field for another seat's hand, the pile order or
the seed, so it cannot leak them.  The seed appears only once the game is
over, when RH30 reveals it.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import NotRequired, TypedDict

from ..shuffle import commitment
from .actions import Action, card_order
from .builder import sets_and_firsts
from .cards import CARD_INDEX, CARD_NAMES
from .position import board_json
from .rules import Outcome, legal_actions, outcome
from .state import State


class SeatViewJSON(TypedDict, total=False):
    table: list[str]
    hand: list[str]
    hand_count: int
    reserve: int
    eliminated: int
    out: bool


class OutcomeJSON(TypedDict):
    winner: str | None
    seats: list[str]
    reason: str


class FirstJSON(TypedDict):
    uses: list[str]
    actions: list[str]


class ViewJSON(TypedDict):
    seat: str | None
    variant: str
    ply: int
    board: dict[str, str]
    seats: dict[str, SeatViewJSON]
    pile_count: int
    discard: list[str]
    reshuffles: int
    dealer: str
    to_move: str
    quiet: int
    commitment: str | None
    seed_hex: str | None
    legal: NotRequired[list[str]]
    sets: list[list[str]]
    firsts: NotRequired[dict[str, FirstJSON]]
    outcome: OutcomeJSON | None


@dataclass(frozen=True, slots=True)
class View:
    """A seat's view: the public position plus that seat's own hand (None for a spectator).

    ``legal`` lists the seat's legal actions when it is that seat's turn:
    the board and the mover's own cards decide them, so the view may know
    them.  ``sets`` are the card sets that have a legal action then
    (:func:`engine.rhombus.builder.card_sets`); a view made without the
    listing (``view(s, seat, listing=False)``, the live site's: a Formation
    flush can have tens of thousands of actions) has ``sets`` and no ``legal``,
    and ``firsts``, the answer :func:`engine.rhombus.builder.options` gives for each
    one-card set before any use (a card's uses are a few dozen at most), so that
    a one-card action needs no question,
    and the player builds an action use by use (:func:`engine.rhombus.builder.options`).
    """

    seat: str | None
    variant: str
    ply: int
    seats: tuple[str, ...]
    board: tuple[int, ...]
    tables: tuple[tuple[str, ...], ...]
    hand: tuple[str, ...] | None
    hand_counts: tuple[int, ...]
    reserve: tuple[int, ...]
    eliminated: tuple[int, ...]
    out: tuple[bool, ...]
    pile_count: int
    discard: tuple[str, ...]
    reshuffles: int
    dealer: str
    to_move: str
    quiet: int
    commitment: str | None
    seed_hex: str | None
    legal: tuple[Action, ...]
    outcome: Outcome | None
    sets: tuple[tuple[str, ...], ...] = ()
    firsts: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = ()
    listed: bool = True

    def __reduce__(self) -> tuple[type[View], tuple[object, ...]]:
        # Pickled as its constructor's arguments: a mypyc build cannot restore a frozen
        # class field by field (scripts/mypyc_engine.py).
        return type(self), tuple(getattr(self, f.name) for f in fields(self) if f.init)

    def to_json(self) -> ViewJSON:
        """The page's position format with other hands and the pile as counts."""
        seats: dict[str, SeatViewJSON] = {}
        for i, name in enumerate(self.seats):
            seat: SeatViewJSON = {"table": list(self.tables[i])}
            if name == self.seat and self.hand is not None:
                seat["hand"] = list(self.hand)
            else:
                seat["hand_count"] = self.hand_counts[i]
            seat["reserve"], seat["eliminated"] = self.reserve[i], self.eliminated[i]
            seat["out"] = self.out[i]
            seats[name] = seat
        o = self.outcome
        out: ViewJSON = {
            "seat": self.seat, "variant": self.variant, "ply": self.ply,
            "board": board_json(self.board, self.seats), "seats": seats,
            "pile_count": self.pile_count, "discard": list(self.discard), "reshuffles": self.reshuffles,
            "dealer": self.dealer, "to_move": self.to_move, "quiet": self.quiet,
            "commitment": self.commitment, "seed_hex": self.seed_hex,
            "legal": [str(a) for a in self.legal],
            "sets": [list(cards) for cards in self.sets],
            "outcome": None if o is None else {"winner": o.winner, "seats": list(o.seats), "reason": o.reason},
        }
        if not self.listed:
            del out["legal"]
            out["firsts"] = {card: {"uses": list(uses), "actions": list(actions)} for card, uses, actions in self.firsts}
        return out


def names(cards: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(CARD_NAMES[c] for c in cards)


def view(s: State, seat: str | None, listing: bool = True) -> View:
    """What ``seat`` (one of the game's seats, or None for a spectator) may see (RH29).

    In the team game a seat sees only its own hand, not its partner's (RH36).
    Without ``listing`` the mover's view has the card sets with a legal action
    (``sets``) but not the actions themselves (``legal`` empty, left out of the JSON).

    >>> from engine.rhombus import new_game
    >>> v = view(new_game("demo"), "NE")
    >>> v.hand_counts, v.pile_count, v.legal
    ((1, 1), 30, ())
    >>> v = view(new_game("demo", players=4), "NE")
    >>> v.hand, v.to_json()["seats"]["SW"]["hand_count"]
    (('10C',), 1)
    """
    if seat is not None and seat not in s.seats:
        raise ValueError(f"a seat is one of {', '.join(s.seats)} or None, not {seat!r}")
    over = outcome(s)
    me = None if seat is None else s.seats.index(seat)
    moving = me == s.to_move and over is None
    sets, firsts = (_sets(legal_actions(s)), ()) if moving and listing else sets_and_firsts(s) if moving else ((), ())
    return View(
        seat=seat, variant=s.variant, ply=s.ply, seats=s.seats, board=s.board,
        tables=tuple(names(t) for t in s.tables),
        hand=None if me is None else names(s.hands[me]),
        hand_counts=tuple(len(h) for h in s.hands),
        reserve=s.reserve, eliminated=s.eliminated, out=s.out,
        pile_count=len(s.pile), discard=names(s.discard), reshuffles=s.reshuffles,
        dealer=s.seats[s.dealer], to_move=s.turn, quiet=s.quiet,
        commitment=None if s.seed is None else commitment(s.seed),
        seed_hex=s.seed.hex() if s.seed is not None and over is not None else None,
        legal=tuple(legal_actions(s)) if moving and listing else (),
        outcome=over,
        sets=sets,
        firsts=firsts,
        listed=listing,
    )


def _sets(actions: list[Action]) -> tuple[tuple[str, ...], ...]:
    """The card sets of ``actions`` as :func:`engine.rhombus.builder.card_sets` orders them."""
    found = {tuple(card_order(list(a.all_cards()))) for a in actions}
    return tuple(sorted(found, key=lambda names: (len(names), [CARD_INDEX[n] for n in names])))


__all__ = ["OutcomeJSON", "View", "ViewJSON", "view"]
