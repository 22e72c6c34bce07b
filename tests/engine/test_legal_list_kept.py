"""Issue 24: the legal list is made once per state and `apply` trusts it.

`engine.legal_actions(s)` keeps the list it made beside the very object `s`
(by identity, never on the state), the mover's view shares it, and
`engine.apply(s, a)` plays an action found in that list without checking it
again. These check that the kept list is the one a fresh computation makes,
that the shortcut plays exactly what the full check plays, that it lets
nothing illegal through, and that a State is the same value whether or not
it was listed.
"""
from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import State

from . import ace_oracle
from .test_api_unchanged import card_name, positions


def twin(s: State) -> State:
    """An equal state that is another object, so nothing kept for ``s`` serves it."""
    return State(*s)


@settings(max_examples=150, deadline=None)
@given(positions())
def test_the_kept_list_is_the_list_made_afresh(s: State) -> None:
    first = engine.legal_actions(s)
    first.append(engine.Action.parse("AH burn"))  # a caller's change stays the caller's
    again = engine.legal_actions(s)
    assert again == engine.legal_actions(twin(s)) == first[:-1]
    assert [str(a) for a in again] == ace_oracle.legal(s)
    if engine.outcome(s) is None:
        assert list(engine.view(s, engine.SEATS[s.to_move]).legal) == again


@settings(max_examples=150, deadline=None)
@given(positions(), st.randoms(use_true_random=False))
def test_an_action_from_the_kept_list_plays_as_the_full_check_plays_it(
        s: State, rng: random.Random) -> None:
    legal = engine.legal_actions(s)
    for action in rng.sample(legal, min(4, len(legal))):
        engine.legal_actions(s)  # kept again for s (each apply below lists nothing)
        fast = engine.apply(s, action)
        engine.legal_actions(s)
        by_text = engine.apply(s, str(action))
        full = engine.apply(twin(s), str(action))
        assert fast == by_text == full
        assert fast.discards == full.discards and str(fast.discards[s.to_move][-1]) == str(action)


@settings(max_examples=100, deadline=None)
@given(positions())
def test_the_kept_list_lets_nothing_illegal_through(s: State) -> None:
    """Every action the rules refuse is refused the same way (code, rule, message) after
    listing, and a capture spelt as a plain move is still understood (its state as the
    full check makes it)."""
    legal = set(ace_oracle.legal(s))
    for card in s.hands[s.to_move] + s.hands[1 - s.to_move]:
        for action in ace_oracle.card_actions(s, card) + [engine.Action.parse(f"{card_name(card)} burn")]:
            spellings = [action]
            if action.kind == "move":
                spellings.append(engine.Action.parse(str(action).replace("x", "-")))
            for spelt in spellings:
                engine.legal_actions(s)
                answer = refusal(s, spelt)
                assert answer == refusal(twin(s), spelt)
                assert isinstance(answer, State) == (str(action) in legal)


def refusal(s: State, action: engine.Action) -> tuple[str, str, str] | State:
    """The refusal's code, rule and message, or the state the action makes."""
    try:
        return engine.apply(s, action)
    except engine.IllegalAction as e:
        return e.code, e.rule, str(e)


@settings(max_examples=50, deadline=None)
@given(positions())
def test_a_listed_state_is_the_same_value(s: State) -> None:
    before = pickle.dumps(s), hash(s), engine.to_json(s)
    engine.legal_actions(s)
    engine.view(s, engine.SEATS[s.to_move])
    assert (pickle.dumps(s), hash(s), engine.to_json(s)) == before
    assert s == twin(s)
