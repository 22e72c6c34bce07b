"""The position format of the rules page, to and from JSON-ready dicts.

Serialisation lives here, beside the rules and apart from them.  Reading is
strict and says exactly what is wrong, because positions come from outside
(tools, tests, the command line).
"""
from __future__ import annotations

from typing import Any, TypedDict

from ..errors import EngineError, PositionError
from .actions import Action
from .cards import (
    CAPTURED, CARD_INDEX, OUT_OF_PLAY, PAWN_INDEX, SEATS,
    SQUARE_INDEX, side_of_card, side_of_pawn,
)
from .state import State

PositionJSON = TypedDict(
    "PositionJSON",
    {
        "board": dict[str, str],
        "captured": dict[str, list[str]],
        "hands": dict[str, list[str]],
        "decks": dict[str, list[str]],
        "to_move": str,
        "ply": int,
        "discards": dict[str, list[str]],
    },
)


def to_json(s: State) -> PositionJSON:
    """The full position, hidden cards included: for the server and tools only.

    Adds the keys ``ply`` and ``discards`` (each side's played actions, in
    order) to the rules page's format.
    """
    return {
        "board": s.board,
        "captured": {seat: s.captured(seat) for seat in SEATS},
        "hands": {seat: s.hand(seat) for seat in SEATS},
        "decks": {seat: s.deck(seat) for seat in SEATS},
        "to_move": s.turn,
        "ply": s.ply,
        "discards": {seat: [str(a) for a in pile] for seat, pile in zip(SEATS, s.discards)},
    }


def from_json(data: Any) -> State:
    """Read a position in the rules page's format; :class:`PositionError` if it is wrong.

    ``ply`` and ``discards`` may be missing; a pawn that appears nowhere is
    out of play.
    """
    if not isinstance(data, dict):
        raise PositionError.coded("position-not-object")
    where = _read_pawns(data)
    seen: dict[str, str] = {}
    hands = _pair(data, "hands", lambda seat, v: _read_cards(v, seat, f"hands.{seat}", seen))
    decks = _pair(data, "decks", lambda seat, v: _read_cards(v, seat, f"decks.{seat}", seen))
    discards = _pair(data, "discards", lambda seat, v: _read_discards(v, seat, seen), optional=True)
    to_move = data.get("to_move")
    if to_move not in SEATS:
        raise PositionError.coded("position-to-move", value=repr(to_move))
    ply = data.get("ply", len(discards[0]) + len(discards[1]))
    if isinstance(ply, bool) or not isinstance(ply, int) or ply < 0:
        raise PositionError.coded("position-ply", value=repr(ply))
    return State.build(tuple(where), hands, decks, discards, SEATS.index(to_move), ply)


def _pair(data: dict[str, Any], key: str, read: Any, optional: bool = False) -> Any:
    value = data.get(key)
    if value is None and optional:
        return ((), ())
    if not isinstance(value, dict):
        raise PositionError.coded("position-pair", key=key)
    return tuple(read(seat, value.get(seat, [] if optional else None)) for seat in SEATS)


def _read_pawns(data: dict[str, Any]) -> list[int]:
    where = [OUT_OF_PLAY] * 16
    board = data.get("board")
    if not isinstance(board, dict):
        raise PositionError.coded("position-board")
    for square, pawn in board.items():
        if not isinstance(square, str) or square not in SQUARE_INDEX:
            raise PositionError.coded("position-square", square=repr(square))
        _place(where, pawn, SQUARE_INDEX[square], f"board.{square}")
    captured = data.get("captured", {})
    if not isinstance(captured, dict):
        raise PositionError.coded("position-pair", key="captured")
    for side, seat in enumerate(SEATS):
        pawns = captured.get(seat, [])
        if not isinstance(pawns, list):
            raise PositionError.coded("position-captured-list", seat=seat)
        for pawn in pawns:
            _place(where, pawn, CAPTURED, f"captured.{seat}")
            if side_of_pawn(PAWN_INDEX[pawn]) == side:
                raise PositionError.coded("position-own-captured", seat=seat, pawn=str(pawn), seat_word=SEATS[side])
    return where


def _place(where: list[int], pawn: Any, place: int, context: str) -> None:
    if not isinstance(pawn, str) or pawn not in PAWN_INDEX:
        raise PositionError.coded("position-pawn", context=context, pawn=repr(pawn))
    if where[PAWN_INDEX[pawn]] != OUT_OF_PLAY:
        raise PositionError.coded("position-pawn-twice", context=context, pawn=pawn)
    where[PAWN_INDEX[pawn]] = place


def _read_cards(value: Any, seat: str, context: str, seen: dict[str, str]) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise PositionError.coded("position-card-list", context=context)
    cards = []
    for name in value:
        if not isinstance(name, str) or name not in CARD_INDEX:
            raise PositionError.coded("position-card", context=context, card=repr(name))
        _claim(name, seat, context, seen)
        cards.append(CARD_INDEX[name])
    return tuple(cards)


def _read_discards(value: Any, seat: str, seen: dict[str, str]) -> tuple[Action, ...]:
    if not isinstance(value, list):
        raise PositionError.coded("position-discards-list", seat=seat)
    pile = []
    for text in value:
        try:
            action = Action.from_json(text)
        except EngineError as e:
            raise PositionError.coded("position-discard", e, seat=seat, error=str(e)) from None
        _claim(action.card, seat, f"discards.{seat}", seen)
        pile.append(action)
    return tuple(pile)


def _claim(card: str, seat: str, context: str, seen: dict[str, str]) -> None:
    side = SEATS.index(seat)
    if side_of_card(CARD_INDEX[card]) != side:
        raise PositionError.coded("position-not-seats-card", context=context, card=card, seat_word=SEATS[side])
    if card in seen:
        raise PositionError.coded("position-card-twice", context=context, card=card, other=seen[card])
    seen[card] = context


__all__ = ["PositionJSON", "from_json", "to_json"]
