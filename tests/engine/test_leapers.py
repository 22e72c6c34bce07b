"""Cards 8, 9 and 10 jump to offsets (1,2), (1,3) and (2,3) in any orientation (R11)."""
from __future__ import annotations

import pytest

import engine
from tests.engine.positions import position, refusal


def targets(s: engine.State, frm: str) -> set[str]:
    return {str(a.to_square) for a in engine.legal_actions(s) if a.from_square == frm}


def test_an_eight_jumps_to_all_eight_one_two_offsets_from_d4() -> None:
    s = position({"d4": "AH"}, ["8H"])
    assert targets(s, "d4") == {"e6", "c6", "e2", "c2", "f5", "b5", "f3", "b3"}


def test_a_nine_jumps_to_all_eight_one_three_offsets_from_d4() -> None:
    s = position({"d4": "AH"}, ["9H"])
    assert targets(s, "d4") == {"e7", "c7", "e1", "c1", "g5", "a5", "g3", "a3"}


def test_a_ten_jumps_to_all_eight_two_three_offsets_from_d4() -> None:
    s = position({"d4": "AH"}, ["10H"])
    assert targets(s, "d4") == {"f7", "b7", "f1", "b1", "g6", "a6", "g2", "a2"}


@pytest.mark.parametrize("card", ["8H", "9H", "10H"])
def test_a_leaper_jumps_over_a_ring_of_pawns(card: str) -> None:
    ring = {"c3": "KH", "c4": "QH", "c5": "JH", "d3": "AD", "d5": "KD",
            "e3": "QD", "e4": "JD", "e5": "AS"}
    s = position({"d4": "AH", **ring}, [card])
    assert len(targets(s, "d4")) == 8


def test_jumping_over_an_enemy_pawn_does_not_capture_it() -> None:
    s = position({"d4": "AH", "d5": "AS", "e5": "KS"}, ["8H"])
    after = engine.apply(s, "8H d4-e6")
    assert after.board == {"e6": "AH", "d5": "AS", "e5": "KS"}
    assert after.captured("red") == []


@pytest.mark.parametrize("card, expected", [
    ("8H", {"b3", "c2"}), ("9H", {"b4", "d2"}), ("10H", {"c4", "d3"}),
])
def test_the_corner_leaves_two_targets(card: str, expected: set[str]) -> None:
    assert targets(position({"a1": "AH"}, [card]), "a1") == expected


def test_an_edge_square_cuts_the_targets_off_the_board() -> None:
    assert targets(position({"b2": "AH"}, ["8H"]), "b2") == {"a4", "c4", "d3", "d1"}


def test_the_far_corner_for_black() -> None:
    s = position({"h8": "JS"}, [], ["9S"], to_move="black")
    assert targets(s, "h8") == {"g5", "e7"}


def test_it_refuses_to_land_on_its_own_pawn() -> None:
    s = position({"d4": "AH", "e6": "KH"}, ["8H"])
    error = refusal(s, "8H d4-e6")
    assert "e6" not in targets(s, "d4") and len(targets(s, "d4")) == 7
    assert str(error) == "8H d4-e6: e6 holds your own pawn KH (R11)"


def test_it_refuses_to_land_on_its_own_pawn_of_the_other_suit() -> None:
    s = position({"d4": "AH", "f7": "QD"}, ["10H"])
    assert refusal(s, "10H d4-f7").rule == "R11"


def test_landing_on_an_enemy_pawn_is_a_capture() -> None:
    s = position({"d4": "AH", "g5": "QC"}, ["9H"])
    assert "9H d4xg5" in [str(a) for a in engine.legal_actions(s)]
    after = engine.apply(s, "9H d4xg5")
    assert after.board == {"g5": "AH"}
    assert after.captured("red") == ["QC"]


def test_a_leaper_capture_written_without_x_is_recorded_with_x() -> None:
    after = engine.apply(position({"b1": "QD", "c3": "KS"}, ["8D"]), "8D b1-c3")
    assert engine.to_json(after)["discards"]["red"] == ["8D b1xc3"]


def test_it_refuses_a_jump_of_the_wrong_shape() -> None:
    error = refusal(position({"d4": "AH"}, ["8H"]), "8H d4-f6")
    assert str(error) == "8H d4-f6: 8 jumps 1 square one way and 2 the other (R11)"


def test_it_refuses_a_nine_jump_with_the_ten_offset() -> None:
    assert refusal(position({"d4": "AH"}, ["9H"]), "9H d4-f7").rule == "R11"


def test_a_ten_does_not_slide_ten_squares() -> None:
    # 10 is a leaper: it never moves in a straight line.
    s = position({"a1": "AH"}, ["10H"])
    assert all(a.from_square == "a1" and a.to_square in {"c4", "d3"} for a in engine.legal_actions(s))


def test_a_leaper_moves_only_pawns_of_its_suit() -> None:
    s = position({"d4": "AH", "e4": "AD"}, ["8D"])
    assert {a.from_square for a in engine.legal_actions(s)} == {"e4"}
    assert refusal(s, "8D d4-e6").rule == "R9"
