"""The bots (engine.bots): they see only their seat, play legally and repeat themselves.

Also the two pieces they stand on: the sampler that deals the unseen cards
(engine.ace.determinize) and the fast playout rules (engine.ace.fastplay), which must
agree exactly with the engine.
"""
from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from engine import State, View
from engine.bots import LEVEL_LABELS, LEVELS, choose, decide, ismcts, playout_move
from engine.ace.cards import ACES, CAPTURED, POINTS, SEATS, SIDE_CARDS
from engine.ace.determinize import sample, unseen
from engine.ace.fastplay import Sim, best_capture, card_moves, legal_moves, play, result, to_action
from engine.ace.rules import aces_captured

from .positions import position
from .test_views import hidden_from, playout, reshuffled

ROOT = Path(__file__).resolve().parents[2]


def positions(games: int, seed: int = 0) -> Iterator[State]:
    """Every unfinished position of ``games`` random games."""
    for g in range(games):
        for s in playout(seed * 10_000 + g):
            if engine.outcome(s) is None:
                yield s


def mover_view(s: State) -> View:
    return engine.view(s, s.turn)


# --- the API ------------------------------------------------------------------------

def test_there_are_at_least_five_levels_each_with_a_lobby_label() -> None:
    assert len(LEVELS) >= 5
    assert LEVELS[:2] == ("random", "greedy")
    assert sum(level.startswith("ismcts") for level in LEVELS) >= 3
    assert set(LEVEL_LABELS) == set(LEVELS)
    assert len(set(LEVEL_LABELS.values())) == len(LEVELS)


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_refuses_a_full_state_or_anything_but_a_view(level: str) -> None:
    s = engine.new_game("refused")
    for wrong in (s, engine.to_json(s), engine.view(s, "red").to_json(), None):
        with pytest.raises(TypeError, match="engine.View"):
            choose(wrong, level, seed=1)  # type: ignore[arg-type]


def test_a_bot_refuses_an_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'"):
        choose(engine.view(engine.new_game(1), "red"), "grandmaster", seed=1)


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_refuses_a_view_whose_seat_is_not_to_move(level: str) -> None:
    s = engine.new_game("turns")
    with pytest.raises(ValueError, match="not black's turn"):
        choose(engine.view(s, "black"), level, seed=1)
    with pytest.raises(ValueError, match="not a spectator's turn"):
        choose(engine.view(s, None), level, seed=1)


@pytest.mark.parametrize("seconds", [0, -1.0, float("nan")])
def test_a_bot_refuses_a_time_budget_that_is_not_above_zero(seconds: float) -> None:
    with pytest.raises(ValueError, match="above 0"):
        choose(engine.view(engine.new_game(1), "red"), "ismcts-1", seed=1, seconds=seconds)


def test_a_time_budget_replaces_the_iterations_and_is_checked_every_eight() -> None:
    v = mover_view(list(positions(1, seed=13))[4])
    d = decide(v, "ismcts-1", seed=1, seconds=0.02)
    assert d.action in v.legal
    assert d.iterations >= 8 and d.iterations % 8 == 0


def test_a_bot_refuses_a_finished_game() -> None:
    s = position({"d8": "AC", "e8": "AS"}, red=["5H"], captured={"black": ["AH", "AD"]})
    assert engine.outcome(s) is not None
    with pytest.raises(ValueError, match="not red's turn"):
        choose(engine.view(s, "red"), "greedy", seed=1)


# --- legality and determinism -------------------------------------------------------

@pytest.mark.parametrize("level", ["random", "greedy"])
def test_cheap_levels_play_a_legal_action_in_thousands_of_random_positions(level: str) -> None:
    seen = 0
    for i, s in enumerate(positions(80, seed=1)):
        action = choose(mover_view(s), level, seed=i)
        assert action in engine.legal_actions(s)
        engine.apply(s, action)
        seen += 1
    assert seen >= 2000


def test_the_search_plays_a_legal_action_in_a_thousand_random_positions() -> None:
    # A small budget: legality does not depend on it, and the full levels are
    # exercised on fewer positions below.
    seen = 0
    for i, s in enumerate(positions(40, seed=2)):
        if i % 2:
            continue
        action, iterations = ismcts(mover_view(s), random.Random(i), 12, None)
        assert iterations == 12
        assert action in engine.legal_actions(s)
        seen += 1
    assert seen >= 500


