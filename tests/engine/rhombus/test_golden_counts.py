"""Hand-counted golden positions: exact legal-action counts (N1, N14), perft-style.

Each count is worked out by hand from the rules in the comments; the engine
must list exactly that many actions, each once.
"""
from __future__ import annotations

from engine.rhombus import new_game, to_json

from .positions import START, position, texts


def test_start_position_with_k_10_8_has_8_actions_rh13_rh15_rh19() -> None:
    # SW on a1 b1 a2 holds table 8D 10S, hand KC (no two share a suit: singles only).
    # KC, exactly 2 steps (RH13): a1 is walled in by b1 and a2;
    #   b1: b1-c1-d1, b1-c1-c2, b1-b2-c2, b1-b2-b3 -> d1 c2 b3 (3)
    #   a2: a2-a3-a4, a2-a3-b3, a2-b2-b3, a2-b2-c2 -> a4 b3 c2 (3)
    # 10S 0 (RH15) and 8D mystery (RH19, a table card: nothing taken) -> 2.  Total 8.
    s = position(START, sw=(["8D", "10S"], ["KC"]), reserve=(3, 3))
    assert texts(s) == [
        "10S 0", "8D mystery", "KC a2-a4", "KC a2-b3", "KC a2-c2", "KC b1-b3", "KC b1-c2", "KC b1-d1",
    ]


def test_new_game_demo_is_that_position() -> None:
    """RH8: the seeded deal of new_game("demo") is the position counted above."""
    s = new_game("demo")
    assert to_json(s)["seats"]["SW"]["table"] == ["8D", "10S"] and s.hand("SW") == ["KC"]
    assert len(texts(s)) == 8


LONE = """
. . . . N
. . . . .
. . S . .
. . . . .
. . . . .
"""


def test_lone_piece_with_ace_king_pair_has_25_actions_rh13_rh20() -> None:
    # S alone on c3 (centre), N on e5; SW holds AS KS (a consecutive pair) and 7D.
    # AS: b3 d3 c2 c4 (4).  KS: the 8 squares at distance 2 (c5 c1 a3 e3 b2 b4 d2 d4).
    # 7D 0 (1).  7D pairs with neither spade (RH20: one suit).
    # AS+KS on the one piece = a self-avoiding 3-step walk: ends at distance 1
    # (b3 d3 c2 c4, by a detour) or 3 (b5 d5 b1 d1 a4 a2 e4 e2): 12 outcomes.
    # Total 4 + 8 + 1 + 12 = 25.
    s = position(LONE, sw=(["AS", "KS"], ["7D"]))
    t = texts(s)
    assert len(t) == 25 and len(set(t)) == 25 and t == sorted(t)
    assert sum(1 for x in t if "," in x) == 12


EXAMPLE_2 = """
. . N . N
. . . . .
. . . . N
. . S . .
S S . . .
"""


def test_worked_example_2_position_has_19_actions_rh16_rh20b() -> None:
    # SW holds QH 7H and 9C (no reserve: 9C is only zero).  Singles:
    #   7H 0, 9C 0 (2).  QH, 3 steps: a1 -> a4 b3 (2); b1 -> e1 d2 a3 c3 b4 (5);
    #   c2 -> c1 b2 d2 c3 a3 b4 d4 e1 (8): 15 moves.
    # Pair QH+7H (RH20 b) only as a kill, 3 steps onto an unprotected N:
    #   c2xc5 (c2-c3-c4-c5) and c2xe3 (distance 2+1 = 3, e.g. c2-d2-e2-e3): 2.
    #   e5 is 6 steps away from c2.  Total 2 + 15 + 2 = 19.
    s = position(EXAMPLE_2, sw=(["QH", "7H"], ["9C"]))
    t = texts(s)
    assert len(t) == 19
    assert [x for x in t if "+" in x] == ["QH+7H c2xc5", "QH+7H c2xe3"]


EXAMPLE_5 = """
. . . . N
. N . . .
. . N . .
. . S N .
S . . . .
"""


def test_bishop_beside_a_blockade_has_9_actions_rh14() -> None:
    # SW holds JD, 7C, 9S (no reserve), three suits: singles only.
    # JD from c2: d3 e4 (through the corner between c3 and d2), b1, d1, b3 a4 (6);
    # from a1: b2, then c3 holds an N and no kill card pairs (1).  7C 0, 9S 0 (2).
    s = position(EXAMPLE_5, sw=(["JD", "7C"], ["9S"]))
    assert texts(s) == ["7C 0", "9S 0", "JD a1-b2", "JD c2-a4", "JD c2-b1", "JD c2-b3", "JD c2-d1", "JD c2-d3", "JD c2-e4"]
