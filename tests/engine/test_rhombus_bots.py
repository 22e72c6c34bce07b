"""Rhombus bots (issue 12): every level through engine.bots, the determinization, the arena."""
from __future__ import annotations

import argparse
import dataclasses
import io
import random

import pytest

from engine import rhombus
from engine.arena import Tally, play_game
from engine.bots import LEVELS, choose, decide, rhombus_score
from engine.cli import arena
from engine.rhombus.determinize import sample, unseen


def positions(players: int, seed: int, plies: tuple[int, ...]) -> list[rhombus.State]:
    """States reached by random play at the given plies (fewer if the game ends first)."""
    rng = random.Random(seed)
    s = rhombus.new_game(f"bots/{seed}", players=players)
    out = []
    for ply in range(max(plies) + 1):
        if rhombus.outcome(s) is not None:
            break
        if ply in plies:
            out.append(s)
        actions = rhombus.legal_actions(s)
        s = rhombus.apply(s, actions[rng.randrange(len(actions))])
    return out


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("level", ["random", "greedy"])
def test_fast_levels_play_a_legal_action(players: int, level: str) -> None:
    for seed in range(3):
        for s in positions(players, seed, (0, 5, 12, 25)):
            v = rhombus.view(s, s.turn)
            action = choose(v, level, seed=seed)
            assert action in v.legal
            assert choose(v, level, seed=seed) == action  # reproducible for a seed
            rhombus.apply(s, action)


@pytest.mark.parametrize("players", [2, 4])
def test_search_level_plays_a_legal_action_and_counts_its_iterations(players: int) -> None:
    s = positions(players, 7, (9,))[0]
    v = rhombus.view(s, s.turn)
    d = decide(v, "ismcts-1", seed=3)
    assert d.action in v.legal
    assert d.iterations == 24
    assert decide(v, "ismcts-1", seed=3).action == d.action


def test_every_level_is_offered() -> None:
    assert LEVELS == ("random", "greedy", "ismcts-1", "ismcts-2", "ismcts-3")


def test_a_bot_refuses_a_full_state_and_another_seats_turn() -> None:
    s = rhombus.new_game("refuse")
    with pytest.raises(TypeError, match="engine.View"):
        choose(s, "random", seed=1)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="not NE's turn"):
        choose(rhombus.view(s, "NE"), "random", seed=1)


def test_greedy_takes_the_last_piece() -> None:
    # Random games ended by RH25: in the position before the last action a winning
    # action exists (that last one), and greedy must play one of the winning actions.
    checked = 0
    for seed in range(12):
        if checked == 2:
            break
        rng = random.Random(seed)
        s = before = rhombus.new_game(f"last/{seed}")
        while rhombus.outcome(s) is None:
            before = s
            actions = rhombus.legal_actions(s)
            s = rhombus.apply(s, actions[rng.randrange(len(actions))])
        if rhombus.outcome(s).reason != "RH25":  # type: ignore[union-attr]
            continue
        v = rhombus.view(before, before.turn)
        side = before.to_move % 2
        wins = [a for a in v.legal if rhombus_score(rhombus.apply(before, a), side) >= 1000]
        assert wins
        assert choose(v, "greedy", seed=seed) in wins
        checked += 1
    assert checked == 2


def test_score_counts_board_and_reserve() -> None:
    s = rhombus.new_game("score")
    assert rhombus_score(s, 0) == 0.0
    board = list(s.board)
    board[board.index(1)] = -1  # one NE piece off the board
    fewer = s._replace(board=tuple(board), eliminated=(0, 1))
    assert rhombus_score(fewer, 0) == 10.0
    assert rhombus_score(fewer, 1) == -10.0
    gone = s._replace(board=tuple(-1 if who == 1 else who for who in s.board))
    assert rhombus_score(gone, 0) == 1000.0  # RH25


# -- determinization ------------------------------------------------------------


def test_unseen_cards_at_the_start() -> None:
    s = rhombus.new_game("unseen")
    v = rhombus.view(s, "SW")
    pool = unseen(v)
    # 36 cards less SW's hand and both tables (3 + 2): NE's hand and the pile.
    assert len(pool) == 36 - 5 == 1 + 30
    assert sorted(pool) == sorted(s.hands[1] + s.pile)


@pytest.mark.parametrize("players", [2, 4])
def test_a_sample_keeps_the_seats_view(players: int) -> None:
    rng = random.Random(players)
    for seed in range(3):
        for s in positions(players, seed, (0, 4, 11, 30, 60)):
            for seat in s.seats:
                v = rhombus.view(s, seat)
                t = sample(v, rng)
                assert dataclasses.replace(rhombus.view(t, seat), commitment=v.commitment) == v
                assert sorted(t.pile + sum((h for i, h in enumerate(t.hands) if i != s.seat_index(seat)), ())) \
                    == sorted(s.pile + sum((h for i, h in enumerate(s.hands) if i != s.seat_index(seat)), ()))


@pytest.mark.parametrize("players", [2, 4])
def test_a_sample_uses_no_hidden_information(players: int) -> None:
    # Two states that one seat cannot tell apart give that seat the same samples.
    for s in positions(players, 5, (3, 17)):
        for seat in s.seats:
            other = sample(rhombus.view(s, seat), random.Random("other"))
            assert other.seed != s.seed
            a = sample(rhombus.view(s, seat), random.Random(9))
            b = sample(rhombus.view(other, seat), random.Random(9))
            assert a == b


def test_a_sample_varies_the_hidden_cards() -> None:
    v = rhombus.view(rhombus.new_game("vary"), "SW")
    piles = {sample(v, random.Random(i)).pile for i in range(5)}
    assert len(piles) == 5


def test_a_spectator_view_is_refused() -> None:
    with pytest.raises(ValueError, match="spectator"):
        sample(rhombus.view(rhombus.new_game("spec"), None), random.Random(0))


# -- arena ----------------------------------------------------------------------------


def test_arena_games_swap_sides() -> None:
    even = play_game("greedy", "random", 1, 0, game="rhombus")
    odd = play_game("greedy", "random", 1, 1, game="rhombus")
    assert (even.first_seat, odd.first_seat) == ("SW", "NE")
    assert even.reason in ("RH25", "RH26", "RH27") and even.plies > 0
    team = play_game("random", "greedy", 2, 1, game="rhombus", players=4)
    assert team.first_seat == "SE+NW"
    tally = Tally("greedy", "random", [even, odd, team])
    report = tally.report()
    assert "3 games" in report and "as SW:" in report and "as SE+NW:" in report


def test_arena_command_line() -> None:
    args = argparse.Namespace(
        red="greedy", black="random", games=2, seed=4, seconds=None, jobs=1, game="rhombus", players=2)
    out, err = io.StringIO(), io.StringIO()
    assert arena(args, out, err) == 0
    assert out.getvalue().startswith("greedy vs random: 2 games, from greedy's side:")
    assert "95% Wilson interval" in out.getvalue()
    args.players = 3
    assert arena(args, io.StringIO(), err) == 2
    assert "played by 2 or 4 players, not 3" in err.getvalue()
