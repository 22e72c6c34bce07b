"""The Rhombus search levels (engine.rhombus.ismcts): kills, blockades, the last piece (RH16-RH25)."""
from __future__ import annotations

import random

from engine import rhombus
from engine.bots import decide
from engine.rhombus import fastplay
from engine.rhombus.cards import SQUARE_INDEX
from engine.rhombus.ismcts import best_kill, search, static_value

from .positions import position

LAST_PIECE = """
. . . . .
. . . . .
. . . . .
. N . . .
. S . . .
"""


def test_the_search_takes_the_last_piece_rh25() -> None:
    s = position(LAST_PIECE, sw=(["AH", "7H"], ["9C"]), reserve=(0, 3))
    action, done = search(rhombus.view(s, "SW"), random.Random(1), 40)
    assert done == 40
    assert str(action) == "AH+7H b1xb2"
    assert rhombus.outcome(rhombus.apply(s, action)).reason == "RH25"  # type: ignore[union-attr]


def test_best_kill_finds_the_kill_and_none_without_one() -> None:
    s = position(LAST_PIECE, sw=(["AH", "7H"], ["9C"]), reserve=(0, 3))
    kill = best_kill(fastplay.Sim(s))
    assert kill is not None and fastplay.to_action(s, kill).text == "AH+7H b1xb2"
    quiet = position(LAST_PIECE, sw=(["AH", "KC"], ["9C"]), reserve=(0, 3))
    assert best_kill(fastplay.Sim(quiet)) is None  # no kill card: no kill (RH16)


def test_the_static_value_counts_material_and_blockades_rh17() -> None:
    s = rhombus.new_game("value")
    assert static_value(s.board, s.reserve, 0, s.variant) == 0.0
    board = list(s.board)
    board[SQUARE_INDEX["b2"]], board[SQUARE_INDEX["b1"]] = 0, -1  # a1 b2 c3: not yet three
    board[SQUARE_INDEX["c3"]], board[SQUARE_INDEX["a2"]] = 0, -1
    assert static_value(tuple(board), s.reserve, 0, s.variant) == 3 * 2.0  # three SW pieces protected
    gone = tuple(-1 if who == 1 else who for who in s.board)
    assert static_value(gone, s.reserve, 0, s.variant) == 1000.0  # RH25


def test_a_search_level_is_reproducible_and_legal_in_every_variant() -> None:
    for players, variant in ((2, "classic"), (4, "classic"), (2, "formation"), (4, "formation")):
        rng = random.Random(players)
        s = rhombus.new_game(f"search/{variant}", players=players, variant=variant)
        for _ in range(7):
            s = rhombus.apply(s, rng.choice(rhombus.legal_actions(s)))
        v = rhombus.view(s, s.turn)
        d = decide(v, "ismcts-2", seed=4)
        assert d.action in v.legal and d.iterations == 120
        assert decide(v, "ismcts-2", seed=4).action == d.action
