"""A card without a move may be burned; a card with one may not; nobody passes (R13)."""
from __future__ import annotations

from typing import Any

import pytest

import engine
from tests.engine.positions import position, moves, refusal


def test_it_refuses_to_burn_a_card_that_has_a_move() -> None:
    s = position({"e1": "AH", "g8": "QS"}, [], ["QS"], to_move="black")
    error = refusal(s, "QS burn")
    assert error.rule == "R13"
    assert str(error) == "QS burn: QS has a move, only a card without moves can be burned (R13)"


def test_it_refuses_to_burn_a_number_card_with_a_single_move() -> None:
    s = position({"a1": "AH"}, ["7H"])
    assert moves(s) == ["7H a1-a8", "7H a1-h1", "7H a1-h8"]
    assert refusal(s, "7H burn").rule == "R13"


def test_a_card_whose_slides_all_leave_the_board_can_be_burned() -> None:
    # From d4 a 7 leaves the board in every direction.
    s = position({"d4": "AH"}, ["7H"])
    assert moves(s) == ["7H burn"]


def test_a_card_whose_slides_are_all_blocked_can_be_burned() -> None:
    s = position({"a1": "AH", "a2": "KS", "b2": "QD", "b1": "JC"}, ["2H"])
    assert moves(s) == ["2H burn"]


def test_a_card_of_a_suit_with_no_pawn_on_the_board_can_be_burned() -> None:
    s = position({"e1": "AH"}, ["9D"])
    assert moves(s) == ["9D burn"]


def test_a_card_may_be_burned_while_another_card_has_moves() -> None:
    s = position({"d4": "AH", "d5": "KH"}, ["7H", "KH"])
    assert "7H burn" in moves(s)
    assert len([m for m in moves(s) if m.startswith("KH ")]) == 7


def test_burning_discards_the_card_and_moves_no_pawn() -> None:
    s = position({"d4": "AH", "d5": "KH"}, ["7H", "KH"], decks={"red": ["2D"]})
    after = engine.apply(s, "7H burn")
    assert after.board == s.board
    assert engine.to_json(after)["discards"]["red"] == ["7H burn"]
    assert after.hand("red") == ["KH", "2D"]
    assert after.turn == "black"


def test_a_player_without_any_move_may_only_burn() -> None:
    # 2D, 9D: no diamond pawn on the board; QD: its pawn is out of play.
    s = position({"d4": "AH"}, ["2D", "9D", "QD"])
    assert moves(s) == ["2D burn", "9D burn", "QD burn"]


def test_a_player_without_any_move_still_has_an_action_for_every_card() -> None:
    # 7S and 2C are stuck; QS's home g8 holds Black's own AC, so it cannot be released.
    s = position(
        {"d4": "AS", "g8": "AC", "g7": "JD", "f8": "QD", "f7": "KD", "e1": "AH"},
        [], ["7S", "QS", "2C"], to_move="black", captured={"red": ["QS"]},
    )
    assert moves(s) == ["2C burn", "7S burn", "QS burn"]
    assert engine.outcome(s) is None


def test_a_player_whose_cards_all_have_moves_cannot_burn_any() -> None:
    s = position({"e1": "AH", "f1": "KH"}, ["3H", "KH", "AH"])
    assert not [m for m in moves(s) if m.endswith("burn")]
    for card in ("3H", "KH", "AH"):
        assert refusal(s, f"{card} burn").rule == "R13"


def test_there_is_no_pass_action() -> None:
    s = position({"d4": "AH"}, ["7H"])
    with pytest.raises(ValueError):
        engine.apply(s, "pass")
    assert moves(s) == ["7H burn"]
