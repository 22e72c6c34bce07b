"""Issue 24: the faster move generation changes nothing the public API says.

Two proofs: seeded random games whose every legal list, state, view, outcome
and refusal hash to what the engine said before the change
(``ace_api_golden.json``, see ``ace_walk.py``), and hypothesis positions, R15
and hand-made corners included, checked against the plain reading of the
rules in ``ace_oracle.py``.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import State
from engine.ace.cards import CAPTURED, OUT_OF_PLAY, SIDE_CARDS

from . import ace_oracle
from .ace_walk import game_digest

GOLDEN = json.loads((Path(__file__).parent / "ace_api_golden.json").read_text())


def test_seeded_games_say_exactly_what_they_said_before() -> None:
    changed = [seed for seed, digest in GOLDEN["games"].items() if game_digest(int(seed)) != digest]
    assert changed == []


@st.composite
def positions(draw: st.DrawFn) -> State:
    """Any arrangement of pawns (many captured, so R15 and releases come up) and hands."""
    squares = draw(st.permutations(range(64)))
    where = []
    for pawn in range(16):
        place = draw(st.sampled_from(["board"] * 5 + ["captured"] * 3 + ["out"]))
        where.append(squares[pawn] if place == "board" else CAPTURED if place == "captured" else OUT_OF_PLAY)
    hands, decks = [], []
    for side in (0, 1):
        cards = draw(st.permutations(SIDE_CARDS[side]))
        n = draw(st.integers(0, 3))
        hands.append(tuple(cards[:n]))
        decks.append(tuple(cards[n:n + draw(st.integers(0, 4))]))
    return State.build(tuple(where), (hands[0], hands[1]), (decks[0], decks[1]),
                       to_move=draw(st.integers(0, 1)), ply=draw(st.integers(0, 50)))


@settings(max_examples=150, deadline=None)
@given(positions(), st.randoms(use_true_random=False))
def test_legal_actions_and_apply_agree_with_the_rules_read_plainly(s: State, rng: random.Random) -> None:
    texts = [str(a) for a in engine.legal_actions(s)]
    assert texts == ace_oracle.legal(s)
    view = engine.view(s, engine.SEATS[s.to_move])
    assert [str(a) for a in view.legal] == (texts if engine.outcome(s) is None else [])
    for text in rng.sample(texts, min(3, len(texts))):
        assert tuple(engine.apply(s, text)) == ace_oracle.after(s, text)


@settings(max_examples=100, deadline=None)
@given(positions(), st.randoms(use_true_random=False))
def test_an_action_the_rules_refuse_is_refused(s: State, rng: random.Random) -> None:
    legal = set(ace_oracle.legal(s))
    for card in s.hands[s.to_move] + s.hands[1 - s.to_move]:
        for action in ace_oracle.card_actions(s, card) + [engine.Action.parse(f"{card_name(card)} burn")]:
            canonical = str(action)
            if canonical in legal:
                continue
            try:
                engine.apply(s, action)
            except engine.IllegalAction as e:
                assert e.rule.startswith("R")
            else:
                raise AssertionError(f"{canonical} was accepted in a position where the rules refuse it")


def card_name(card: int) -> str:
    return engine.ace.cards.CARD_NAMES[card]
