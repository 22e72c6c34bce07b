"""R18: what each seat, and a spectator, may see of a position."""
from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import State
from engine.ace.cards import CARD_NAMES, SEATS
from engine.ace.rules import aces_captured

VIEWERS = ("red", "black", None)
# A card written as a token in JSON text: "5H", "10S", also inside "5H e1-e6".
CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[HDSC](?![0-9A-Za-z])")


def playout(seed: int) -> Iterator[State]:
    """Every position of one random game, the start first."""
    rng = random.Random(seed)
    s = engine.new_game(seed)
    yield s
    while legal := engine.legal_actions(s):
        s = engine.apply(s, rng.choice(legal))
        yield s


def hidden_from(seat: str | None, s: State) -> set[int]:
    """The cards ``seat`` may not see in ``s``: both decks and every hand but its own."""
    hidden = set(s.decks[0]) | set(s.decks[1])
    for side, owner in enumerate(SEATS):
        if owner != seat:
            hidden |= set(s.hands[side])
    return hidden


def reshuffled(s: State, seat: str | None, rng: random.Random) -> State:
    """``s`` with everything hidden from ``seat`` dealt again: each side's unseen
    cards shuffled among that side's hidden places (other hand, deck)."""
    hands, decks = list(s.hands), list(s.decks)
    for side, owner in enumerate(SEATS):
        own_hand_hidden = owner != seat
        cards = list(s.decks[side]) + (list(s.hands[side]) if own_hand_hidden else [])
        rng.shuffle(cards)
        if own_hand_hidden:
            hands[side] = tuple(cards[:len(s.hands[side])])
            cards = cards[len(s.hands[side]):]
        decks[side] = tuple(cards)
    return State.build(s.where, (hands[0], hands[1]), (decks[0], decks[1]), s.discards, s.to_move, s.ply)


def serialized(s: State, seat: str | None) -> str:
    return json.dumps(engine.view(s, seat).to_json())


# --- whose hand is shown ------------------------------------------------------------

def test_reds_view_shows_reds_hand_and_not_blacks() -> None:
    s = engine.new_game("views")
    v = engine.view(s, "red")
    assert v.seat == "red"
    assert list(v.hand or ()) == s.hand("red")
    shown = v.to_json()["hand"]
    assert shown == s.hand("red")
    assert not set(shown or ()) & set(s.hand("black"))


def test_blacks_view_shows_blacks_hand_and_not_reds() -> None:
    s = engine.new_game("views")
    v = engine.view(s, "black")
    assert list(v.hand or ()) == s.hand("black")
    shown = v.to_json()["hand"]
    assert shown == s.hand("black")
    assert not set(shown or ()) & set(s.hand("red"))


def test_a_spectator_sees_no_hand() -> None:
    v = engine.view(engine.new_game("views"), None)
    assert v.seat is None
    assert v.hand is None
    assert v.to_json()["hand"] is None


def test_an_unknown_seat_is_refused() -> None:
    with pytest.raises(ValueError):
        engine.view(engine.new_game(1), "white")


@pytest.mark.parametrize("seat", VIEWERS)
def test_every_view_shows_the_public_position(seat: str | None) -> None:
    for s in playout(11):
        v = engine.view(s, seat)
        data = v.to_json()
        assert data["board"] == s.board
        assert data["captured"] == {side: s.captured(side) for side in SEATS}
        assert data["discards"] == engine.to_json(s)["discards"]
        assert data["hand_counts"] == {side: len(s.hand(side)) for side in SEATS}
        assert data["deck_counts"] == {side: len(s.deck(side)) for side in SEATS}
        assert (data["ply"], data["to_move"]) == (s.ply, s.turn)


# --- nothing hidden leaks ---------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.integers())
def test_no_view_names_a_hidden_number_card_anywhere(seed: int) -> None:
    # Face cards share their names with pawns, which are public; the test
    # below covers them.  A hidden 2-10 card may not appear at all.
    for s in playout(seed):
        for seat in VIEWERS:
            shown = set(CARD_TOKEN.findall(serialized(s, seat)))
            hidden = {CARD_NAMES[c] for c in hidden_from(seat, s)}
            assert not shown & {c for c in hidden if c[0] not in "AKQJ"}, (seat, s.ply)


@settings(max_examples=60, deadline=None)
@given(st.integers())
def test_a_view_is_the_same_however_the_hidden_cards_lie(seed: int) -> None:
    """The strong form of R18: two positions that differ only in what ``seat``
    cannot see (the other hand, the deck orders) give identical views."""
    rng = random.Random(seed)
    differing = 0
    for s in playout(seed):
        for seat in VIEWERS:
            other = reshuffled(s, seat, rng)
            if aces_captured(s.where, s.to_move) and seat != s.turn:
                # R15: whether the mover holds an Ace decides whether the
                # game is already over, and the end of a game is public.
                continue
            differing += other != s
            assert engine.view(other, seat) == engine.view(s, seat), (seat, s.ply)
            assert serialized(other, seat) == serialized(s, seat), (seat, s.ply)
    assert differing > 0  # the reshuffles really did change hidden cards


def test_reshuffling_for_a_seat_keeps_that_seats_own_hand() -> None:
    # A check on the helper above, so that the test above cannot pass by
    # changing what the seat does see.
    s = engine.new_game("reshuffle")
    rng = random.Random(0)
    for seat in ("red", "black"):
        other = reshuffled(s, seat, rng)
        assert other.hand(seat) == s.hand(seat)
        assert sorted(other.deck(seat)) == sorted(s.deck(seat))
    assert any(reshuffled(s, None, rng).hands != s.hands for _ in range(5))


# --- legal actions in a view --------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.integers())
def test_a_view_lists_the_legal_actions_only_on_its_seats_turn(seed: int) -> None:
    for s in playout(seed):
        legal = tuple(engine.legal_actions(s))
        for seat in SEATS:
            v = engine.view(s, seat)
            assert v.legal == (legal if seat == s.turn else ())
            assert v.to_json()["legal"] == ([str(a) for a in legal] if seat == s.turn else [])
        assert engine.view(s, None).legal == ()


def test_a_finished_game_shows_its_outcome_and_no_legal_actions_to_everyone() -> None:
    *_, last = playout(5)
    over = engine.outcome(last)
    assert over is not None
    for seat in VIEWERS:
        v = engine.view(last, seat)
        assert v.outcome == over
        assert v.legal == ()
        assert v.to_json()["outcome"] == {"winner": over.winner, "reason": over.reason, "score": over.score}


def test_a_running_game_shows_no_outcome() -> None:
    assert engine.view(engine.new_game(5), None).to_json()["outcome"] is None
