"""Why an action is illegal, in words a player understands, with the rule.

Only called once an action has been refused, so it favours clarity over
speed and re-derives what it needs from the position.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import IllegalAction
from .actions import Action
from .cards import (
    CAPTURED, HOME, PAWN_NAMES, RANKS, SEAT_NAMES, SQUARE_NAMES, SUIT_WORDS,
    pawn_of_card, pawn_word, side_of_card, side_of_pawn,
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
        return IllegalAction(f"{action}: the game is over", rule)
    if card not in s.hands[me]:
        return _not_in_hand(action, me)
    from .rules import aces_captured
    ace_release = action.kind == "release" and card % 13 == 0
    if aces_captured(s.where, me) and not ace_release:
        return IllegalAction(
            f"{action}: both of {SEAT_NAMES[me]}'s Aces are captured, "
            "so the only legal action is releasing an Ace", "R15")
    if action.kind == "burn":
        return IllegalAction(
            f"{action}: {action.card} has a move, only a card without moves can be burned", "R13")
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
    whose = "" if owner == me else f", a {SEAT_NAMES[owner]} card,"
    return IllegalAction(f"{action}: {action.card}{whose} is not in {SEAT_NAMES[me]}'s hand", "R7")


def _pawn_at(s: State, sq: int) -> int | None:
    return s.where.index(sq) if sq in s.where else None


def _release(s: State, action: Action) -> IllegalAction:
    pawn = pawn_of_card(action.card_index)
    assert pawn is not None
    sq = s.where[pawn]
    if sq >= 0:
        return IllegalAction(
            f"{action}: the {pawn_word(pawn)} pawn is on {SQUARE_NAMES[sq]}, not captured; "
            f"{action.card} can move it one square instead", "R12")
    if sq != CAPTURED:
        return IllegalAction(f"{action}: the {pawn_word(pawn)} pawn is not in play", "R12")
    holder = _pawn_at(s, HOME[pawn])
    name = PAWN_NAMES[holder] if holder is not None else "?"
    return IllegalAction(
        f"{action}: the home square {SQUARE_NAMES[HOME[pawn]]} holds your own pawn {name}", "R12")


def _move(s: State, action: Action) -> IllegalAction:
    card, frm, to = action.card_index, action.from_index, action.to_index
    pawn = _pawn_at(s, frm)
    face = pawn_of_card(card)
    rule = "R12" if face is not None else ("R11" if card % 13 >= 7 else "R10")
    if face is not None and pawn != face:
        return _wrong_face_pawn(action, face, s.where[face])
    if pawn is None:
        return IllegalAction(f"{action}: there is no pawn on {action.from_square}", rule)
    if side_of_pawn(pawn) != s.to_move:
        return IllegalAction(
            f"{action}: {action.from_square} holds {PAWN_NAMES[pawn]}, an opponent pawn; "
            "a card moves only its own side's pawns", "R9")
    if pawn // 4 != card // 13:
        return IllegalAction(
            f"{action}: {action.card} moves only {SUIT_WORDS[card // 13]} pawns, "
            f"and {action.from_square} holds {PAWN_NAMES[pawn]}", "R9")
    shape = _shape_error(s, action, rule)
    if shape is not None:
        return shape
    if s.occupied[s.to_move] & BIT[to]:
        return IllegalAction(
            f"{action}: {action.to_square} holds your own pawn {PAWN_NAMES[s.where.index(to)]}", rule)
    return IllegalAction(f"{action} is not a legal action", rule)


def _wrong_face_pawn(action: Action, face: int, sq: int) -> IllegalAction:
    word = pawn_word(face)
    if sq == CAPTURED:
        return IllegalAction(
            f"{action}: the {word} pawn is captured; {action.card} can only release it "
            f"(write {action.card} @{SQUARE_NAMES[HOME[face]]})", "R12")
    where = f", which is on {SQUARE_NAMES[sq]}" if sq >= 0 else ", which is not in play"
    return IllegalAction(f"{action}: {action.card} moves only the {word} pawn{where}", "R12")


def _shape_error(s: State, action: Action, rule: str) -> IllegalAction | None:
    """The complaint about the move's geometry, if any (R10-R12)."""
    frm, to = action.from_index, action.to_index
    df, dr = to % 8 - frm % 8, to // 8 - frm // 8
    steps = max(abs(df), abs(dr))
    straight = steps > 0 and (df == 0 or dr == 0 or abs(df) == abs(dr))
    rank = action.card_index % 13
    if rank in (0, 10, 11, 12):
        if steps != 1:
            return IllegalAction(f"{action}: a face card moves its pawn exactly one square", rule)
        return None
    if rank >= 7:
        a, b = {7: (1, 2), 8: (1, 3), 9: (2, 3)}[rank]
        if sorted((abs(df), abs(dr))) != [a, b]:
            return IllegalAction(
                f"{action}: {RANKS[rank]} jumps {a} square{'s' * (a > 1)} one way and {b} the other", rule)
        return None
    n = rank + 1
    if not straight or steps != n:
        return IllegalAction(
            f"{action}: {RANKS[rank]} moves a pawn exactly {n} squares in a straight line", rule)
    occupied = s.occupied[0] | s.occupied[1]
    for i in range(1, n):
        sq = frm + (to - frm) // n * i
        if occupied & BIT[sq]:
            return IllegalAction(f"{action}: the path is blocked at {SQUARE_NAMES[sq]}", rule)
    return None


__all__ = ["explain"]
