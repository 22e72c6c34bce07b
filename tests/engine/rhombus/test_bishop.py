"""The J: diagonal, any distance, through blockades at the corner, on its colour (RH14, N9)."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rhombus import apply
from engine.rhombus.cards import SQUARE_INDEX, is_dark

from .positions import position, texts

EXAMPLE_5 = """
. . . . N
. N . . .
. . N . .
. . S N .
S . . . .
"""


def test_worked_example_5_the_j_crosses_a_blockade_at_its_corner_rh14_n9() -> None:
    s = position(EXAMPLE_5, sw=(["JD", "7C"], ["9S"]))
    assert "JD c2-e4" in texts(s)
    assert apply(s, "JD c2-e4").pieces()["e4"] == "SW"


def test_rh14_the_j_goes_as_far_as_the_player_likes() -> None:
    s = position("""
. . . . N
. . . . .
. . . . .
. . . . .
S . . . .
""", sw=(["JD", "7C"], ["9S"]))
    assert [t for t in texts(s) if t.startswith("JD")] == ["JD a1-b2", "JD a1-c3", "JD a1-d4"]


def test_rh14_the_j_never_jumps_a_piece_on_its_diagonal() -> None:
    s = position(EXAMPLE_5, sw=(["JD", "7C"], ["9S"]))
    with pytest.raises(IllegalAction, match=r"\(RH14\)"):
        apply(s, "JD a1-d4")


def test_rh14_the_j_moves_only_diagonally() -> None:
    s = position(EXAMPLE_5, sw=(["JD", "7C"], ["9S"]))
    with pytest.raises(IllegalAction, match=r"diagonal.*\(RH14\)"):
        apply(s, "JD c2-c4")


def test_rh14_a_j_always_stays_on_its_colour() -> None:
    s = position(EXAMPLE_5, sw=(["JD", "7C"], ["9S"]))
    for t in texts(s):
        if t.startswith("JD"):
            frm, to = t.split()[1].split("-")
            assert is_dark(SQUARE_INDEX[frm]) == is_dark(SQUARE_INDEX[to])


def test_rh13_rule_3_applies_to_the_squares_a_j_crosses() -> None:
    # The J goes a1-c3 over b2.  With an N on c2, every 3-step walk from c3 to
    # b1 passes c2 or b2, so the Q may not finish there in the same action.
    s = position("""
. . . . N
. . . . .
. . . . .
. . N . .
S . . . .
""", sw=(["JD", "QD"], ["7S"]))
    with pytest.raises(IllegalAction, match=r"already crossed in this action \(RH13\)"):
        apply(s, "JD a1-c3, QD c3-b1")
    assert "JD a1-c3, QD c3-b1" not in texts(s)
    assert apply(s, "JD a1-c3, QD c3-d5").pieces()["d5"] == "SW"  # c3-c4-c5-d5 is fresh
