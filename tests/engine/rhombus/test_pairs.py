"""Pairs: two cards of one suit, consecutive, or a Q/K/A/J with a 7/10 as a kill (RH20, N3)."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rhombus import apply

from .positions import position, texts

EXAMPLE_2 = """
. . N . N
. . . . .
. . . . N
. . S . .
S S . . .
"""

EXAMPLE_3 = """
. . . . N
. . N . .
. . . . .
S . . . .
. S . . .
"""


def test_rh20b_q_and_10_pair_only_as_a_kill() -> None:
    s = position(EXAMPLE_2, sw=(["QH", "10H"], ["9C"]))
    with pytest.raises(IllegalAction, match=r"Q and 10 of hearts pair only as a kill \(RH20\)"):
        apply(s, "QH c2-c3, 10H 0")
    pairs = [t for t in texts(s) if "," in t or "+" in t]
    assert pairs == ["QH+10H c2xc5", "QH+10H c2xe3"]


def test_worked_example_3_6_and_10_are_no_pair_rh20() -> None:
    s = position(EXAMPLE_3, sw=(["6H", "10H"], ["QS"]))
    with pytest.raises(IllegalAction, match=r"not a pair.*a 6 kills in a pair only with its 7 \(RH20\)"):
        apply(s, "6H+10H b1xc4")
    assert not any("+" in t for t in texts(s))


def test_worked_example_3_6_and_7_kill_as_a_pair_rh20a() -> None:
    s = position(EXAMPLE_3, sw=(["6H", "7H"], ["QS"]))
    assert "6H+7H b1xc4" in texts(s)
    after = apply(s, "6H+7H b1xc4")
    assert after.pieces()["c4"] == "SW" and after.eliminated == (0, 1)


def test_rh20a_consecutive_kill_pairs_need_not_kill_n3() -> None:
    # J+10 that kills nothing: the 10 is its own zero use, written first (N3).
    s = position("""
. . . . N
. . . . .
. . . . .
. . . . .
S . . . .
""", sw=(["JH", "10H"], ["QS"]))
    t = texts(s)
    assert "10H 0, JH a1-c3" in t
    assert "JH a1-c3, 10H 0" not in t
    assert apply(s, "JH a1-c3, 10H 0") == apply(s, "10H 0, JH a1-c3")


def test_rh20a_j_and_10_may_kill() -> None:
    s = position("""
. . . . N
. . . . .
. . N . .
. . . . .
S . . . .
""", sw=(["JH", "10H"], ["QS"]))
    assert "JH+10H a1xc3" in texts(s)


def test_rh20_two_cards_of_different_suits_are_no_pair() -> None:
    s = position(EXAMPLE_2, sw=(["QH", "KS"], ["9C"]))
    with pytest.raises(IllegalAction, match=r"one suit \(RH20\)"):
        apply(s, "KS a1-a3, QH c2-c5")


def test_rh20a_7_8_and_8_9_pairs_move_nothing() -> None:
    s = position(EXAMPLE_2, sw=(["7S", "8S"], ["9S"]), reserve=(0, 0))
    t = texts(s)
    assert "7S 0, 8S mystery" in t and "8S mystery, 9S 0" in t
    # 7 and 9 are not consecutive: only inside the flush (all three).
    assert "7S 0, 9S 0" not in t
    assert "7S 0, 8S mystery, 9S 0" in t


def test_rh20b_k_and_7_must_kill_and_the_pair_lists_only_kills() -> None:
    s = position(EXAMPLE_2, sw=(["KH", "7H"], ["9C"]))
    kill_pairs = [t for t in texts(s) if "7H" in t and t != "7H 0"]
    assert kill_pairs == []  # no N is exactly 2 steps from an S
    with pytest.raises(IllegalAction, match=r"K and 7 of hearts pair only as a kill \(RH20\)"):
        apply(s, "KH c2-c4, 7H 0")


def test_rh20a_k_a_pair_moves_two_pieces_or_one() -> None:
    s = position(EXAMPLE_2, sw=(["KH", "AH"], ["9C"]))
    t = texts(s)
    assert "AH a1-a2, KH c2-c4" in t
    assert apply(s, "KH c2-c4, AH c4-d4").pieces()["d4"] == "SW"
