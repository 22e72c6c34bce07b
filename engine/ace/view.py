"""What one seat, or a spectator, may see (R18): the only way out of a state.

Everything the site sends to a browser and everything a bot is given is a
:class:`View`.  It is built from the public parts of a state plus the hand of
its own seat, so a view cannot carry the other hand or any deck order: there
is no field to put them in.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TypedDict

from .actions import Action
from .cards import CARD_NAMES, SEATS
from .rules import Outcome, listed, outcome
from .state import State, board_of, captured_of


class OutcomeJSON(TypedDict):
    winner: str | None
    reason: str
    score: dict[str, int]


class ViewJSON(TypedDict):
    seat: str | None
    ply: int
    to_move: str
    board: dict[str, str]
    captured: dict[str, list[str]]
    hand: list[str] | None
    hand_counts: dict[str, int]
    deck_counts: dict[str, int]
    discards: dict[str, list[str]]
    legal: list[str]
    outcome: OutcomeJSON | None


@dataclass(frozen=True, slots=True)
class View:
    """A seat's view: the public position plus that seat's own hand.

    ``hand`` is None for a spectator.  ``legal`` lists the seat's legal
    actions when it is that seat's turn (empty otherwise): the board and the
    mover's own hand decide them, so a view can know them honestly.
    """

    seat: str | None
    ply: int
    to_move: str
    where: tuple[int, ...]
    hand: tuple[str, ...] | None
    hand_counts: tuple[int, int]
    deck_counts: tuple[int, int]
    discards: tuple[tuple[Action, ...], tuple[Action, ...]]
    legal: tuple[Action, ...]
    outcome: Outcome | None

    def __reduce__(self) -> tuple[type[View], tuple[object, ...]]:
        # Pickled as its constructor's arguments: a mypyc build cannot restore a frozen
        # class field by field (scripts/mypyc_engine.py).
        return type(self), tuple(getattr(self, f.name) for f in fields(self) if f.init)

    @property
    def board(self) -> dict[str, str]:
        return board_of(self.where)

    def captured(self, seat: str) -> list[str]:
        return captured_of(self.where, seat)

    def to_json(self) -> ViewJSON:
        """The view as JSON for a client (see docs/protocol.md once it exists)."""
        return {
            "seat": self.seat,
            "ply": self.ply,
            "to_move": self.to_move,
            "board": self.board,
            "captured": {seat: self.captured(seat) for seat in SEATS},
            "hand": list(self.hand) if self.hand is not None else None,
            "hand_counts": dict(zip(SEATS, self.hand_counts)),
            "deck_counts": dict(zip(SEATS, self.deck_counts)),
            "discards": {seat: [str(a) for a in pile] for seat, pile in zip(SEATS, self.discards)},
            "legal": [str(a) for a in self.legal],
            "outcome": _outcome_json(self.outcome),
        }


def _outcome_json(o: Outcome | None) -> OutcomeJSON | None:
    if o is None:
        return None
    return {"winner": o.winner, "reason": o.reason, "score": dict(o.score)}


def view(s: State, seat: str | None) -> View:
    """What ``seat`` (``"red"``, ``"black"``, or None for a spectator) may see (R18).

    >>> import engine
    >>> v = engine.view(engine.new_game(42), "black")
    >>> v.hand, v.hand_counts, v.legal
    (('10C', '4S', '8S'), (3, 3), ())
    >>> engine.view(engine.new_game(42), None).hand is None
    True
    """
    if seat not in (None, "red", "black"):
        raise ValueError(f"a seat is 'red', 'black' or None, not {seat!r}")
    over = outcome(s)
    hand: tuple[str, ...] | None = None
    legal: tuple[Action, ...] = ()
    if seat is not None:
        side = SEATS.index(seat)
        hand = tuple(CARD_NAMES[c] for c in s.hands[side])
        if over is None and side == s.to_move:
            legal = listed(s)  # the mover's legal list, made once per state (issue 24)
    return View(
        seat=seat,
        ply=s.ply,
        to_move=SEATS[s.to_move],
        where=s.where,
        hand=hand,
        hand_counts=(len(s.hands[0]), len(s.hands[1])),
        deck_counts=(len(s.decks[0]), len(s.decks[1])),
        discards=s.discards,
        legal=legal,
        outcome=over,
    )


