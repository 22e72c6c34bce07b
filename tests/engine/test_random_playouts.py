"""Random complete games keep every invariant (OpenSpiel's random_sim_test).

Cards and pawns are conserved, hands stay at most three, games end within 52
turns (R8), legal actions are sorted and all playable, and ``apply`` never
changes its input.
"""
from __future__ import annotations

import json
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import Action, State
from engine.ace.cards import CAPTURED, CARD_NAMES, PAWN_NAMES, SEATS, SIDE_CARDS, SIDE_PAWNS, side_of_card

CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[HDSC](?![0-9A-Za-z])")


def check_pawns(s: State) -> None:
    """Each of the 16 pawns is on one square or in the opponent's captured area (R4, R14)."""
    on_board = [sq for sq in s.where if sq >= 0]
    assert all(sq == CAPTURED or 0 <= sq < 64 for sq in s.where)
    assert len(set(on_board)) == len(on_board)
    assert sorted([*s.board.values(), *s.captured("red"), *s.captured("black")]) == sorted(PAWN_NAMES)
    for side, seat in enumerate(SEATS):
        assert all(PAWN_NAMES.index(p) in SIDE_PAWNS[1 - side] for p in s.captured(seat))
        assert s.occupied[side] == sum(1 << s.where[p] for p in SIDE_PAWNS[side] if s.where[p] >= 0)


def check_cards(s: State) -> None:
    """Each side's 26 cards are in its hand, deck or discard pile, once (R5, R8)."""
    for side in (0, 1):
        discarded = [a.card_index for a in s.discards[side]]
        assert sorted(s.hands[side] + s.decks[side] + tuple(discarded)) == list(SIDE_CARDS[side])
        assert len(s.hands[side]) == min(3, 26 - len(discarded))
    assert len(s.discards[0]) == (s.ply + 1) // 2 and len(s.discards[1]) == s.ply // 2
    assert s.to_move == s.ply % 2


def check_legal(s: State, legal: list[Action]) -> None:
    texts = [str(a) for a in legal]
    assert texts == sorted(texts)
    assert len(set(texts)) == len(texts)
    assert (engine.outcome(s) is None) == bool(legal)
    hand = set(s.hands[s.to_move])
    assert all(a.card_index in hand for a in legal)


def check_turn(before: State, action: Action, after: State) -> None:
    mover = before.to_move
    assert after.ply == before.ply + 1
    assert after.to_move == 1 - mover
    assert after.discards[mover] == before.discards[mover] + (action,)
    assert after.hands[1 - mover] == before.hands[1 - mover]
    assert after.decks[1 - mover] == before.decks[1 - mover]
    assert after.decks[mover] == before.decks[mover][1:]


def check_opponent_view(s: State) -> None:
    """The seat not to move sees its own hand, no legal actions, and nothing of the mover's hand."""
    other = SEATS[1 - s.to_move]
    v = engine.view(s, other)
    assert list(v.hand or ()) == s.hand(other)
    assert v.legal == ()
    assert not set(v.hand or ()) & set(s.hand(s.turn))


def play(seed: int) -> State:
    """Play one random game checking the cheap invariants after every action; the final state."""
    rng = random.Random(seed)
    s = engine.new_game(seed)
    check_pawns(s)
    check_cards(s)
    for _ in range(52):
        legal = engine.legal_actions(s)
        check_legal(s, legal)
        if not legal:
            break
        parts = tuple(s)
        action = rng.choice(legal)
        after = engine.apply(s, action)
        assert tuple(s) == parts and all(a is b for a, b in zip(s, parts))
        check_turn(s, action, after)
        s = after
        check_pawns(s)
        check_cards(s)
        check_opponent_view(s)
    assert engine.legal_actions(s) == []
    return s


@settings(max_examples=2000, deadline=None)
@given(st.integers())
def test_random_games_conserve_pawns_and_cards_and_end_within_52_turns(seed: int) -> None:
    final = play(seed)
    over = engine.outcome(final)
    assert over is not None
    assert final.ply <= 52
    if over.reason == "points":
        assert final.hands == ((), ()) and final.decks == ((), ()) and final.ply == 52
    else:
        assert over.reason == "aces" and over.winner is not None
        loser = SEATS.index("red" if over.winner == "black" else "black")
        assert loser == final.to_move
        assert {"A" + s for s in ("HD", "SC")[loser]} <= set(final.captured(over.winner))


@settings(max_examples=150, deadline=None)
@given(st.integers())
def test_every_legal_action_applies_and_apply_never_changes_its_input(seed: int) -> None:
    rng = random.Random(seed)
    s = engine.new_game(seed)
    while legal := engine.legal_actions(s):
        snapshot = json.dumps(engine.to_json(s))
        for action in legal:
            after = engine.apply(s, action)
            check_turn(s, action, after)
            assert engine.apply(s, str(action)) == after
        assert json.dumps(engine.to_json(s)) == snapshot
        s = engine.apply(s, rng.choice(legal))


@settings(max_examples=150, deadline=None)
@given(st.integers())
def test_the_waiting_seats_view_never_names_a_card_of_the_movers_hand(seed: int) -> None:
    rng = random.Random(seed)
    s = engine.new_game(seed)
    while legal := engine.legal_actions(s):
        waiting = SEATS[1 - s.to_move]
        shown = set(CARD_TOKEN.findall(json.dumps(engine.view(s, waiting).to_json())))
        # Face cards share names with pawns on the board; 2-10 cards may not appear.
        hidden = {CARD_NAMES[c] for c in s.hands[s.to_move]} - set(PAWN_NAMES)
        assert not shown & hidden
        s = engine.apply(s, rng.choice(legal))


def test_a_game_that_runs_its_course_ends_on_points_after_exactly_52_turns() -> None:
    for seed in range(200):
        final = play(seed)
        over = engine.outcome(final)
        assert over is not None
        if over.reason == "points":
            assert final.ply == 52
            assert all(side_of_card(a.card_index) == side for side in (0, 1) for a in final.discards[side])
            return
    raise AssertionError("no game of 200 ran to the end of the cards")
