"""Face cards J, Q, K, A step their own pawn one square, or release it when captured (R12)."""
from __future__ import annotations

from typing import Any

import pytest

import engine
from tests.engine.positions import position, moves, refusal


def test_a_king_steps_one_square_in_all_eight_directions() -> None:
    s = position({"d4": "KH"}, ["KH"])
    assert moves(s) == [
        "KH d4-c3", "KH d4-c4", "KH d4-c5", "KH d4-d3",
        "KH d4-d5", "KH d4-e3", "KH d4-e4", "KH d4-e5",
    ]


@pytest.mark.parametrize("face", ["A", "K", "Q", "J"])
def test_every_face_card_steps_its_pawn(face: str) -> None:
    s = position({"d4": face + "D"}, [face + "D"])
    assert len(moves(s)) == 8


def test_a_face_card_in_the_corner_has_three_steps() -> None:
    s = position({"h8": "JS"}, [], ["JS"], to_move="black")
    assert moves(s) == ["JS h8-g7", "JS h8-g8", "JS h8-h7"]


def test_a_face_card_cannot_step_two_squares() -> None:
    error = refusal(position({"d4": "KH"}, ["KH"]), "KH d4-d6")
    assert str(error) == "KH d4-d6: a face card moves its pawn exactly one square (R12)"


def test_a_face_card_moves_only_its_own_pawn() -> None:
    s = position({"e1": "AH", "f1": "KH"}, ["KH"])
    assert {a.from_square for a in engine.legal_actions(s)} == {"f1"}
    error = refusal(s, "KH e1-e2")
    assert str(error) == "KH e1-e2: KH moves only the King of Hearts pawn, which is on f1 (R12)"


def test_a_face_card_cannot_move_another_pawn_of_its_suit_when_its_own_is_gone() -> None:
    s = position({"e1": "AH"}, ["QH"])
    assert moves(s) == ["QH burn"]
    assert refusal(s, "QH e1-e2").rule == "R12"


def test_a_step_onto_its_own_pawn_is_refused() -> None:
    s = position({"e1": "AH", "f1": "KH"}, ["KH"])
    assert "KH f1-e1" not in moves(s)
    assert str(refusal(s, "KH f1-e1")) == "KH f1-e1: e1 holds your own pawn AH (R12)"


def test_a_step_onto_an_enemy_pawn_captures_it() -> None:
    s = position({"f1": "KH", "f2": "JC"}, ["KH"])
    assert "KH f1xf2" in moves(s)
    after = engine.apply(s, "KH f1xf2")
    assert after.board == {"f2": "KH"}
    assert after.captured("red") == ["JC"]


def test_a_captured_pawn_is_released_to_its_home_square() -> None:
    s = position({"e1": "AH"}, ["KH"], captured={"black": ["KH"]})
    assert moves(s) == ["KH @f1"]
    after = engine.apply(s, "KH @f1")
    assert after.board == {"e1": "AH", "f1": "KH"}
    assert after.captured("black") == []


def test_a_black_pawn_is_released_to_its_home_on_rank_8() -> None:
    s = position({}, [], ["QC"], to_move="black", captured={"red": ["QC"]})
    after = engine.apply(s, "QC @b8")
    assert after.board == {"b8": "QC"}
    assert after.captured("red") == []


def test_a_release_onto_a_home_held_by_its_own_pawn_is_refused() -> None:
    s = position({"f1": "AH"}, ["KH"], captured={"black": ["KH"]})
    error = refusal(s, "KH @f1")
    assert error.rule == "R12"
    assert str(error) == "KH @f1: the home square f1 holds your own pawn AH (R12)"


def test_a_card_whose_release_is_blocked_may_be_burned() -> None:
    s = position({"f1": "AH"}, ["KH"], captured={"black": ["KH"]})
    assert moves(s) == ["KH burn"]


def test_a_release_onto_a_home_held_by_an_enemy_captures_it() -> None:
    s = position({"f1": "AS"}, ["KH"], captured={"black": ["KH"]})
    assert moves(s) == ["KH @xf1"]
    after = engine.apply(s, "KH @xf1")
    assert after.board == {"f1": "KH"}
    assert after.captured("red") == ["AS"]
    assert after.captured("black") == []


def test_a_capturing_release_written_without_x_is_recorded_with_x() -> None:
    s = position({"f1": "AS"}, ["KH"], captured={"black": ["KH"]})
    assert engine.to_json(engine.apply(s, "KH @f1"))["discards"]["red"] == ["KH @xf1"]


def test_a_face_card_whose_pawn_is_captured_cannot_step() -> None:
    s = position({"e1": "AH"}, ["KH"], captured={"black": ["KH"]})
    error = refusal(s, "KH f1-f2")
    assert error.rule == "R12"
    assert str(error) == "KH f1-f2: the King of Hearts pawn is captured; KH can only release it (write KH @f1) (R12)"


def test_a_face_card_whose_pawn_is_on_the_board_cannot_release() -> None:
    s = position({"d4": "KH"}, ["KH"])
    error = refusal(s, "KH @f1")
    assert error.rule == "R12"
    assert "KH @f1: the King of Hearts pawn is on d4, not captured" in str(error)


def test_a_face_card_whose_pawn_is_home_cannot_release() -> None:
    s = position({"f1": "KH"}, ["KH"])
    assert refusal(s, "KH @f1").rule == "R12"
    assert "KH @f1" not in moves(s)
