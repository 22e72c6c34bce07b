"""The Eliminator: a straight flush puts an own piece on any opponent piece (RH22, N8)."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rhombus import apply
from engine.rhombus.cards import SQUARE_INDEX
from engine.rhombus.moves import protected

from .positions import position, texts

EXAMPLE_5 = """
. . . . N
. N . . .
. . N . .
. . S N .
S . . . .
"""


def test_worked_example_5_the_eliminator_breaks_a_blockade_rh22() -> None:
    s = position(EXAMPLE_5, sw=(["10C", "JC"], ["QC"]))
    assert "elim 10C JC QC c2xc3" in texts(s)
    after = apply(s, "elim 10C JC QC c2xc3")
    assert after.pieces()["c3"] == "SW" and "c2" not in after.pieces()
    assert after.eliminated == (0, 1)
    assert not protected(after.board, SQUARE_INDEX["b4"]) and not protected(after.board, SQUARE_INDEX["d2"])


def test_n8_a_straight_flush_is_listed_as_eliminator_and_as_flush() -> None:
    s = position(EXAMPLE_5, sw=(["10C", "JC"], ["QC"]))
    t = texts(s)
    elims = [x for x in t if x.startswith("elim")]
    # 2 own pieces x 4 opponent pieces, protected or not, is 8 outcomes, but
    # c2xe5 is also reached by the flush "JC c2-d3, QC+10C d3xe5": by N1 the
    # two are one action (same cards, board and counts), listed by the
    # smaller text.
    assert len(elims) == 7 and "elim 10C JC QC c2xe5" not in t
    assert "JC c2-d3, QC+10C d3xe5" in t
    assert apply(s, "elim 10C JC QC c2xe5") == apply(s, "JC c2-d3, QC+10C d3xe5")
    assert any(x.count(",") == 2 for x in t)  # the same cards as a flush


def test_rh22_the_eliminator_needs_a_straight_flush() -> None:
    s = position(EXAMPLE_5, sw=(["10C", "JC"], ["KC"]))
    assert not any(x.startswith("elim") for x in texts(s))
    with pytest.raises(IllegalAction, match=r"\(RH22\)"):
        apply(s, "elim 10C JC KC c2xc3")


def test_rh22_no_wrap_around_from_a_to_6() -> None:
    s = position(EXAMPLE_5, sw=(["AC", "6C"], ["7C"]))
    assert not any(x.startswith("elim") for x in texts(s))


def test_rh22_it_lifts_an_own_piece_onto_an_opponent_piece() -> None:
    s = position(EXAMPLE_5, sw=(["10C", "JC"], ["QC"]))
    with pytest.raises(IllegalAction, match=r"\(RH22\)"):
        apply(s, "elim 10C JC QC b4xc3")
    with pytest.raises(IllegalAction, match=r"\(RH22\)"):
        apply(s, "elim 10C JC QC c2xd3")


def test_rh19_an_8_inside_an_eliminator_has_no_mystery_effect() -> None:
    s = position(EXAMPLE_5, sw=(["6S", "7S"], ["8S"]))
    after = apply(s, "elim 6S 7S 8S a1xe5")
    assert len(after.table("SW")) == 2 and len(after.hand("SW")) == 1
    flush = apply(s, "6S a1-a5, 7S 0, 8S mystery")  # the same cards used: one table place becomes a hand place
    assert len(flush.table("SW")) == 1 and len(flush.hand("SW")) == 2
