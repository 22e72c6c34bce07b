"""Turning win percentages into what a player reads after a game (issue 39):
a mark for a decision that lost too much, an accuracy per move and per game.

Everything here is on the win-percentage scale (0-100) from the mover's side
(a 4-player game: the mover's team), and takes numbers only: which decision
was judged, and how, is for the analysis that calls it.

The figures follow lichess, so that its players read ours the same way:

- marks at 5, 10 and 15 points lost (lila, modules/analyse/src/main/Advice.scala:
  winning chances of -1..1 dropping by 0.1, 0.2, 0.3, which is 5, 10 and 15 points
  of win%);
- a move's accuracy from the drop, ``103.1668 * exp(-0.04354 * drop) - 3.1669``
  plus one point for the analysis's own uncertainty, within 0..100, and a
  game's as the mean of a volatility-weighted mean and a harmonic mean (lila,
  modules/analyse/src/main/AccuracyPercent.scala, ``fromWinPercents`` and
  ``gameAccuracy``).

One thing is ours: a card game's values are estimates over sampled deals, not
an engine's one number, so a decision is marked only when its loss exceeds the
threshold by more than two standard errors of the mean over the samples
(``mark``). Noise of the sampling alone then marks almost nothing.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Literal

Mark = Literal["inaccuracy", "mistake", "blunder"]

# Points of win% lost, worst first (lila's Advice: 0.3, 0.2, 0.1 of winning chances).
THRESHOLDS: tuple[tuple[float, Mark], ...] = (
    (15.0, "blunder"),
    (10.0, "mistake"),
    (5.0, "inaccuracy"),
)
STANDARD_ERRORS = 2.0  # how far above a threshold a loss must be to count


def mean_and_error(losses: Sequence[float]) -> tuple[float, float]:
    """The mean of ``losses`` (one per sampled deal, the same deals for every
    action compared) and its standard error; the error of a single sample is
    unknown, so it is infinite.

    >>> [round(x, 3) for x in mean_and_error([10.0, 12.0, 14.0])]
    [12.0, 1.155]
    """
    if not losses:
        raise ValueError("no samples to judge from")
    mean = statistics.fmean(losses)
    if len(losses) < 2:
        return mean, math.inf
    return mean, statistics.stdev(losses) / math.sqrt(len(losses))


def mark(losses: Sequence[float]) -> Mark | None:
    """The worst mark whose threshold the mean loss exceeds by more than
    STANDARD_ERRORS standard errors, or None.

    >>> mark([16.0, 16.5, 17.0, 16.2])
    'blunder'
    >>> mark([16.0, 0.0, 30.0, 18.0]) is None  # a mean of 16, but too noisy to say
    True
    """
    mean, error = mean_and_error(losses)
    for threshold, name in THRESHOLDS:
        if mean - STANDARD_ERRORS * error > threshold:
            return name
    return None


def move_accuracy(before: float, after: float) -> float:
    """A move's accuracy (0-100) from the mover's win% before it and after it
    (lila's AccuracyPercent.fromWinPercents, with its one-point bonus for the
    analysis's own uncertainty): 100 for no loss, about 81 for 5 points lost.

    >>> move_accuracy(60.0, 60.0)
    100.0
    >>> round(move_accuracy(60.0, 50.0), 1)
    64.6
    """
    if after >= before:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * (before - after)) - 3.166924740191411
    return min(100.0, max(0.0, raw + 1.0))


def game_accuracy(movers: Sequence[str], wins: Sequence[float], losses: Sequence[float]) -> dict[str, float]:
    """Each side's accuracy over a game, combined as lila's
    AccuracyPercent.gameAccuracy does: the mean of a volatility-weighted mean
    and a harmonic mean of the side's move accuracies, each move weighted by
    the standard deviation of the win% around it (within 0.5..12), so that
    moves in a quiet stretch count less than moves where the game swung.

    Decision i was made by ``movers[i]``, whose win% before it was ``wins[i]``
    and who lost ``losses[i]`` points by it (best minus played, as judged).
    Unlike chess, where lila takes the drop between one position and the
    next, a card game's next position holds the luck of the cards drawn in
    between: a move's accuracy comes from its judged loss only, so the cards
    never count against the player. A side that made no decision is left out.

    >>> game_accuracy(["a", "b"], [50.0, 50.0], [0.0, 0.0])
    {'a': 100.0, 'b': 100.0}
    """
    if not len(movers) == len(wins) == len(losses):
        raise ValueError("one mover, win% and loss a decision")
    if not movers:
        return {}
    first = movers[0]
    series = [win if side == first else 100.0 - win for side, win in zip(movers, wins)]  # the first side's view
    weights = _volatility(series)
    moves: dict[str, list[tuple[float, float]]] = {}
    for side, win, loss, weight in zip(movers, wins, losses, weights):
        moves.setdefault(side, []).append((move_accuracy(win, win - max(0.0, loss)), weight))
    return {side: (_weighted_mean(values) + _harmonic_mean([a for a, _ in values])) / 2
            for side, values in moves.items()}


def _volatility(series: Sequence[float]) -> list[float]:
    """Each decision's weight: the population standard deviation of the win%
    over a window of about a tenth of the game (2..8 decisions) ending at it,
    the first full window standing for the decisions before it (lila's
    windows)."""
    count = len(series)
    size = min(8, max(2, count // 10), count)
    windows = [series[:size]] * (size - 1) + [series[i - size + 1:i + 1] for i in range(size - 1, count)]
    return [min(12.0, max(0.5, statistics.pstdev(window))) for window in windows]


def _weighted_mean(values: Sequence[tuple[float, float]]) -> float:
    total = sum(weight for _, weight in values)
    return sum(value * weight for value, weight in values) / total


def _harmonic_mean(values: Sequence[float]) -> float:
    """The harmonic mean, a zero counted as a tiny positive (a move of
    accuracy 0 pulls the mean down hard without dividing by zero)."""
    return len(values) / sum(1.0 / max(value, 1e-9) for value in values)