@pytest.mark.parametrize("level", [lv for lv in LEVELS if lv.startswith("ismcts")])
def test_each_search_level_plays_legally_and_spends_its_iterations(level: str) -> None:
    s = list(positions(1, seed=3))[6]
    d = decide(mover_view(s), level, seed="x")
    assert d.action in engine.legal_actions(s)
    assert d.iterations == int(LEVEL_LABELS[level].split("search, ")[1].split()[0])


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_seed_gives_the_same_action(level: str) -> None:
    for s in list(positions(2, seed=4))[5:60:11][:1 if level == LEVELS[-1] else 5]:
        v = mover_view(s)
        assert choose(v, level, seed=17) == choose(v, level, seed=17)
        assert choose(v, level, seed="game-9") == choose(v, level, seed="game-9")


def test_different_seeds_can_give_different_actions() -> None:
    v = mover_view(engine.new_game("seeds"))
    assert len({choose(v, "random", seed=k) for k in range(20)}) > 1


def test_the_same_seed_gives_the_same_actions_in_another_process_with_another_hash_seed() -> None:
    """Iteration budgets, not time, and no set or dict of strings steering play."""
    script = (
        "import json, engine\n"
        "from engine.bots import LEVELS, choose\n"
        "from tests.engine.test_bots import positions, mover_view\n"
        "ps = list(positions(1, seed=5))[3:40:9]\n"
        "print(json.dumps([[str(choose(mover_view(s), lv, seed=3)) for lv in LEVELS[:4]] for s in ps]))\n"
    )
    outs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        outs.append(json.loads(done.stdout))
    assert outs[0] == outs[1]
    here = [[str(choose(mover_view(s), lv, seed=3)) for lv in LEVELS[:4]]
            for s in list(positions(1, seed=5))[3:40:9]]
    assert outs[0] == here


# --- hidden information -------------------------------------------------------------

@pytest.mark.parametrize("level", LEVELS)
def test_a_bots_action_does_not_depend_on_cards_it_cannot_see(level: str) -> None:
    rng = random.Random(6)
    checked = 0
    # The strongest levels cost up to a second a move: fewer positions for them.
    for s in list(positions(2, seed=6))[2::7][:3 if level == LEVELS[-1] else 12]:
        seat = s.turn
        if len(hidden_from(seat, s)) < 6:
            continue
        other = reshuffled(s, seat, rng)
        while other.hands[1 - s.to_move] == s.hands[1 - s.to_move]:
            other = reshuffled(s, seat, rng)
        assert other != s and engine.view(other, seat) == engine.view(s, seat)
        assert choose(engine.view(s, seat), level, seed=5) == choose(engine.view(other, seat), level, seed=5)
        checked += 1
    assert checked >= 3


# --- the sampler --------------------------------------------------------------------

def test_every_sample_has_exactly_the_given_view_for_the_seat() -> None:
    rng = random.Random(7)
    for s in list(positions(30, seed=7))[::3]:
        for seat in SEATS:
            v = engine.view(s, seat)
            dealt = sample(v, rng)
            assert engine.view(dealt, seat) == v
            # The same cards are hidden, only dealt differently.
            assert hidden_from(seat, dealt) == hidden_from(seat, s)
            for side in (0, 1):
                assert len(dealt.hands[side]) == len(s.hands[side])
                assert len(dealt.decks[side]) == len(s.decks[side])
            own = SEATS.index(seat)
            assert dealt.hands[own] == s.hands[own]


def test_a_spectators_view_can_be_sampled_too() -> None:
    s = list(positions(1, seed=8))[10]
    v = engine.view(s, None)
    assert engine.view(sample(v, random.Random(1)), None) == v


def test_samples_deal_every_unseen_card_into_the_opponents_hand_sometimes() -> None:
    v = engine.view(engine.new_game("deal"), "red")
    assert sorted(unseen(v, 1)) == list(SIDE_CARDS[1])
    rng = random.Random(8)
    held = set()
    for _ in range(400):
        held.update(sample(v, rng).hands[1])
    assert held == set(SIDE_CARDS[1])


