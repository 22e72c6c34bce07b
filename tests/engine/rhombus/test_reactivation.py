"""Reactivation: three of a kind returns an eliminated piece to the reserve (RH23)."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rhombus import Action, apply

from .positions import position, texts

BOARD = """
. . . . N
. . . . .
. . . . .
. . . . .
S . . . .
"""


def test_rh23_three_of_a_kind_returns_an_eliminated_piece_to_the_reserve() -> None:
    s = position(BOARD, sw=(["AH", "AS"], ["AD"]), eliminated=(2, 0), reserve=(1, 0))
    assert "react AD AH AS" in texts(s)
    after = apply(s, "react AS AH AD")  # any card order in; card order out (N5)
    assert (after.reserve[0], after.eliminated[0]) == (2, 1)
    assert after.board == s.board


def test_rh23_it_is_legal_with_no_eliminated_piece() -> None:
    s = position(BOARD, sw=(["AH", "AS"], ["AD"]))
    after = apply(s, "react AD AH AS")
    assert (after.reserve, after.eliminated) == (s.reserve, s.eliminated)
    # RH24: the three cards go to the discard pile, highest (AS) on top.
    assert [after.discard[i] for i in range(3)] == [35, 34, 33]  # AS AH AD


def test_rh23_reactivation_needs_one_rank() -> None:
    s = position(BOARD, sw=(["AH", "AS"], ["KD"]))
    with pytest.raises(IllegalAction, match=r"\(RH23\)|\(RH7\)"):
        apply(s, "react AH AS KD")


def test_n5_react_text_and_json() -> None:
    a = Action.from_json({"reactivate": ["AH", "AS", "AD"]})
    assert str(a) == "react AD AH AS"
    assert a.to_json() == {"reactivate": ["AD", "AH", "AS"]}
