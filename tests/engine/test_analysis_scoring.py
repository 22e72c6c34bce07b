"""Marks and accuracies from win percentages (engine/analysis/scoring.py,
issue 39): lichess's thresholds and formulas, and our rule that sampling noise
alone marks nothing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.analysis.scoring import game_accuracy, mark, mean_and_error, move_accuracy

WIN = st.floats(min_value=0.0, max_value=100.0, allow_nan=False)


@pytest.mark.parametrize(("losses", "expected"), [
    ([4.9] * 8, None),  # under lila's 5 points: no mark however sure
    ([5.5] * 8, "inaccuracy"),
    ([10.5] * 8, "mistake"),
    ([15.5] * 8, "blunder"),
    ([0.0, 40.0, 0.0, 40.0], None),  # a mean of 20, but the samples disagree
    ([30.0], None),  # one sample says nothing about its own error
])
def test_a_mark_needs_its_threshold_passed_by_two_standard_errors(losses: list[float], expected: str | None) -> None:
    assert mark(losses) == expected


def test_sampling_noise_alone_marks_almost_nothing() -> None:
    """A decision as good as the best, judged over 32 noisy samples (a loss of
    0 give or take 12 points a deal): marked in under 5 % of 1,000 trials."""
    rng = random.Random(39)
    marked = sum(mark([rng.gauss(0.0, 12.0) for _ in range(32)]) is not None for _ in range(1000))
    assert marked < 50


def test_no_samples_is_refused() -> None:
    with pytest.raises(ValueError, match="no samples"):
        mean_and_error([])


@pytest.mark.parametrize(("drop", "accuracy"), [
    (0.0, 100.0), (5.0, 80.815), (10.0, 64.580), (15.0, 51.521), (30.0, 25.772), (60.0, 5.399), (100.0, 0.0),
])
def test_move_accuracy_is_lichess_curve_with_its_uncertainty_bonus(drop: float, accuracy: float) -> None:
    assert move_accuracy(100.0, 100.0 - drop) == pytest.approx(accuracy, abs=1e-3)


@given(WIN, WIN, WIN)
def test_move_accuracy_is_within_bounds_and_never_rises_with_the_loss(before: float, a: float, b: float) -> None:
    worse, better = sorted((a, b))
    assert 0.0 <= move_accuracy(before, worse) <= move_accuracy(before, better) <= 100.0


def test_a_perfect_game_is_100_for_both() -> None:
    assert game_accuracy(["red", "black"] * 10, [50.0] * 20, [0.0] * 20) == {"red": 100.0, "black": 100.0}


def test_game_accuracy_combines_a_weighted_and_a_harmonic_mean() -> None:
    """Two decisions of red, one perfect and one losing 10 points (64.58), in
    a quiet game (every weight at its floor, 0.5): the weighted mean is 82.29,
    the harmonic 78.44, and red's accuracy their mean."""
    accuracy = game_accuracy(["red", "black", "red", "black"], [50.0, 50.0, 50.0, 50.0], [0.0, 0.0, 10.0, 0.0])
    weighted, harmonic = (100.0 + 64.580) / 2, 2 / (1 / 100.0 + 1 / 64.580)
    assert accuracy["red"] == pytest.approx((weighted + harmonic) / 2, abs=1e-3)
    assert accuracy["black"] == 100.0


def test_a_move_where_the_game_swung_weighs_more_than_one_in_a_quiet_stretch() -> None:
    """The same two losses, 20 points each: red's accuracy is lower when the
    big loss falls where the win% swings (weight up to 12) than where it is
    flat: the weighted mean leans towards the move that mattered."""
    movers = ["red", "black"] * 20
    quiet = [50.0] * 40
    swinging = [50.0] * 20 + [90.0, 90.0] * 10  # each mover's own: red 90, then black 90, so red's 90, 10, ...
    losses_early = [20.0 if i == 0 else 0.0 for i in range(40)]
    losses_late = [20.0 if i == 38 else 0.0 for i in range(40)]
    assert game_accuracy(movers, quiet, losses_early)["red"] == pytest.approx(
        game_accuracy(movers, quiet, losses_late)["red"])
    assert game_accuracy(movers, swinging, losses_late)["red"] < game_accuracy(movers, swinging, losses_early)["red"]


@given(st.lists(st.tuples(st.sampled_from(["SW+NE", "SE+NW"]), WIN, st.floats(0.0, 100.0)), min_size=1, max_size=60))
def test_a_sides_game_accuracy_lies_within_its_moves(decisions: list[tuple[str, float, float]]) -> None:
    movers, wins, losses = (list(column) for column in zip(*decisions))
    for side, accuracy in game_accuracy(movers, wins, losses).items():
        moves = [move_accuracy(w, w - l) for m, w, l in decisions if m == side]
        assert min(moves) - 1e-9 <= accuracy <= max(moves) + 1e-9


def test_the_columns_must_match() -> None:
    with pytest.raises(ValueError, match="one mover, win% and loss a decision"):
        game_accuracy(["red"], [50.0, 50.0], [0.0])
