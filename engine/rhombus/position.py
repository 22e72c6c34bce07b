"""Rhombus's position format (rules page, "Position format"), to and from JSON-ready dicts.

The full position names every card, the pile order included: it is for the
server and tools only; players get :func:`engine.rhombus.view`.  Besides the
page's keys it writes ``ply``, ``commitment`` and ``seed_hex`` (the secret
seed's bytes, which every later reshuffle needs, RH30); reading accepts a
position without them (N13), and such a position reshuffles from an empty
seed.
"""
from __future__ import annotations

from typing import Any, TypedDict

from ..errors import PositionError
from ..shuffle import commitment
from .cards import CARD_INDEX, CARD_NAMES, FOUR_PLAYERS, SQUARE_INDEX, SQUARE_NAMES, TWO_PLAYERS
from .state import CLASSIC, EMPTY, FORMATION, VARIANTS, State, pieces_per_seat

SeatJSON = TypedDict(
    "SeatJSON", {"table": list[str], "hand": list[str], "reserve": int, "eliminated": int, "out": bool},
)


class PositionJSON(TypedDict, total=False):
    variant: str
    board: dict[str, str]
    seats: dict[str, SeatJSON]
    pile: list[str]
    discard: list[str]
    reshuffles: int
    dealer: str
    to_move: str
    quiet: int
    ply: int
    commitment: str
    seed_hex: str


