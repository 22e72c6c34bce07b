"""Number cards 2-7 slide a pawn of their suit exactly N squares in a straight line (R9, R10)."""
from __future__ import annotations

import pytest

import engine
from tests.engine.positions import position, moves, refusal


def test_a_three_slides_three_squares_in_all_eight_directions() -> None:
    s = position({"d4": "AH"}, ["3H"])
    assert moves(s) == [
        "3H d4-a1", "3H d4-a4", "3H d4-a7", "3H d4-d1",
        "3H d4-d7", "3H d4-g1", "3H d4-g4", "3H d4-g7",
    ]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_a_number_card_slides_exactly_its_number_of_squares(n: int) -> None:
    s = position({"a1": "AH"}, [f"{n}H"])
    file = "abcdefgh"[n]
    assert moves(s) == sorted([f"{n}H a1-a{n + 1}", f"{n}H a1-{file}1", f"{n}H a1-{file}{n + 1}"])


def test_it_refuses_a_slide_one_square_short() -> None:
    error = refusal(position({"d4": "AH"}, ["3H"]), "3H d4-d6")
    assert error.rule == "R10"
    assert str(error) == "3H d4-d6: 3 moves a pawn exactly 3 squares in a straight line (R10)"


def test_it_refuses_a_slide_one_square_too_far() -> None:
    assert refusal(position({"d4": "AH"}, ["3H"]), "3H d4-d8").rule == "R10"


def test_it_refuses_a_bent_path_of_the_right_length() -> None:
    error = refusal(position({"d4": "AH"}, ["3H"]), "3H d4-e6")
    assert error.rule == "R10" and "straight line" in str(error)


def test_it_slides_along_a_diagonal() -> None:
    after = engine.apply(position({"c1": "KD"}, ["5D"]), "5D c1-h6")
    assert after.board == {"h6": "KD"}


def test_it_refuses_a_move_through_its_own_pawn() -> None:
    s = position({"d4": "AH", "d5": "KH"}, ["3H"])
    error = refusal(s, "3H d4-d7")
    assert "3H d4-d7" not in moves(s)
    assert str(error) == "3H d4-d7: the path is blocked at d5 (R10)"


def test_it_refuses_a_move_through_an_enemy_pawn() -> None:
    s = position({"d4": "AH", "d6": "AS"}, ["3H"])
    error = refusal(s, "3H d4-d7")
    assert "3H d4-d7" not in moves(s)
    assert str(error) == "3H d4-d7: the path is blocked at d6 (R10)"


def test_it_refuses_a_diagonal_move_through_a_pawn() -> None:
    s = position({"b2": "AD", "d4": "QC"}, ["5D"])
    assert str(refusal(s, "5D b2-g7")) == "5D b2-g7: the path is blocked at d4 (R10)"


def test_the_message_names_the_first_blocking_square_going_up() -> None:
    s = position({"d2": "AH", "d5": "KS", "d4": "KH"}, ["5H"])
    assert str(refusal(s, "5H d2-d7")) == "5H d2-d7: the path is blocked at d4 (R10)"


def test_the_message_names_the_first_blocking_square_going_down() -> None:
    s = position({"d7": "AH", "d3": "KS", "d5": "QS"}, ["6H"])
    assert str(refusal(s, "6H d7-d1")) == "6H d7-d1: the path is blocked at d5 (R10)"


def test_the_message_names_the_first_blocking_square_going_left() -> None:
    s = position({"h3": "JH", "e3": "JS", "f3": "JC"}, ["4H"])
    assert str(refusal(s, "4H h3-d3")) == "4H h3-d3: the path is blocked at f3 (R10)"


def test_a_pawn_next_to_the_path_does_not_block_it() -> None:
    s = position({"d4": "AH", "e5": "KS", "c6": "QS"}, ["3H"])
    assert "3H d4-d7" in moves(s)


def test_slides_that_would_leave_the_board_are_not_offered() -> None:
    s = position({"g2": "AH"}, ["5H"])
    assert moves(s) == ["5H g2-b2", "5H g2-b7", "5H g2-g7"]


def test_it_refuses_to_land_on_its_own_pawn() -> None:
    s = position({"d4": "AH", "d7": "KH"}, ["3H"])
    error = refusal(s, "3H d4-d7")
    assert "3H d4-d7" not in moves(s)
    assert str(error) == "3H d4-d7: d7 holds your own pawn KH (R10)"


def test_it_refuses_to_land_on_its_own_pawn_of_the_other_suit() -> None:
    s = position({"d4": "AH", "g7": "JD"}, ["3H"])
    assert "3H d4-g7" not in moves(s)
    assert refusal(s, "3H d4-g7").rule == "R10"


def test_landing_on_an_enemy_pawn_is_a_capture() -> None:
    s = position({"d4": "AH", "d7": "AS"}, ["3H"])
    assert "3H d4xd7" in moves(s) and "3H d4-d7" not in moves(s)
    after = engine.apply(s, "3H d4xd7")
    assert after.board == {"d7": "AH"}
    assert after.captured("red") == ["AS"]


def test_a_capture_written_without_x_is_recorded_with_x() -> None:
    after = engine.apply(position({"d4": "AH", "d7": "AS"}, ["3H"]), "3H d4-d7")
    assert engine.to_json(after)["discards"]["red"] == ["3H d4xd7"]
    assert after.captured("red") == ["AS"]


def test_a_heart_card_cannot_move_a_diamond_pawn() -> None:
    s = position({"d1": "AD", "e1": "AH"}, ["5H"])
    error = refusal(s, "5H d1-d6")
    assert error.rule == "R9"
    assert str(error) == "5H d1-d6: 5H moves only heart pawns, and d1 holds AD (R9)"
    assert moves(s) == ["5H e1-e6"]


def test_a_diamond_card_moves_every_diamond_pawn_and_no_other() -> None:
    s = position({"a1": "JD", "d1": "AD", "e1": "AH", "h1": "JH"}, ["2D"])
    assert {a.from_square for a in engine.legal_actions(s)} == {"a1", "d1"}


def test_a_card_cannot_move_an_opponent_pawn_of_its_colour_rank() -> None:
    s = position({"e1": "AH", "e8": "AS"}, ["3H"])
    error = refusal(s, "3H e8-e5")
    assert error.rule == "R9" and "opponent pawn" in str(error)


def test_it_refuses_a_slide_from_an_empty_square() -> None:
    s = position({"e1": "AH"}, ["3H"])
    error = refusal(s, "3H d4-d7")
    assert error.rule == "R10" and "no pawn on d4" in str(error)


def test_black_slides_toward_rank_1() -> None:
    s = position({"e8": "AS"}, [], ["7S"], to_move="black")
    assert moves(s) == ["7S e8-e1"]
