"""Kills, blockades, new pieces and Entry-Kills (RH16-RH18)."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rhombus import apply
from engine.rhombus.moves import protected
from engine.rhombus.cards import SQUARE_INDEX

from .positions import position, texts

EXAMPLE_2 = """
. . N . N
. . . . .
. . . . N
. . S . .
S S . . .
"""

EXAMPLE_2_BLOCKADE = """
. . N . N
. . . N .
. . . . N
. . S . .
S S . . .
"""


def test_worked_example_2_a_kill_eliminates_the_piece_rh16() -> None:
    s = position(EXAMPLE_2, sw=(["QH", "7H"], ["9C"]), reserve=(0, 3))
    after = apply(s, "QH+7H c2xc5")
    assert after.pieces()["c5"] == "SW" and "c2" not in after.pieces()
    assert (after.reserve[1], after.eliminated[1]) == (3, 1)
    assert sum(1 for who in after.pieces().values() if who == "NE") == 2
    assert after.quiet == 0


def test_worked_example_2_with_a_blockade_the_kill_is_illegal_rh17() -> None:
    s = position(EXAMPLE_2_BLOCKADE, sw=(["QH", "7H"], ["9C"]))
    assert protected(s.board, SQUARE_INDEX["c5"])
    with pytest.raises(IllegalAction, match=r"protected by a blockade \(RH17\)"):
        apply(s, "QH+7H c2xc5")
    assert not any("xc5" in t for t in texts(s))


def test_rh17_a_bent_chain_is_no_blockade() -> None:
    s = position("""
. . . . N
. . . . .
N . . . .
. N . . .
N . . . .
""", sw=(["QH", "7H"], ["9C"]))
    assert not any(protected(s.board, SQUARE_INDEX[sq]) for sq in ("a1", "b2", "a3"))


def test_rh17_three_in_a_diagonal_row_are_all_protected() -> None:
    s = position("""
. . . . N
. N . . .
. . N . .
. . S N .
S . . . .
""", sw=(["QH", "7H"], ["9C"]))
    assert all(protected(s.board, SQUARE_INDEX[sq]) for sq in ("b4", "c3", "d2"))
    assert not protected(s.board, SQUARE_INDEX["e5"])


def test_rh16_a_kill_must_end_on_an_opponent_piece() -> None:
    s = position(EXAMPLE_2, sw=(["QH", "7H"], ["9C"]))
    with pytest.raises(IllegalAction, match=r"empty.*\(RH16\)"):
        apply(s, "QH+7H c2xc3")


def test_rh16_a_kill_card_alone_is_zero_and_never_kills_at_a_distance() -> None:
    s = position(EXAMPLE_2, sw=(["QH", "7H"], ["9C"]))
    after = apply(s, "7H 0")
    assert after.board == s.board and after.eliminated == s.eliminated and after.quiet == s.quiet + 1


def test_rh18_a_9_brings_in_a_reserve_piece_on_the_start_square() -> None:
    s = position("""
. . . . N
. . . . .
. . . . .
S . . . .
. S . . .
""", sw=(["9D", "7C"], ["QS"]), reserve=(2, 0))
    assert "9D @a1" in texts(s) and "9D 0" in texts(s)
    after = apply(s, "9D @a1")
    assert after.pieces()["a1"] == "SW" and after.reserve[0] == 1


def test_rh18_no_reserve_or_a_friendly_piece_on_the_start_square_leaves_only_zero() -> None:
    s = position("""
. . . . N
. . . . .
. . . . .
. . . . .
S . . . .
""", sw=(["9D", "7C"], ["QS"]), reserve=(0, 0))
    assert [t for t in texts(s) if t.startswith("9D")] == ["9D 0"]
    with pytest.raises(IllegalAction, match=r"no piece in the reserve \(RH18\)"):
        apply(s, "9D @a1")
    s = position("""
. . . . N
. . . . .
. . . . .
. . . . .
S . . . .
""", sw=(["9D", "7C"], ["QS"]), reserve=(1, 0))
    with pytest.raises(IllegalAction, match=r"not empty \(RH18\)"):
        apply(s, "9D @a1")


def test_rh11_a_piece_brought_in_may_move_in_the_same_action() -> None:
    # A 9 and a mover of one suit go together only in a flush (RH21).
    s = position("""
. . . . N
. . . . .
. . . . .
. . . . .
. . . . S
""", sw=(["9D", "QD"], ["6D"]), reserve=(1, 0))
    after = apply(s, "9D @a1, QD a1-a4, 6D e1-c3")
    assert after.pieces()["a4"] == "SW" and after.reserve[0] == 0


ENTRY = """
. . . . N
. . . . .
. . . . .
. S . . .
N . . . .
"""


def test_worked_example_6_entry_kill_with_9_10_rh18() -> None:
    s = position(ENTRY, sw=(["9D", "10D"], ["QS"]), reserve=(1, 0))
    assert "9D+10D @xa1" in texts(s)
    after = apply(s, "9D+10D @xa1")
    assert after.pieces()["a1"] == "SW" and after.eliminated[1] == 1 and after.reserve[0] == 0


def test_worked_example_6_no_entry_kill_with_9_7_outside_a_flush_rh18() -> None:
    s = position(ENTRY, sw=(["9D", "7D"], ["QS"]), reserve=(1, 0))
    assert not any("@x" in t for t in texts(s))
    with pytest.raises(IllegalAction) as e:
        apply(s, "9D+7D @xa1")
    assert e.value.rule == "RH20"


def test_rh17_no_entry_kill_on_a_protected_piece() -> None:
    s = position("""
. . . . N
. . . . .
. . N . .
. N . . .
N . . S .
""", sw=(["9D", "10D"], ["QS"]), reserve=(1, 0))
    with pytest.raises(IllegalAction, match=r"\(RH17\)"):
        apply(s, "9D+10D @xa1")


def test_rh16_a_friendly_piece_is_never_eliminated() -> None:
    s = position(EXAMPLE_2, sw=(["QH", "7H"], ["9C"]))
    with pytest.raises(IllegalAction, match=r"friendly piece \(RH12\)"):
        apply(s, "QH+7H a1xb1")


def test_rh16_the_kill_card_is_written_after_its_partner() -> None:
    s = position(EXAMPLE_2, sw=(["QH", "7H"], ["9C"]))
    with pytest.raises(IllegalAction, match=r"QH\+7H \(RH16\)"):
        apply(s, "7H+QH c2xc5")
    with pytest.raises(IllegalAction, match=r"QH is not a kill card.*\(RH16\)"):
        apply(s, "9C+QH @xa1")
