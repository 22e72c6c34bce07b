"""Whose turn it is, one action then a draw, and what a capture does (R7, R8, R14)."""
from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from tests.engine.positions import position, refusal


def random_playout(seed: int) -> tuple[engine.State, int]:
    rng = random.Random(seed)
    s, turns = engine.new_game(seed), 0
    while engine.outcome(s) is None:
        s = engine.apply(s, rng.choice(engine.legal_actions(s)))
        turns += 1
    return s, turns


def test_it_refuses_a_black_card_on_reds_turn_as_not_in_reds_hand() -> None:
    s = position({"e1": "AH", "e8": "AS"}, ["3H"], ["4S"])
    error = refusal(s, "4S e8-e4")
    assert error.rule == "R7"
    assert str(error) == "4S e8-e4: 4S, a Black card, is not in Red's hand (R7)"


def test_it_refuses_a_red_card_on_blacks_turn_as_not_in_blacks_hand() -> None:
    s = position({"e1": "AH", "e8": "AS"}, ["3H"], ["4S"], to_move="black")
    assert str(refusal(s, "3H e1-e4")) == "3H e1-e4: 3H, a Red card, is not in Black's hand (R7)"


def test_the_opponents_card_typed_on_your_own_turn_is_not_in_your_hand() -> None:
    # Issue 10: Red typed one of Black's cards (in Black's hand) and was told "it is Red's turn".
    s = position({"e1": "AH", "e8": "AS"}, ["3H"], ["9C"])
    error = refusal(s, "9C burn")
    assert (error.rule, str(error)) == ("R7", "9C burn: 9C, a Black card, is not in Red's hand (R7)")
    assert "turn" not in str(error)


def test_it_refuses_a_card_that_is_not_in_hand() -> None:
    s = position({"e1": "AH"}, ["3H"], ["4S"], decks={"red": ["5H"], "black": []})
    error = refusal(s, "5H e1-e6")
    assert error.rule == "R7"
    assert str(error) == "5H e1-e6: 5H is not in Red's hand (R7)"


def test_it_refuses_a_card_already_played() -> None:
    s = position({"e1": "AH", "e8": "AS"}, ["3H", "2H"], ["4S"])
    s = engine.apply(engine.apply(s, "3H e1-e4"), "4S e8-e4")
    assert refusal(s, "3H e1-e4").rule == "R7"


def test_one_action_passes_the_turn_and_counts_a_ply() -> None:
    s = position({"e1": "AH", "e8": "AS"}, ["3H"], ["4S"])
    after = engine.apply(s, "3H e1-e4")
    assert (after.turn, after.ply) == ("black", 1)
    again = engine.apply(after, "4S e8xe4")
    assert (again.turn, again.ply) == ("red", 2)


def test_a_capture_puts_the_pawn_in_the_capturers_area() -> None:
    s = position({"e1": "AH", "e4": "KS"}, ["3H"], ["4S"])
    after = engine.apply(s, "3H e1xe4")
    assert after.captured("red") == ["KS"]
    assert after.captured("black") == []
    assert "KS" not in after.board.values()


def test_a_black_capture_puts_the_red_pawn_in_blacks_area() -> None:
    s = position({"e1": "AH", "e8": "AS"}, ["3H"], ["7S"], to_move="black")
    after = engine.apply(s, "7S e8xe1")
    assert after.captured("black") == ["AH"]
    assert after.board == {"e1": "AS"}


def test_passing_over_never_captures() -> None:
    # A leaper jumps over two enemy pawns; both stay on the board.
    s = position({"d4": "AH", "d5": "AS", "e5": "KS"}, ["8H"], ["2S"])
    after = engine.apply(s, "8H d4-e6")
    assert after.captured("red") == []
    assert after.board["d5"] == "AS" and after.board["e5"] == "KS"


def test_a_blocked_slide_does_not_capture_the_blocker() -> None:
    s = position({"d4": "AH", "d5": "AS"}, ["3H"], ["2S"])
    refusal(s, "3H d4-d7")
    assert s.board["d5"] == "AS" and s.captured("red") == []


def test_a_player_draws_the_top_card_after_acting() -> None:
    s = position({"e1": "AH"}, ["3H", "9D", "QD"], ["2S"], decks={"red": ["5H", "6H"], "black": []})
    after = engine.apply(s, "3H e1-e4")
    assert sorted(after.hand("red")) == sorted(["9D", "QD", "5H"])
    assert after.deck("red") == ["6H"]


def test_only_the_player_who_acted_draws() -> None:
    s = position({"e1": "AH"}, ["3H"], ["2S"], decks={"red": ["5H"], "black": ["6S"]})
    after = engine.apply(s, "3H e1-e4")
    assert after.hand("black") == ["2S"] and after.deck("black") == ["6S"]


def test_no_card_is_drawn_from_an_empty_deck() -> None:
    s = position({"e1": "AH"}, ["3H", "9D", "QD"], ["2S"])
    after = engine.apply(s, "3H e1-e4")
    assert sorted(after.hand("red")) == ["9D", "QD"]
    assert after.deck("red") == []


def test_the_played_card_is_discarded_face_up() -> None:
    s = position({"e1": "AH"}, ["3H"], ["2S"])
    assert engine.to_json(engine.apply(s, "3H e1-e4"))["discards"] == {"red": ["3H e1-e4"], "black": []}


def test_a_game_without_an_aces_ending_lasts_exactly_52_turns() -> None:
    ended_on_points = 0
    for seed in range(6):
        s, turns = random_playout(seed)
        result = engine.outcome(s)
        assert result is not None
        if result.reason == "points":
            ended_on_points += 1
            assert turns == 52 and s.ply == 52
    assert ended_on_points >= 1


def test_black_plays_the_last_of_52_turns() -> None:
    s, _ = random_playout(0)
    result = engine.outcome(s)
    assert result is not None and result.reason == "points"
    discards = engine.to_json(s)["discards"]
    assert len(discards["red"]) == 26 and len(discards["black"]) == 26
    assert s.turn == "red"
    assert s.hand("red") == [] and s.hand("black") == []
    assert s.deck("red") == [] and s.deck("black") == []

