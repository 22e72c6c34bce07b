"""Elo by hand: each example writes out the expected score, K and the new ratings,
so a reader can check the numbers with a pocket calculator."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ladder import elo
from ladder.elo import Rated, rate


def test_two_newcomers_at_1500_the_winner_takes_20() -> None:
    # E = 1 / (1 + 10^(0/400)) = 1/2 for both; K = 40 (no games yet)
    # winner: 1500 + 40 * (1 - 0.5) = 1520; loser: 1500 + 40 * (0 - 0.5) = 1480
    a, b = rate(Rated(1500, 0), Rated(1500, 0), 1.0)
    assert (a.expected, b.expected) == (0.5, 0.5)
    assert (a.k, b.k) == (40, 40)
    assert (a.after, b.after) == (1520, 1480)
    assert (a.change, b.change) == (20, -20)


def test_a_draw_counts_half_and_moves_ratings_towards_each_other() -> None:
    # A 1600 (40 games, K 20), B 1400 (10 games, K 40), draw: S = 1/2 each.
    # E_A = 1 / (1 + 10^(-200/400)) = 1 / (1 + 0.316228) = 0.759747; E_B = 0.240253
    # A: 20 * (0.5 - 0.759747) = -5.195 -> -5 -> 1595
    # B: 40 * (0.5 - 0.240253) = +10.390 -> +10 -> 1410
    a, b = rate(Rated(1600, 40), Rated(1400, 10), 0.5)
    assert a.expected == pytest.approx(0.759747, abs=1e-6)
    assert b.expected == pytest.approx(0.240253, abs=1e-6)
    assert (a.score, b.score) == (0.5, 0.5)
    assert (a.k, b.k) == (20, 40)
    assert (a.after, b.after) == (1595, 1410)


def test_k_changes_after_the_thirtieth_game() -> None:
    # A 1450 with 29 rated games (still K 40) beats B 1550 with 30 (K 20).
    # E_A = 1 / (1 + 10^(100/400)) = 1 / (1 + 1.778279) = 0.359935; E_B = 0.640065
    # A: 40 * (1 - 0.359935) = +25.603 -> +26 -> 1476
    # B: 20 * (0 - 0.640065) = -12.801 -> -13 -> 1537
    a, b = rate(Rated(1450, 29), Rated(1550, 30), 1.0)
    assert a.expected == pytest.approx(0.359935, abs=1e-6)
    assert (a.k, b.k) == (40, 20)
    assert (a.after, b.after) == (1476, 1537)


def test_k_is_10_once_2400_was_reached_even_below_it() -> None:
    # A 2390, 50 games, has reached 2400 before: K 10. Loses to B 2300 (K 20).
    # E_A = 1 / (1 + 10^(-90/400)) = 1 / (1 + 0.595662) = 0.626699; E_B = 0.373301
    # A: 10 * (0 - 0.626699) = -6.267 -> -6 -> 2384
    # B: 20 * (1 - 0.373301) = +12.534 -> +13 -> 2313
    a, b = rate(Rated(2390, 50, reached_2400=True), Rated(2300, 60), 0.0)
    assert (a.k, b.k) == (10, 20)
    assert a.expected == pytest.approx(0.626699, abs=1e-6)
    assert (a.after, b.after) == (2384, 2313)


def test_the_first_30_games_keep_k_40_even_past_2400() -> None:
    # The same game, A with 12 games: K 40. A: 40 * (0 - 0.626699) = -25.068 -> -25 -> 2365
    a, _ = rate(Rated(2390, 12, reached_2400=True), Rated(2300, 60), 0.0)
    assert (a.k, a.after) == (40, 2365)


def test_k_factor_table() -> None:
    assert [elo.k_factor(g) for g in (0, 1, 29, 30, 31, 500)] == [40, 40, 40, 20, 20, 20]
    assert [elo.k_factor(g, True) for g in (29, 30, 500)] == [40, 10, 10]


def test_provisional_for_the_first_30_rated_games() -> None:
    assert elo.display(1500, 0) == "1500?"
    assert elo.display(1512, 29) == "1512?"
    assert elo.display(1512, 30) == "1512"
    assert elo.provisional(29) and not elo.provisional(30)


def test_changes_round_halves_away_from_zero() -> None:
    # E is a whole fraction only at equal ratings, so the rule is checked on its own.
    assert [elo._round_half_away(x) for x in (2.5, -2.5, 2.49, -2.51, 0.0)] == [3, -3, 2, -3, 0]


def test_a_score_other_than_1_half_or_0_is_refused() -> None:
    with pytest.raises(ValueError):
        rate(Rated(1500, 0), Rated(1500, 0), 0.7)


@given(st.integers(100, 3000), st.integers(100, 3000), st.sampled_from(elo.SCORES),
       st.integers(0, 200), st.booleans())
def test_with_equal_k_a_game_moves_exactly_as_many_points_as_it_takes(
        a: int, b: int, score: float, games: int, reached: bool) -> None:
    # Halves round away from zero, so round(K(S - E)) = -round(K((1 - S) - (1 - E))).
    k = elo.k_factor(games, reached)
    mine, theirs = rate(Rated(a, games, reached), Rated(b, games, reached), score)
    assert mine.k == theirs.k == k
    assert mine.change == -theirs.change
    assert abs(mine.change) <= k
    assert (mine.change >= 0) == (score >= mine.expected) or mine.change == 0


def test_the_examples_in_the_docstrings_hold() -> None:
    import doctest

    from ladder import ratings

    for module in (elo, ratings):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