def _names(cards: tuple[int, ...]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def to_json(s: State) -> PositionJSON:
    """The full position, hidden cards and pile order included (server and tools only)."""
    out: PositionJSON = {
        "variant": s.variant,
        "board": s.pieces(),
        "seats": {
            name: {
                "table": _names(s.tables[i]), "hand": _names(s.hands[i]),
                "reserve": s.reserve[i], "eliminated": s.eliminated[i], "out": s.out[i],
            }
            for i, name in enumerate(s.seats)
        },
        "pile": _names(s.pile),
        "discard": _names(s.discard),
        "reshuffles": s.reshuffles,
        "dealer": s.seats[s.dealer],
        "to_move": s.turn,
        "quiet": s.quiet,
        "ply": s.ply,
    }
    if s.seed is not None:
        out["commitment"] = commitment(s.seed)
        out["seed_hex"] = s.seed.hex()
    return out


def from_json(data: Any) -> State:
    """Read a position; :class:`PositionError` says exactly what is wrong.

    The classic game or Formation (RH41-RH44: 4 cards a player, the double
    pack, no eliminated pieces and no out players) for 2 players (``SW NE``) or 4 (``SW SE NE NW``, read
    in that turn order whatever the keys' order, RH31).  The cards must make
    up the whole pack once each (the page's "Cards" condition); pieces may be
    left out of a hand-made position.  With four players ``out`` must agree
    with the board (RH34): a seat is out exactly when it has no own piece on
    the board, and an out seat has no reserve.
    """
    if not isinstance(data, dict):
        raise PositionError.coded("rhombus-position-not-object")
    variant = data.get("variant", CLASSIC)
    if variant not in VARIANTS:
        raise PositionError.coded("position-variant", variants=", ".join(VARIANTS), value=repr(variant))
    formation = variant == FORMATION
    copies, held = (2, 4) if formation else (1, 3)  # RH42: two packs, four places
    seats_data = data.get("seats")
    if not isinstance(seats_data, dict) or set(seats_data) not in (set(TWO_PLAYERS), set(FOUR_PLAYERS)):
        raise PositionError.coded("position-seats")
    seats = TWO_PLAYERS if len(seats_data) == 2 else FOUR_PLAYERS
    seen: dict[str, list[str]] = {}
    tables, hands, reserve, eliminated, out = [], [], [], [], []
    for name in seats:
        seat = seats_data[name]
        if not isinstance(seat, dict):
            raise PositionError.coded("position-seat", seat=name)
        tables.append(_cards(seat.get("table"), f"seats.{name}.table", seen, copies))
        hands.append(_cards(seat.get("hand"), f"seats.{name}.hand", seen, copies))
        reserve.append(_count(seat.get("reserve", 0), f"seats.{name}.reserve"))
        eliminated.append(_count(seat.get("eliminated", 0), f"seats.{name}.eliminated"))
        out.append(seat.get("out", False) is True)
        if len(tables[-1]) + len(hands[-1]) != held:
            raise PositionError.coded("position-held", seat=name, count=held, rule="RH42" if formation else "RH7")
        if formation and (out[-1] or eliminated[-1]):
            raise PositionError.coded("position-formation-out", seat=name)
    pile = _cards(data.get("pile", []), "pile", seen, copies)
    discard = _cards(data.get("discard", []), "discard", seen, copies)
    missing = [c for c in CARD_NAMES for _ in range(copies - len(seen.get(c, [])))]
    if missing:
        raise PositionError.coded("position-double-pack" if formation else "position-pack", missing=" ".join(missing))
    board = _board(data.get("board"), seats)
    most = pieces_per_seat(len(seats))
    for i, name in enumerate(seats):
        pieces = sum(1 for who in board if who == i) + reserve[i] + eliminated[i]
        if pieces > most:
            raise PositionError.coded("position-pieces", seat=name, pieces=pieces, most=most)
    if len(seats) == 4 and not formation:
        _check_out(seats, board, reserve, out)
    to_move = _seat(data.get("to_move"), "to_move", seats)
    dealer = _seat(data.get("dealer", seats[(to_move - 1) % len(seats)]), "dealer", seats)
    seed = _seed(data.get("seed_hex"))
    return State(
        variant=variant, seats=seats, board=board, tables=tuple(tables), hands=tuple(hands),
        reserve=tuple(reserve), eliminated=tuple(eliminated), out=tuple(out), pile=pile, discard=discard,
        reshuffles=_count(data.get("reshuffles", 0), "reshuffles"), dealer=dealer, to_move=to_move,
        quiet=_count(data.get("quiet", 0), "quiet"), ply=_count(data.get("ply", 0), "ply"), seed=seed,
    )


def _check_out(seats: tuple[str, ...], board: tuple[int, ...], reserve: list[int], out: list[bool]) -> None:
    """RH34: out exactly when no own piece is on the board; an out player's reserve is lost."""
    for i, name in enumerate(seats):
        on_board = i in board
        if on_board == out[i]:
            raise PositionError.coded("position-out-false" if on_board else "position-out-true", seat=name)
        if out[i] and reserve[i]:
            raise PositionError.coded("position-out-reserve", seat=name)


def _cards(value: Any, context: str, seen: dict[str, list[str]], copies: int) -> tuple[int, ...]:
    """The cards of one list; each card exists ``copies`` times in all (once, or twice in Formation, RH42)."""
    if not isinstance(value, list):
        raise PositionError.coded("position-card-list", context=context)
    cards = []
    for name in value:
        if not isinstance(name, str) or name not in CARD_INDEX:
            raise PositionError.coded("rhombus-position-card", context=context, card=repr(name))
        places = seen.setdefault(name, [])
        if len(places) >= copies:
            raise PositionError.coded("position-card-twice", context=context, card=name, other=" and ".join(places))
        places.append(context)
        cards.append(CARD_INDEX[name])
    return tuple(cards)


def _count(value: Any, context: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PositionError.coded("position-count", context=context, value=repr(value))
    return value


def _seat(value: Any, context: str, seats: tuple[str, ...]) -> int:
    if value not in seats:
        raise PositionError.coded("position-seat-name", context=context, seats=", ".join(seats), value=repr(value))
    return seats.index(value)


def _board(value: Any, seats: tuple[str, ...]) -> tuple[int, ...]:
    if not isinstance(value, dict):
        raise PositionError.coded("rhombus-position-board")
    board = [EMPTY] * 25
    for square, seat in value.items():
        if square not in SQUARE_INDEX:
            raise PositionError.coded("rhombus-position-square", square=repr(square))
        board[SQUARE_INDEX[square]] = _seat(seat, f"board.{square}", seats)
    return tuple(board)


def _seed(value: Any) -> bytes | None:
    if value is None:
        return None
    try:
        return bytes.fromhex(value)
    except (TypeError, ValueError):
        raise PositionError.coded("position-seed-hex", value=repr(value)) from None


def board_json(board: tuple[int, ...], seats: tuple[str, ...]) -> dict[str, str]:
    return {SQUARE_NAMES[sq]: seats[who] for sq, who in enumerate(board) if who != EMPTY}


__all__ = ["PositionJSON", "SeatJSON", "board_json", "from_json", "to_json"]
