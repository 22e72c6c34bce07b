"""Movement: exact walks along square sides, never back over the action's own path (RH11-RH13)."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rhombus import apply, legal_actions, to_json

from .positions import START, position, texts

LONE = """
. . . . N
. . . . .
. . S . .
. . . . .
. . . . .
"""


def example_1():
    return position(START, sw=(["KC", "QC"], ["9D"]), reserve=(3, 3))


def test_worked_example_1_pair_with_two_pieces_rh20a_rh13() -> None:
    s = example_1()
    after = apply(s, "KC b1-b3, QC a2-d2")
    assert after.pieces() == {"a1": "SW", "d2": "SW", "b3": "SW", "e4": "NE", "d5": "NE", "e5": "NE"}
    # Two table places emptied, refilled face up from the top of the pile (RH24).
    assert after.hand("SW") == ["9D"]
    assert after.table("SW") == to_json(s)["pile"][:2]


def test_n1_the_same_outcome_is_listed_once_with_the_smallest_text() -> None:
    t = texts(example_1())
    assert "KC a2-b3, QC b1-d2" in t
    assert "KC b1-b3, QC a2-d2" not in t
    assert "QC a2-d2, KC b1-b3" not in t


def test_n1_any_text_of_a_legal_action_is_accepted_as_that_action() -> None:
    s = example_1()
    written = [
        "KC b1-b3, QC a2-d2", "QC a2-d2, KC b1-b3", "KC a2-b3, QC b1-d2", "kc  b1-b3,qc a2-d2",
        {"uses": [{"card": "QC", "from": "a2", "to": "d2"}, {"card": "KC", "from": "b1", "to": "b3"}]},
    ]
    results = {apply(s, w) for w in written}
    assert len(results) == 1


def test_rh11_two_uses_may_move_one_piece() -> None:
    s = example_1()
    after = apply(s, "KC b1-b3, QC b3-c5")
    assert after.pieces()["c5"] == "SW" and "b1" not in after.pieces()


def test_rh11_crossing_a_square_another_piece_crossed_is_fine() -> None:
    # Example 1: the K walks b1-b2-b3, then the Q walks a2-b2-c2-d2.
    s = position("""
. . . . N
. . . . N
. . . . .
S . . . .
S S . . .
""", sw=(["KC", "QC"], ["9D"]))
    assert "KC a2-b3, QC b1-d2" in texts(s)


def test_rh13_stepping_back_in_one_action_is_refused() -> None:
    s = position(LONE, sw=(["KS", "AS"], ["6C"]))
    with pytest.raises(IllegalAction, match=r"RH13: a piece may not enter a square it has already crossed|already crossed in this action.*\(RH13\)"):
        apply(s, "KS c3-c5, AS c5-c4")


def test_rh13_a_loop_back_to_the_start_square_is_refused() -> None:
    s = position(LONE, sw=(["KS", "AS"], ["6C"]))
    with pytest.raises(IllegalAction) as e:
        apply(s, "6C c3-c3")
    assert e.value.rule == "RH13"
    assert "6C c3-c3" not in texts(s)


def test_rh13_a_detour_ending_next_to_the_start_is_legal() -> None:
    s = position(LONE, sw=(["QD", "KD"], ["7S"]))
    assert "QD c3-d3" in texts(s)
    assert apply(s, "QD c3-d3").pieces()["d3"] == "SW"


def test_rh13_two_steps_end_on_the_starting_colour() -> None:
    s = position(LONE, sw=(["QD", "KD"], ["7S"]))
    with pytest.raises(IllegalAction, match=r"2 steps always end on the starting colour \(RH13\)"):
        apply(s, "KD c3-d3")


def test_rh13_the_count_is_exact_never_fewer_steps() -> None:
    # Six steps is even, so a 6 from c3 ends on c3's colour (dark), never next door.
    s = position(LONE, sw=(["6C", "7S"], ["8D"]))
    ends = {t.split("-")[1] for t in texts(s) if t.startswith("6C")}
    assert "d3" not in ends and "c3" not in ends
    assert ends <= {"a1", "a3", "a5", "b2", "b4", "c1", "c5", "d2", "d4", "e1", "e3"}


def test_rh12_pieces_never_jump_and_walls_force_detours() -> None:
    # Worked example 5: the S on c2 reaches d3 only around the wall, which takes a 6.
    s = position("""
. . . . N
. N . . .
. . N . .
. . S N .
S . . . .
""", sw=(["6S", "QS"], ["AS"]))
    assert "6S c2-d3" in texts(s)
    with pytest.raises(IllegalAction) as e:
        apply(s, "QS c2-d3")
    assert e.value.rule == "RH13"


def test_rh12_no_move_onto_a_friendly_piece() -> None:
    s = position(START, sw=(["AC", "7D"], ["9D"]))
    with pytest.raises(IllegalAction, match=r"friendly piece \(RH12\)"):
        apply(s, "AC a1-b1")


def test_rh12_no_move_onto_an_opponent_without_a_kill_card() -> None:
    s = position("""
. . . . N
. . . . .
. . . . .
. . . . .
S N . . .
""", sw=(["AC", "7D"], ["9D"]))
    with pytest.raises(IllegalAction) as e:
        apply(s, "AC a1-b1")
    assert e.value.rule == "RH16"


def test_rh15_a_mover_has_no_zero_use() -> None:
    s = position(START, sw=(["AC", "7D"], ["9D"]))
    with pytest.raises(IllegalAction) as e:
        apply(s, "AC 0")
    assert e.value.rule == "RH15"


def test_rh15_a_mover_that_cannot_move_cannot_be_played() -> None:
    # a1's S is boxed in by its own pieces; the A's only moves are from b1 and a2.
    s = position(START, sw=(["AC", "7D"], ["9D"]))
    assert [t for t in texts(s) if t.startswith("AC")] == ["AC a2-a3", "AC a2-b2", "AC b1-b2", "AC b1-c1"]


def test_rh12_the_moving_piece_must_be_own() -> None:
    s = position(START, sw=(["AC", "7D"], ["9D"]))
    with pytest.raises(IllegalAction) as e:
        apply(s, "AC e4-e3")
    assert e.value.rule == "RH12"


def test_every_listed_action_applies() -> None:
    """N1, N14: every listed action of worked example 1 is accepted by apply."""
    s = example_1()
    for a in legal_actions(s):
        assert apply(s, a).ply == 1
