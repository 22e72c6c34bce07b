"""The end of the game: both Aces lost (R15), or the cards run out and points decide (R16)."""
from __future__ import annotations

from typing import Any

import pytest

import engine
from tests.engine.positions import position, moves


RED_ACES_LOST = {"black": ["AH", "AD"]}


# R15


def test_with_both_aces_captured_only_ace_releases_are_legal() -> None:
    s = position({"f1": "KH", "c1": "KD"}, ["AH", "5H", "KD"], ["2S"], captured=RED_ACES_LOST)
    assert moves(s) == ["AH @e1"]
    assert engine.outcome(s) is None


def test_with_both_aces_captured_and_both_in_hand_both_releases_are_legal() -> None:
    s = position({"f1": "KH"}, ["AH", "AD", "KH"], ["2S"], captured=RED_ACES_LOST)
    assert moves(s) == ["AD @d1", "AH @e1"]


def test_an_ace_release_onto_an_enemy_pawn_captures_it() -> None:
    s = position({"e1": "KS"}, ["AH"], ["2S"], captured=RED_ACES_LOST)
    assert moves(s) == ["AH @xe1"]
    after = engine.apply(s, "AH @xe1")
    assert after.board == {"e1": "AH"} and after.captured("red") == ["KS"]


def test_with_both_aces_captured_a_move_is_refused_under_r15() -> None:
    s = position({"f1": "KH"}, ["AH", "KH"], ["2S"], captured=RED_ACES_LOST)
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(s, "KH f1-f2")
    assert caught.value.rule == "R15"


def test_with_both_aces_captured_a_burn_is_refused() -> None:
    s = position({"f1": "KH", "d4": "QH"}, ["AH", "7H"], ["2S"], captured=RED_ACES_LOST)
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(s, "7H burn")
    assert caught.value.rule == "R15"


def test_an_ace_whose_home_holds_an_own_pawn_ends_the_game_by_aces() -> None:
    s = position({"e1": "KH"}, ["AH", "5D", "KD"], ["2S"], captured=RED_ACES_LOST)
    assert moves(s) == []
    assert engine.outcome(s) == engine.Outcome("black", "aces", {"red": 0, "black": 80})


def test_one_blocked_ace_and_one_free_ace_leave_only_the_free_release() -> None:
    s = position({"e1": "KH"}, ["AH", "AD"], ["2S"], captured=RED_ACES_LOST)
    assert moves(s) == ["AD @d1"]


def test_a_blocked_ace_release_under_r15_is_refused_for_its_blocked_home() -> None:
    # The action *is* an Ace release, so "only releasing an Ace is legal" (R15) does not
    # explain the refusal; its home holding Red's own pawn does (R12).
    s = position({"e1": "KH"}, ["AH", "AD"], ["2S"], captured=RED_ACES_LOST)
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(s, "AH @e1")
    assert caught.value.rule == "R12"
    assert "e1 holds your own pawn KH" in str(caught.value)


def test_no_ace_in_hand_ends_the_game_by_aces() -> None:
    s = position({"e1": "KH"}, ["3H", "9D", "QH"], ["2S"], captured=RED_ACES_LOST)
    result = engine.outcome(s)
    assert result is not None and (result.winner, result.reason) == ("black", "aces")
    assert moves(s) == []


def test_an_empty_hand_with_both_aces_captured_ends_by_aces() -> None:
    s = position({}, [], ["2S"], captured=RED_ACES_LOST)
    result = engine.outcome(s)
    assert result is not None and (result.winner, result.reason) == ("black", "aces")


def test_black_losing_both_aces_makes_red_the_winner_by_aces() -> None:
    s = position({"d8": "KS"}, ["2H"], ["AC", "7S"], to_move="black",
                 captured={"red": ["AS", "AC"]})
    assert engine.outcome(s) == engine.Outcome("red", "aces", {"red": 80, "black": 0})


