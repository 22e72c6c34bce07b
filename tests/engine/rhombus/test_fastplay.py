"""The fast playout code agrees with the public API (issue 12; RH10-RH48, N1).

Over thousands of positions reached by seeded random play, in every variant
and player count: :func:`fastplay.legal_moves` is exactly the set of
outcomes of the public legal actions (N1: an action is its outcome),
playing an outcome on a :class:`fastplay.Sim` gives the state
:func:`engine.rhombus.apply` gives, the ending and winner are
:func:`engine.rhombus.outcome`'s, and a fast random playout ends where the
public API agrees that the game is over, with the same winner.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.rhombus import State, apply, new_game, outcome
from engine.rhombus import fastplay
from engine.rhombus.rules import legal

from .positions import position

VARIANTS = pytest.mark.parametrize("players, variant", [
    (2, "classic"), (4, "classic"), (2, "formation"), (4, "formation"),
])


def fast_ending(s: State) -> fastplay.Ending | None:
    """rules.outcome in the fast code's terms: (winning side or None, rule)."""
    over = outcome(s)
    if over is None:
        return None
    return (None if over.winner is None else s.seat_index(over.seats[0]) % 2, over.reason)


def positions(players: int, variant: str, games: int, seed: int, plies: int = 10_000) -> list[State]:
    """The positions of ``games`` random games through the public API, up to ``plies`` plies each."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        s = new_game(rng.getrandbits(64), players=players, variant=variant)
        out.append(s)
        while (actions := legal(s).actions) and s.ply < plies:
            s = apply(s, rng.choice(actions))
            out.append(s)
    return out


# (games, plies at most a game): Formation games are long (only RH43 and RH27
# end them) and slow through the public API, so they are cut short.
GAMES = {(2, "classic"): (8, 10_000), (4, "classic"): (8, 10_000),
         (2, "formation"): (3, 120), (4, "formation"): (4, 150)}


@VARIANTS
def test_the_fast_moves_are_the_public_actions_outcomes(players: int, variant: str) -> None:
    """N1: the same set of outcomes, and the same ending and winner (RH25-RH27, RH43, RH48)."""
    games, plies = GAMES[players, variant]
    states = positions(players, variant, games, players * 10 + len(variant), plies)
    assert len(states) > 350
    rng = random.Random(1)
    for s in states:
        sim = fastplay.Sim(s)
        assert sim.state() == s
        outcomes = set(legal(s).by_key)
        assert set(fastplay.legal_moves(sim)) == outcomes, s.ply
        assert fastplay.result(sim) == fast_ending(s), s.ply
        sampled = fastplay.random_move(sim, rng)  # the sampler finds a legal action whenever there is one
        assert (sampled in outcomes) if outcomes else sampled is None, s.ply


@VARIANTS
def test_playing_an_outcome_gives_the_public_apply_state(players: int, variant: str) -> None:
    """RH19, RH24 (refill and reshuffle from the seed), RH34, RH44: the whole next state agrees."""
    rng = random.Random(players)
    for s in positions(players, variant, 1, 99 + players, 300)[::3]:
        actions = legal(s).actions
        if not actions:
            continue
        for action in rng.sample(actions, min(3, len(actions))):
            sim = fastplay.Sim(s)
            move = legal(s).by_text[action.text]
            assert fastplay.to_action(s, move) == action
            fastplay.play(sim, move)
            assert sim.state() == apply(s, action)


@VARIANTS
def test_a_fast_random_playout_ends_where_the_public_api_says_the_game_is_over(players: int, variant: str) -> None:
    rng = random.Random(5)
    for seed in range(3 if variant == "classic" else 1):
        sim = fastplay.Sim(new_game(seed, players=players, variant=variant))
        copy = sim.copy()
        ending = fastplay.playout(sim, rng)
        assert copy.ply == 0  # a copy is independent of the position it was taken from
        s = sim.state()
        assert ending is not None and ending == fast_ending(s)
        assert legal(s).actions == ()


def test_random_moves_are_legal_and_cover_every_card_set() -> None:
    """The sampler's documented distribution: each card set with an outcome, then its outcomes."""
    s = position("""
        . . . . N
        . N . . .
        . . N . .
        . . S N .
        S . . . .
        """, sw=(["10C", "JC"], ["QC"]))
    sim = fastplay.Sim(s)
    rng = random.Random(0)
    legal_moves = set(fastplay.legal_moves(sim))
    seen = Counter(fastplay.random_move(sim, rng) for _ in range(3000))
    assert set(seen) <= legal_moves
    by_cards = Counter(move[0] for move in seen.elements() if move is not None)
    # Worked example 5: every card set with an outcome (the three singles, the
    # pairs 10C-JC and JC-QC, the flush with its Eliminator; the kill pair
    # QC+10C reaches no unprotected piece) is drawn, each about equally often.
    assert len(by_cards) == len({m[0] for m in legal_moves}) == 6
    assert min(by_cards.values()) > 3000 / len(by_cards) / 2


def test_rh26_a_walled_in_player_with_only_movers_loses_in_the_fast_code_too() -> None:
    stuck = """
        . . . . N
        . . . . .
        . . . . .
        N . . . .
        S N . . .
        """
    s = position(stuck, sw=(["6C", "QD"], ["AH"]))
    sim = fastplay.Sim(s)
    assert fastplay.legal_moves(sim) == [] and fastplay.random_move(sim, random.Random(0)) is None
    assert fastplay.result(sim) == (1, "RH26") == fast_ending(s)
    saved = fastplay.Sim(position(stuck, sw=(["6C", "QD"], ["10H"])))
    assert fastplay.result(saved) is None and len(fastplay.legal_moves(saved)) == 1