def test_unseen_cards_are_the_sides_cards_less_discards_and_the_viewers_hand() -> None:
    s = list(positions(1, seed=9))[20]
    v = engine.view(s, "red")
    assert set(unseen(v, 0)) == set(s.decks[0])
    assert set(unseen(v, 1)) == set(s.decks[1]) | set(s.hands[1])


def test_the_sampler_refuses_a_view_no_state_fits() -> None:
    v = engine.view(engine.new_game("bad"), "red")
    forged = dataclasses.replace(v, deck_counts=(23, 40))
    with pytest.raises(ValueError, match="no state fits"):
        sample(forged, random.Random(1))


# --- the fast playout rules ---------------------------------------------------------

def test_fast_playout_agrees_with_the_engine_on_many_random_positions() -> None:
    rng = random.Random(10)
    checked = aces_down = 0
    for s in positions(150, seed=10):
        sim = Sim.from_state(s)
        assert result(sim) is None
        moves = legal_moves(sim)
        actions = [to_action(sim, m) for m in moves]
        assert sorted(a.text for a in actions) == [a.text for a in engine.legal_actions(s)]
        assert actions == [engine.ace.rules.check(s, a) for a in actions]  # capture marks too
        aces_down += aces_captured(s.where, s.to_move)
        for m, a in rng.sample(list(zip(moves, actions)), min(3, len(moves))):
            after, fast = engine.apply(s, a), sim.copy()
            play(fast, m)
            assert fast.where == list(after.where)
            assert fast.hands == [list(after.hands[0]), list(after.hands[1])]
            assert fast.decks == [list(reversed(after.decks[0])), list(reversed(after.decks[1]))]
            assert fast.to_move == after.to_move
            assert fast.occ == list(after.occupied)
            assert fast.board == Sim.from_state(after).board
            over = engine.outcome(after)
            expected = None if over is None else (2 if over.winner is None else SEATS.index(over.winner))
            assert result(fast) == expected
            checked += 1
    assert checked >= 5000
    assert aces_down > 0  # R15 positions were among them


def test_fast_playout_plays_whole_games_exactly_as_the_engine() -> None:
    for g in range(60):
        rng = random.Random(g)
        s = engine.new_game(f"fast/{g}")
        sim = Sim.from_state(s)
        while (over := engine.outcome(s)) is None:
            moves = legal_moves(sim)
            m = moves[rng.randrange(len(moves))]
            s = engine.apply(s, to_action(sim, m))
            play(sim, m)
        expected = 2 if over.winner is None else SEATS.index(over.winner)
        assert result(sim) == expected
        assert sim.where == list(s.where)


def test_the_playout_policy_plays_legal_moves_and_takes_the_biggest_capture_offered() -> None:
    rng = random.Random(12)
    captures = 0
    for s in positions(60, seed=12):
        sim = Sim.from_state(s)
        legal = legal_moves(sim)
        for _ in range(3):
            assert playout_move(sim, rng) in legal
        best = best_capture(sim) if not aces_captured(s.where, s.to_move) else None
        taking = [m for m in legal if m[1] >= 0 and sim.board[m[2]] >= 0]
        if best is None:
            assert not taking or aces_captured(s.where, s.to_move)
        else:
            assert best in taking
            assert POINTS[sim.board[best[2]]] == max(POINTS[sim.board[m[2]]] for m in taking)
            captures += 1
        for card in set(s.hands[s.to_move]):
            moves = card_moves(sim, card)
            if not aces_captured(s.where, s.to_move):
                assert set(moves or [(card, -1, -1)]) == {m for m in legal if m[0] == card}
    assert captures >= 200


def test_fast_playout_ends_by_aces_exactly_when_the_engine_does() -> None:
    s = position({"d8": "AC", "e8": "AS", "a1": "JD"}, red=["5H", "2D"],
                 captured={"black": ["AH", "AD"]}, decks={"red": ["AH"]})
    over = engine.outcome(s)
    assert over is not None and over.reason == "aces"
    assert result(Sim.from_state(s)) == 1
    can_release = position({"d8": "AC", "e8": "AS"}, red=["AD", "2D"], captured={"black": ["AH", "AD"]})
    assert engine.outcome(can_release) is None and result(Sim.from_state(can_release)) is None
    assert [str(to_action(Sim.from_state(can_release), m)) for m in legal_moves(Sim.from_state(can_release))] == ["AD @d1"]


