"""Flushes: three cards of one suit, all used, kill cards paired freely (RH21, N7)."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rhombus import apply

from .positions import position, texts

EXAMPLE_3 = """
. . . . N
. . N . .
. . . . .
S . . . .
. S . . .
"""


def test_worked_example_3_a_6_kills_with_a_10_inside_a_flush_rh21() -> None:
    s = position(EXAMPLE_3, sw=(["6H", "10H"], ["QH"]))
    assert "6H+10H b1xc4, QH a2-a5" in texts(s)
    after = apply(s, "QH a2-a5, 6H+10H b1xc4")  # any order of the uses
    assert after.pieces() == {"a5": "SW", "c4": "SW", "e5": "NE"}
    assert after.eliminated == (0, 1)


def test_rh21_a_flush_uses_all_three_cards_not_two_that_are_no_pair() -> None:
    s = position(EXAMPLE_3, sw=(["6H", "10H"], ["QH"]))
    with pytest.raises(IllegalAction) as e:
        apply(s, "6H+10H b1xc4")
    assert e.value.rule == "RH20"


def test_rh21_two_of_the_three_may_still_be_played_as_a_pair() -> None:
    s = position(EXAMPLE_3, sw=(["QH", "10H"], ["6H"]))
    assert "QH+10H a2xc4" not in texts(s)  # a2 to c4 is 2+2 = 4 steps
    s = position("""
. . . . N
. . . . .
N . . . .
. . . . .
. S . . .
""", sw=(["QH", "10H"], ["6H"]))
    assert "QH+10H b1xa3" in texts(s)


def test_rh21_unpaired_kill_cards_in_a_flush_are_zero() -> None:
    s = position(EXAMPLE_3, sw=(["6H", "10H"], ["QH"]))
    assert "10H 0, 6H b1-b3, QH a2-a5" in texts(s)
    after = apply(s, "6H b1-b3, QH a2-a5, 10H 0")
    assert after.eliminated == (0, 0) and after.quiet == 1


def test_n7_entry_kill_inside_a_flush_with_a_7_rh18() -> None:
    s = position("""
. . . . N
. . . . .
. . . . .
. . . . .
N S . . .
""", sw=(["9D", "7D"], ["QD"]), reserve=(1, 0))
    t = texts(s)
    assert "9D+7D @xa1, QD b1-b4" in t
    after = apply(s, "QD b1-b4, 9D+7D @xa1")
    assert after.pieces()["a1"] == "SW" and after.eliminated == (0, 1) and after.reserve == (0, 0)


def test_rh21_three_cards_of_different_suits_are_no_flush() -> None:
    s = position(EXAMPLE_3, sw=(["6H", "10H"], ["QS"]))
    with pytest.raises(IllegalAction, match=r"\(RH21\)"):
        apply(s, "6H b1-b3, 10H 0, QS a2-a5")


def test_rh21_each_kill_card_pairs_with_at_most_one_use() -> None:
    s = position("""
. . . . N
. . N . .
. . . . .
S . . . .
. S . . .
""", sw=(["QH", "KH"], ["10H"]))
    assert not any(t.count("10H") > 1 for t in texts(s))
    with pytest.raises(IllegalAction, match=r"\(RH11\)"):
        apply(s, "QH+10H a2xc4, KH+10H b1xb3")
