"""The Eliminator: a straight flush puts an own piece on any opponent piece (RH22, N8)."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rhombus import apply, from_json, step
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
    # 2 own pieces x 4 opponent pieces, protected or not: 8 Eliminators.  c2xe5
    # is also reached by the flush "JC c2-d3, QC+10C d3xe5", which leaves the
    # same position; N8: N1 never merges an Eliminator with a flush, so both
    # texts are listed.
    assert len(elims) == 8 and "elim 10C JC QC c2xe5" in t
    assert "JC c2-d3, QC+10C d3xe5" in t
    assert apply(s, "elim 10C JC QC c2xe5") == apply(s, "JC c2-d3, QC+10C d3xe5")
    assert any(x.count(",") == 2 for x in t)  # the same cards as a flush


# A Formation position of a random game (seed "n8-1", ply 245): NE holds 6S 7S 8S
# with no table card, so the flush's 8 takes no card (RH19) and the flush leaves
# exactly what the Eliminator leaves (N8's own example).
N8_FORMATION = {
    "variant": "formation",
    "board": {"d1": "NE", "a2": "SW", "b2": "SW", "c4": "SW", "e4": "NE", "a5": "NE"},
    "seats": {"SW": {"table": [], "hand": ["10D", "9S", "9S", "JD"], "reserve": 3, "eliminated": 0},
              "NE": {"table": [], "hand": ["QC", "6S", "8S", "7S"], "reserve": 3, "eliminated": 0}},
    "pile": ["8C", "9C", "6D", "6C", "AD", "6S", "QS", "QH", "KH", "AS", "8H", "JH", "10C", "10H", "7H", "KD",
             "AS", "QC", "9C", "8D", "AC", "7S", "6H", "9H", "6D", "7H", "6C", "JS", "8H", "6H", "JS", "10S",
             "10H", "JC", "9H"],
    "discard": ["QD", "QD", "7D", "7D", "KC", "9D", "KH", "AD", "10D", "QS", "AC", "KC", "10S", "7C", "7C", "JC",
                "KS", "JD", "8S", "KS", "KD", "8C", "10C", "9D", "8D", "AH", "JH", "AH", "QH"],
    "reshuffles": 4, "dealer": "NE", "to_move": "NE", "quiet": 5, "ply": 245, "seed_hex": b"n8-1".hex(),
}


def test_n8_an_eliminator_and_a_flush_leaving_the_same_position_are_both_listed_formation() -> None:
    s = from_json(N8_FORMATION)
    t = texts(s)
    flush, elim = "6S+7S d1xa2, 8S mystery", "elim 6S 7S 8S d1xa2"
    assert flush in t and elim in t
    assert apply(s, flush) == apply(s, elim)
    # Golden counts: 3 own pieces x 3 opponent pieces (RH45 d), each listed; 104 actions before N8
    # was read this way, 5 of the Eliminators then hidden behind flushes.
    assert len([x for x in t if x.startswith("elim")]) == 9
    assert len(t) == len(set(t)) == 109
    assert step(s, elim)[1].text == elim and step(s, flush)[1].text == flush  # each recorded as itself


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