# --- what the greedy bot prefers ----------------------------------------------------

BLACK_HAND = ["2C", "3C", "4C"]


def test_greedy_captures_the_most_valuable_pawn_it_can() -> None:
    s = position({"e4": "KH", "e5": "QS", "f5": "KS", "a8": "AS", "h8": "AC", "a1": "AH", "h1": "AD"},
                 red=["KH", "2D"], black=BLACK_HAND, decks={"black": ["5C"]})
    assert str(choose(mover_view(s), "greedy", seed=1)) == "KH e4xf5"


def test_greedy_releases_a_captured_king_when_home_is_safe() -> None:
    s = position({"e1": "AH", "d1": "AD", "a1": "JD", "h8": "AS", "a8": "AC"},
                 red=["KH", "2D", "3D"], black=BLACK_HAND, captured={"black": ["KH"]},
                 decks={"black": ["5C"]})
    assert str(choose(mover_view(s), "greedy", seed=1)) == "KH @f1"


def attackers(s: State, seat: str, square: str) -> set[str]:
    """The opponent's unseen cards that could capture on ``square`` next turn, found
    with the engine alone: give the opponent each card in turn and list its actions."""
    side = SEATS.index(seat)
    found = set()
    for card in hidden_from(seat, s) & set(SIDE_CARDS[1 - side]):
        hands = [s.hands[0], s.hands[1]]
        hands[1 - side] = (card,)
        trial = State.build(s.where, (hands[0], hands[1]), s.decks, s.discards, 1 - side, s.ply)
        for a in engine.legal_actions(trial):
            if a.capture and a.to_square == square:
                found.add(engine.ace.cards.CARD_NAMES[card])
    return found


def test_greedy_does_not_leave_its_last_ace_capturable_when_it_can_keep_it_safe() -> None:
    """Unless it takes an Ace itself, or frees its other Ace: then losing one is no longer fatal."""
    tried = 0
    for i, s in enumerate(positions(60, seed=11)):
        me = s.to_move
        seat = s.turn
        alive = [p for p in ACES[me] if s.where[p] >= 0]
        if len(alive) != 1 or any(s.where[p] != CAPTURED for p in ACES[me] if p not in alive):
            continue
        ace = alive[0]

        def safe(a: engine.Action) -> bool:
            after = engine.apply(s, a)
            square = engine.ace.cards.SQUARE_NAMES[after.where[ace]]
            flipped = after._replace(to_move=me)  # look from the mover's side again
            return not attackers(flipped, seat, square)

        legal = engine.legal_actions(s)
        if not any(safe(a) for a in legal):
            continue
        chosen = choose(mover_view(s), "greedy", seed=i)
        after = engine.apply(s, chosen)
        took_an_ace = any(after.where[p] == CAPTURED != s.where[p] for p in ACES[1 - me])
        freed_an_ace = chosen.kind == "release" and chosen.card[0] == "A"
        assert safe(chosen) or took_an_ace or freed_an_ace, (engine.to_json(s), str(chosen))
        tried += 1
    assert tried >= 20


# --- the search ---------------------------------------------------------------------

@pytest.mark.parametrize("level", [lv for lv in LEVELS if lv.startswith("ismcts")])
def test_the_search_takes_the_last_ace_when_that_wins_at_once(level: str) -> None:
    # Black's other Ace is captured and Black's cards cannot release it: taking
    # the Ace of Spades ends the game (R15). A King capture is on offer too.
    s = position({"e4": "KH", "e5": "AS", "d5": "KS", "h8": "JS", "a1": "AH", "h1": "AD"},
                 red=["KH", "2D", "3D"], black=["2C", "3C", "4C"], captured={"red": ["AC"]},
                 decks={"red": ["5D"], "black": ["5C", "6C"]})
    action = choose(mover_view(s), level, seed=2)
    assert str(action) == "KH e4xe5"
    over = engine.outcome(engine.apply(s, action))
    assert over is not None and (over.winner, over.reason) == ("red", "aces")
