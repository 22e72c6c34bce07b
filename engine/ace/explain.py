"""Why an action is illegal, in words a player understands, with the rule.

Only called once an action has been refused, so it favours clarity over
speed and re-derives what it needs from the position.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import IllegalAction
from .actions import Action
from .cards import (
    CAPTURED, HOME, PAWN_NAMES, RANKS, SEATS, SQUARE_NAMES, SUITS, pawn_of_card, side_of_card, side_of_pawn,
)
from .geometry import BIT

if TYPE_CHECKING:
    from .rules import Outcome
    from .state import State


def explain(s: State, action: Action, over: Outcome | None) -> IllegalAction:
    """The error for an action that :func:`engine.ace.rules.check` refused."""
    me = s.to_move
    card = action.card_index
    if over is not None:
        rule = "R15" if over.reason == "aces" else "R16"
        return IllegalAction.of("game-over", rule, action=str(action))
    if card not in s.hands[me]:
        return _not_in_hand(action, me)
    from .rules import aces_captured
    ace_release = action.kind == "release" and card % 13 == 0
    if aces_captured(s.where, me) and not ace_release:
        return IllegalAction.of("aces-captured", "R15", action=str(action), seat_word=SEATS[me])
    if action.kind == "burn":
        return IllegalAction.of("burn-with-a-move", "R13", action=str(action), card=action.card)
    if action.kind == "release":
        return _release(s, action)
    return _move(s, action)


def _not_in_hand(action: Action, me: int) -> IllegalAction:
    """R7: the card must come from the mover's hand.

    The engine always plays for the side to move, so the other side's card is
    refused as not in that hand too. Blaming the turn instead misled a player
    who typed the opponent's card on their own turn ("it is Red's turn" to Red).
    """
    owner = side_of_card(action.card_index)
    if owner == me:
        return IllegalAction.of("card-not-in-hand", "R7", action=str(action), card=action.card, seat_word=SEATS[me])
    return IllegalAction.of("other-side-card-not-in-hand", "R7", action=str(action), card=action.card,
                            owner_word=SEATS[owner], seat_word=SEATS[me])


def _pawn_at(s: State, sq: int) -> int | None:
    return s.where.index(sq) if sq in s.where else None


def _release(s: State, action: Action) -> IllegalAction:
    pawn = pawn_of_card(action.card_index)
    assert pawn is not None
    sq = s.where[pawn]
    if sq >= 0:
        return IllegalAction.of("release-pawn-on-board", "R12", action=str(action), pawn_word=PAWN_NAMES[pawn],
                                square=SQUARE_NAMES[sq], card=action.card)
    if sq != CAPTURED:
        return IllegalAction.of("release-pawn-not-in-play", "R12", action=str(action), pawn_word=PAWN_NAMES[pawn])
    holder = _pawn_at(s, HOME[pawn])
    name = PAWN_NAMES[holder] if holder is not None else "?"
    return IllegalAction.of("release-home-taken", "R12", action=str(action), square=SQUARE_NAMES[HOME[pawn]], pawn=name)


def _move(s: State, action: Action) -> IllegalAction:
    card, frm, to = action.card_index, action.from_index, action.to_index
    pawn = _pawn_at(s, frm)
    face = pawn_of_card(card)
    rule = "R12" if face is not None else ("R11" if card % 13 >= 7 else "R10")
    if face is not None and pawn != face:
        return _wrong_face_pawn(action, face, s.where[face])
    if pawn is None:
        return IllegalAction.of("no-pawn-on-square", rule, action=str(action), square=str(action.from_square))
    if side_of_pawn(pawn) != s.to_move:
        return IllegalAction.of("opponent-pawn", "R9", action=str(action), square=str(action.from_square),
                                pawn=PAWN_NAMES[pawn])
    if pawn // 4 != card // 13:
        return IllegalAction.of("wrong-suit-pawn", "R9", action=str(action), card=action.card,
                                suit_word=SUITS[card // 13], square=str(action.from_square), pawn=PAWN_NAMES[pawn])
    shape = _shape_error(s, action, rule)
    if shape is not None:
        return shape
    if s.occupied[s.to_move] & BIT[to]:
        return IllegalAction.of("own-pawn-on-target", rule, action=str(action), square=str(action.to_square),
                                pawn=PAWN_NAMES[s.where.index(to)])
    return IllegalAction.of("not-legal", rule, action=str(action))


def _wrong_face_pawn(action: Action, face: int, sq: int) -> IllegalAction:
    word, card = PAWN_NAMES[face], action.card
    if sq == CAPTURED:
        return IllegalAction.of("face-pawn-captured", "R12", action=str(action), pawn_word=word, card=card,
                                square=SQUARE_NAMES[HOME[face]])
    if sq >= 0:
        return IllegalAction.of("face-pawn-elsewhere", "R12", action=str(action), card=card, pawn_word=word,
                                square=SQUARE_NAMES[sq])
    return IllegalAction.of("face-pawn-not-in-play", "R12", action=str(action), card=card, pawn_word=word)


def _shape_error(s: State, action: Action, rule: str) -> IllegalAction | None:
    """The complaint about the move's geometry, if any (R10-R12)."""
    frm, to = action.from_index, action.to_index
    df, dr = to % 8 - frm % 8, to // 8 - frm // 8
    steps = max(abs(df), abs(dr))
    straight = steps > 0 and (df == 0 or dr == 0 or abs(df) == abs(dr))
    rank = action.card_index % 13
    if rank in (0, 10, 11, 12):
        if steps != 1:
            return IllegalAction.of("face-one-square", rule, action=str(action))
        return None
    if rank >= 7:
        a, b = {7: (1, 2), 8: (1, 3), 9: (2, 3)}[rank]
        if sorted((abs(df), abs(dr))) != [a, b]:
            if a == 1:
                return IllegalAction.of("jump-one-square", rule, action=str(action), rank=RANKS[rank], other=b)
            return IllegalAction.of("jump-squares", rule, action=str(action), rank=RANKS[rank], squares=a, other=b)
        return None
    n = rank + 1
    if not straight or steps != n:
        return IllegalAction.of("straight-line", rule, action=str(action), rank=RANKS[rank], squares=n)
    occupied = s.occupied[0] | s.occupied[1]
    for i in range(1, n):
        sq = frm + (to - frm) // n * i
        if occupied & BIT[sq]:
            return IllegalAction.of("path-blocked", rule, action=str(action), square=SQUARE_NAMES[sq])
    return None


__all__ = ["explain"]
