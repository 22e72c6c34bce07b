"""The end: no piece on the board, no legal action, the quiet rule (RH25-RH27, N12)."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rhombus import apply, legal_actions, outcome

from .positions import position

LAST_PIECE = """
. . . . .
. . . . .
. . . . .
. N . . .
. S . . .
"""


def test_rh25_a_side_with_no_piece_on_the_board_loses_reserve_or_not() -> None:
    s = position(LAST_PIECE, sw=(["AH", "7H"], ["9C"]), reserve=(0, 3))
    assert outcome(s) is None
    after = apply(s, "AH+7H b1xb2")
    o = outcome(after)
    assert o is not None and (o.winner, o.seats, o.reason) == ("SW", ("SW",), "RH25")
    assert legal_actions(after) == []  # N12


def test_n12_no_action_is_accepted_once_the_game_is_over() -> None:
    s = position(LAST_PIECE, sw=(["AH", "7H"], ["9C"]), ne=(["10S", "6D"], ["6H"]))
    after = apply(s, "AH+7H b1xb2")
    with pytest.raises(IllegalAction, match=r"the game is over \(RH25\) \(N12\)"):
        apply(after, "10S 0")


STUCK = """
. . . . N
. . . . .
. . . . .
N . . . .
S N . . .
"""


def test_rh26_the_player_with_no_legal_action_loses() -> None:
    # SW's only piece is walled in by N pieces; 6C, QD and AH cannot move and
    # form no pair, flush or three of a kind; there is no zero card.
    s = position(STUCK, sw=(["6C", "QD"], ["AH"]))
    assert legal_actions(s) == []
    o = outcome(s)
    assert o is not None and (o.winner, o.reason) == ("NE", "RH26")


def test_rh26_a_zero_card_always_saves_the_player() -> None:
    s = position(STUCK, sw=(["6C", "QD"], ["10H"]))
    assert [str(a) for a in legal_actions(s)] == ["10H 0"]
    assert outcome(s) is None


def test_rh27_100_quiet_actions_are_a_draw() -> None:
    s = position(LAST_PIECE, sw=(["AH", "7H"], ["9C"]), quiet=99)
    after = apply(s, "7H 0")
    o = outcome(after)
    assert after.quiet == 100 and o is not None and (o.winner, o.reason) == (None, "RH27")
    assert legal_actions(after) == []


def test_rh27_an_elimination_resets_the_quiet_count() -> None:
    s = position("""
. . . . N
. . . . .
. . . . .
. N . . .
. S . . .
""", sw=(["AH", "7H"], ["9C"]), quiet=99)
    after = apply(s, "AH+7H b1xb2")
    assert after.quiet == 0 and outcome(after) is None
