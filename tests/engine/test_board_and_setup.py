"""The board, the pawns, the decks and the start of a game (R1-R3, R5, R6)."""
from __future__ import annotations

import engine

HOMES = {
    "a1": "JD", "b1": "QD", "c1": "KD", "d1": "AD", "e1": "AH", "f1": "KH", "g1": "QH", "h1": "JH",
    "a8": "JC", "b8": "QC", "c8": "KC", "d8": "AC", "e8": "AS", "f8": "KS", "g8": "QS", "h8": "JS",
}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
RED_CARDS = {rank + suit for suit in "HD" for rank in RANKS}
BLACK_CARDS = {rank + suit for suit in "SC" for rank in RANKS}


def test_every_pawn_starts_on_its_home_square() -> None:
    assert engine.new_game(1).board == HOMES


def test_red_starts_on_rank_1_and_black_on_rank_8() -> None:
    board = engine.new_game(1).board
    assert {sq[1] for sq, pawn in board.items() if pawn[1] in "HD"} == {"1"}
    assert {sq[1] for sq, pawn in board.items() if pawn[1] in "SC"} == {"8"}


def test_each_side_has_its_eight_named_pawns() -> None:
    pawns = set(engine.new_game(1).board.values())
    assert pawns == {face + suit for face in "AKQJ" for suit in "HDSC"}


def test_the_board_is_eight_by_eight() -> None:
    # A lone pawn in the corner a1 slides 7 squares to the three other corners only.
    s = engine.from_json({
        "board": {"a1": "AH"}, "hands": {"red": ["7H"], "black": []},
        "decks": {"red": [], "black": []}, "to_move": "red",
    })
    assert [str(a) for a in engine.legal_actions(s)] == ["7H a1-a8", "7H a1-h1", "7H a1-h8"]


def test_no_pawn_starts_captured() -> None:
    s = engine.new_game(1)
    assert s.captured("red") == [] and s.captured("black") == []


def test_each_player_starts_with_three_cards() -> None:
    s = engine.new_game(1)
    assert len(s.hand("red")) == 3 and len(s.hand("black")) == 3


def test_each_deck_starts_with_23_cards() -> None:
    s = engine.new_game(1)
    assert len(s.deck("red")) == 23 and len(s.deck("black")) == 23


def test_red_holds_exactly_the_26_hearts_and_diamonds() -> None:
    s = engine.new_game(5)
    cards = s.hand("red") + s.deck("red")
    assert len(cards) == 26 and set(cards) == RED_CARDS


def test_black_holds_exactly_the_26_spades_and_clubs() -> None:
    s = engine.new_game(5)
    cards = s.hand("black") + s.deck("black")
    assert len(cards) == 26 and set(cards) == BLACK_CARDS


def test_red_deck_has_only_hearts_and_diamonds_for_many_seeds() -> None:
    for seed in range(30):
        s = engine.new_game(seed)
        assert {c[-1] for c in s.hand("red") + s.deck("red")} == {"H", "D"}
        assert {c[-1] for c in s.hand("black") + s.deck("black")} == {"S", "C"}


def test_red_moves_first() -> None:
    s = engine.new_game(3)
    assert s.turn == "red"
    assert all(a.card[-1] in "HD" for a in engine.legal_actions(s))


def test_a_new_game_is_at_ply_zero_with_no_discards() -> None:
    position = engine.to_json(engine.new_game(3))
    assert position["ply"] == 0
    assert position["discards"] == {"red": [], "black": []}


def test_the_same_seed_gives_the_same_game() -> None:
    assert engine.to_json(engine.new_game(1234)) == engine.to_json(engine.new_game(1234))


def test_different_seeds_give_different_decks() -> None:
    a, b = engine.new_game(1), engine.new_game(2)
    assert a.hand("red") + a.deck("red") != b.hand("red") + b.deck("red")
    assert a.hand("black") + a.deck("black") != b.hand("black") + b.deck("black")


def test_many_seeds_give_many_different_red_orders() -> None:
    orders = {tuple(engine.new_game(seed).deck("red")) for seed in range(50)}
    assert len(orders) == 50


def test_the_two_decks_are_shuffled_independently() -> None:
    # Same seed, two decks: Black's order is not Red's order with the suits renamed.
    s = engine.new_game(9)
    renamed = [c[:-1] + {"H": "S", "D": "C"}[c[-1]] for c in s.hand("red") + s.deck("red")]
    assert renamed != s.hand("black") + s.deck("black")


def test_an_int_seed_and_its_decimal_string_give_the_same_game() -> None:
    assert engine.to_json(engine.new_game(42)) == engine.to_json(engine.new_game("42"))


def test_the_shuffle_is_not_the_unshuffled_order() -> None:
    s = engine.new_game(42)
    unshuffled = [rank + suit for suit in "HD" for rank in RANKS]
    assert s.hand("red") + s.deck("red") != unshuffled
