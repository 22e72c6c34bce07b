"""The listing's packed positions and shared caches change nothing (issue 24; RH13, RH14, RH17, N1).

The search keeps a position as one int (:func:`engine.rhombus.search.pack`),
a last move's ends per the squares it can touch (:func:`end_bits`), the
blockades of one side's pieces as a bit set (:func:`protected_squares`), and
the legal list builds its actions from the canonical texts without reading
them again (:func:`engine.rhombus.actions.from_canonical`).  Each is checked
here against the plain code it replaces; the whole search is checked against
the old exhaustive one in ``test_search_oracle.py``.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rhombus import Action, legal_actions
from engine.rhombus.actions import from_canonical
from engine.rhombus.cards import ACE, ALL_SQUARES, BIT, JACK, KING, QUEEN, SIX, STEPS
from engine.rhombus.moves import diagonal_ends, orthogonal_ends, protected
from engine.rhombus.rules import legal
from engine.rhombus.search import REACH, Play, end_bits, moved, pack, protected_squares, unpack, unpack_from
from engine.rhombus.state import EMPTY

from .test_search_oracle import assert_same_as_oracle, reached, with_cards

KINDS = st.sampled_from([(2, "classic"), (4, "classic"), (2, "formation"), (4, "formation")])


@settings(max_examples=60, deadline=None)
@given(KINDS, st.integers(0, 2**32), st.integers(0, 80), st.randoms(use_true_random=False))
def test_a_packed_position_unpacks_to_itself_and_after_any_move(
    kind: tuple[int, str], seed: int, plies: int, rng: random.Random,
) -> None:
    """pack/unpack are inverse, and unpack_from (only the changed squares) agrees with unpack."""
    players, variant = kind
    s = reached(players, variant, seed, plies)
    play = Play(s.board, (), s.reserve, s.eliminated)
    packed = pack(play)
    assert unpack(packed, len(s.seats)) == (s.board, s.reserve, s.eliminated)
    assert unpack_from(play, packed, packed) == (s.board, s.reserve, s.eliminated)
    pieces = [sq for sq, who in enumerate(s.board) if who != EMPTY]
    empty = [sq for sq, who in enumerate(s.board) if who == EMPTY]
    if pieces and empty:
        frm = rng.choice(pieces)
        other = [sq for sq in pieces if sq != frm]
        for end, kill in [(rng.choice(empty), False)] + ([(rng.choice(other), True)] if other else []):
            after = moved(play, frm, end, kill, None)
            result = (after.board, after.reserve, after.eliminated)
            assert unpack(pack(after), len(s.seats)) == result
            assert unpack_from(play, packed, pack(after)) == result


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 24), st.sampled_from([SIX, QUEEN, KING, ACE, JACK]),
       st.frozensets(st.integers(0, ALL_SQUARES), min_size=1, max_size=3),
       st.integers(0, ALL_SQUARES), st.integers(0, ALL_SQUARES), st.integers(0, ALL_SQUARES))
def test_end_bits_are_the_walks_ends_whatever_lies_out_of_reach(
    sq: int, r: int, masks: frozenset[int], free: int, final: int, noise: int,
) -> None:
    """RH13, RH14: the ends kept per reachable squares are the ends of every visited set's walks,
    also for a board that differs only out of the move's reach (which shares the cached entry)."""
    visited = frozenset(m | BIT[sq] for m in masks)
    far = noise & ~REACH[r][sq]
    for free_now, final_now in ((free & ~BIT[sq], final), ((free ^ far) & ~BIT[sq], final ^ far)):
        expected = 0
        for mask in visited:
            if r == JACK:
                expected |= diagonal_ends(sq, mask, free_now, final_now)
            else:
                expected |= orthogonal_ends(sq, STEPS[r], mask, free_now, final_now)
        assert end_bits(r, sq, visited, free_now, final_now) == expected


@settings(max_examples=300, deadline=None)
@given(st.integers(0, ALL_SQUARES))
def test_protected_squares_are_the_blockades_pieces(pieces: int) -> None:
    """RH17: a piece of one side is protected exactly when moves.protected says so."""
    board = tuple(0 if pieces >> sq & 1 else EMPTY for sq in range(25))
    expected = sum(BIT[sq] for sq in range(25) if board[sq] != EMPTY and protected(board, sq))
    assert protected_squares(pieces) == expected


@settings(max_examples=30, deadline=None)
@given(KINDS, st.integers(0, 2**32), st.integers(0, 60))
def test_listed_actions_are_the_actions_their_texts_read_as(kind: tuple[int, str], seed: int, plies: int) -> None:
    """N1: each listed action equals its text read by the notation's parser, text and JSON alike,
    and the list's outcome for that text is the one by_key gives the action."""
    players, variant = kind
    s = reached(players, variant, seed, plies)
    table = legal(s)
    for a in legal_actions(s):
        parsed = Action.parse(a.text)
        assert a == parsed and a.text == parsed.text and a.to_json() == parsed.to_json()
        assert from_canonical(a.text) == parsed
        key = table.key(a.text)
        assert key is not None and table.by_key[key] == a


@pytest.mark.parametrize("seed, plies, cards", [
    (3, 4, ("JH", "QH", "KH", "AH")),  # the old search: about 0.4 s
    (8, 8, ("JC", "QC", "KC", "AC")),  # about 1.5 s
])
def test_four_mover_flushes_are_the_old_searchs(seed: int, plies: int, cards: tuple[str, ...]) -> None:
    """RH11, RH13, N1: a Formation flush of four movers, whose last moves keep only the visited
    squares they can touch, gives the old exhaustive search's outcomes and texts."""
    s = with_cards(reached(2, "formation", seed, plies), cards)
    assert s.to_move in s.board
    assert assert_same_as_oracle(s) >= 10