def test_r15_is_only_checked_for_the_player_to_move() -> None:
    s = position({"e8": "AS"}, [], ["3S"], to_move="black", captured=RED_ACES_LOST)
    assert engine.outcome(s) is None
    assert moves(s) == ["3S e8-b5", "3S e8-b8", "3S e8-e5", "3S e8-h5", "3S e8-h8"]


def test_one_captured_ace_does_not_restrict_play() -> None:
    s = position({"f1": "KH"}, ["AH", "KH"], ["2S"], captured={"black": ["AH"]})
    assert "AH @e1" in moves(s) and "KH f1-f2" in moves(s)


def test_a_game_ended_by_aces_refuses_every_action() -> None:
    s = position({"e1": "KH"}, ["AH", "KH"], ["2S"], captured=RED_ACES_LOST)
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(s, "KH e1-e2")
    assert caught.value.rule == "R15"


def test_r15_is_checked_before_r16_at_the_final_position() -> None:
    # Cards are out and Red has more points, but Red's turn begins with both Aces captured.
    s = position({}, [], [], captured={"black": ["AH", "AD"], "red": ["AS", "AC", "KS"]}, ply=52)
    assert engine.outcome(s) == engine.Outcome("black", "aces", {"red": 100, "black": 80})


# R16


@pytest.mark.parametrize("pawn, points", [("AS", 40), ("KS", 20), ("QC", 10), ("JC", 5)])
def test_a_captured_pawn_scores_its_points(pawn: str, points: int) -> None:
    s = position({}, [], [], captured={"red": [pawn]}, ply=52)
    assert engine.outcome(s) == engine.Outcome("red", "points", {"red": points, "black": 0})


def test_the_score_adds_up_every_captured_pawn() -> None:
    s = position({}, [], [], captured={"red": ["AS", "KC", "QS", "JC"], "black": ["KH"]}, ply=52)
    assert engine.outcome(s) == engine.Outcome("red", "points", {"red": 75, "black": 20})


def test_the_game_goes_on_while_the_player_to_move_holds_a_card() -> None:
    s = position({"e8": "AS"}, [], ["3S"], to_move="black", captured={"red": ["KS"]}, ply=51)
    assert engine.outcome(s) is None


def last_turn(captured: dict[str, list[str]]) -> engine.State:
    """Black's 26th turn: Red's cards are gone, Black holds one card, both decks are empty."""
    return position({"h8": "JS", "h7": "JD", "a1": "AH"}, [], ["JS"], to_move="black",
                    captured=captured, ply=51)


def test_equal_points_after_the_last_turn_are_a_draw() -> None:
    s = last_turn({"red": ["QS"], "black": ["JH"]})
    end = engine.apply(s, "JS h8xh7")
    assert engine.outcome(end) == engine.Outcome(None, "points", {"red": 10, "black": 10})
    assert engine.legal_actions(end) == []


def test_more_points_after_the_last_turn_win() -> None:
    s = last_turn({"red": ["QS"], "black": ["KH"]})
    end = engine.apply(s, "JS h8xh7")
    assert engine.outcome(end) == engine.Outcome("black", "points", {"red": 10, "black": 25})


def test_fewer_points_after_the_last_turn_lose() -> None:
    s = last_turn({"red": ["QS", "AC"], "black": ["KH"]})
    end = engine.apply(s, "JS h8-g8")
    assert engine.outcome(end) == engine.Outcome("red", "points", {"red": 50, "black": 20})


def test_no_captures_at_all_is_a_draw_on_points() -> None:
    s = last_turn({})
    end = engine.apply(s, "JS h8-g8")
    assert engine.outcome(end) == engine.Outcome(None, "points", {"red": 0, "black": 0})


def test_a_finished_game_refuses_every_action() -> None:
    end = engine.apply(last_turn({}), "JS h8-g8")
    with pytest.raises(engine.IllegalAction) as caught:
        engine.apply(end, "AH a1-a2")
    assert caught.value.rule == "R16"
