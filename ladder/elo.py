"""Elo ratings, as FIDE computes them for one game: pure, no Django.

The formulas (Arpad Elo, *The Rating of Chessplayers, Past and Present*, 1978;
as used in the FIDE Handbook B.02.10, FIDE Rating Regulations, sections 8.3–8.56):

- Expected score of A against B:  E_A = 1 / (1 + 10 ** ((R_B - R_A) / 400))
- New rating:  R'_A = R_A + K * (S_A - E_A),  S_A = 1 for a win, ½ for a draw, 0 for a loss.
  The change K * (S_A - E_A) is rounded to a whole point, halves away from zero.
- K (FIDE 8.56): 40 for a player's first 30 rated games; 20 afterwards; 10 once
  the player has ever reached 2400 (it stays 10 even if they drop below).
  The first 30 games win over 2400: a newcomer keeps K = 40 until game 30.
- Everyone starts at 1500 and is *provisional* for their first 30 rated games,
  shown with a question mark ("1512?"), as lichess does.

FIDE's other adjustments (juniors' K, the 400-point cap on a rating
difference) are left out: the site's players have no age, and the issue's
formula is plain Elo.

>>> a, b = rate(Rated(1500, 0), Rated(1500, 0), 1.0)
>>> (a.after, b.after, a.k)
(1520, 1480, 40)
>>> display(1520, 1)
'1520?'
"""

from __future__ import annotations

import math
from dataclasses import dataclass

START = 1500
PROVISIONAL_GAMES = 30
MASTER = 2400
K_NEW, K_REGULAR, K_MASTER = 40, 20, 10
SCORES = (0.0, 0.5, 1.0)


@dataclass(frozen=True)
class Rated:
    """A player's standing before a game: rating, rated games played, ever reached 2400."""

    rating: int
    games: int
    reached_2400: bool = False


@dataclass(frozen=True)
class Update:
    """One player's side of one rated game."""

    before: int
    after: int
    opponent: int  # the opponent's rating before the game
    score: float
    expected: float
    k: int

    @property
    def change(self) -> int:
        return self.after - self.before


def expected_score(rating: float, opponent: float) -> float:
    """E = 1 / (1 + 10^((R_opponent - R) / 400)).

    >>> expected_score(1500, 1500)
    0.5
    >>> round(expected_score(1600, 1400), 4)
    0.7597
    """
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


def k_factor(games: int, reached_2400: bool = False) -> int:
    """40 for the first 30 rated games, then 20, or 10 once 2400 has been reached.

    >>> (k_factor(0), k_factor(29), k_factor(30), k_factor(30, True), k_factor(5, True))
    (40, 40, 20, 10, 40)
    """
    if games < PROVISIONAL_GAMES:
        return K_NEW
    return K_MASTER if reached_2400 else K_REGULAR


def provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def display(rating: int, games: int) -> str:
    """The rating as shown: with "?" while provisional.

    >>> (display(1512, 29), display(1512, 30))
    ('1512?', '1512')
    """
    return f"{rating}?" if provisional(games) else str(rating)


def _round_half_away(x: float) -> int:
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def update(player: Rated, opponent: Rated, score: float) -> Update:
    """``player``'s new rating after scoring ``score`` (1, ½ or 0) against ``opponent``."""
    return _in_team(player, player.rating, opponent.rating, score)


def rate(a: Rated, b: Rated, score_a: float) -> tuple[Update, Update]:
    """Both sides of one game, ``score_a`` being A's score (B's is 1 - score_a)."""
    return update(a, b, score_a), update(b, a, 1 - score_a)


def rate_teams(team_a: list[Rated], team_b: list[Rated], score_a: float) -> tuple[list[Update], list[Update]]:
    """Every player's side of a team game (Rhombus's four-player game, issue 13).

    Each player's change is their own K times their team's score less the
    expected score of their team's average rating against the other team's;
    ``opponent`` is the other team's average. With one player a team it is
    exactly :func:`rate`.

    >>> (a, c), (b, d) = rate_teams([Rated(1600, 40), Rated(1400, 0)], [Rated(1500, 40), Rated(1500, 40)], 1.0)
    >>> (a.after, c.after, b.after, d.after, a.opponent)
    (1610, 1420, 1490, 1490, 1500)
    >>> rate_teams([Rated(1500, 0)], [Rated(1700, 0)], 0.5) == tuple([u] for u in rate(Rated(1500, 0), Rated(1700, 0), 0.5))
    True
    """
    average_a, average_b = _average(team_a), _average(team_b)
    return ([_in_team(p, average_a, average_b, score_a) for p in team_a],
            [_in_team(p, average_b, average_a, 1 - score_a) for p in team_b])


def _average(team: list[Rated]) -> float:
    return sum(p.rating for p in team) / len(team)


def _in_team(player: Rated, own: float, other: float, score: float) -> Update:
    """``player``'s update when their side, rated ``own``, meets a side rated ``other``."""
    if score not in SCORES:
        raise ValueError(f"a game scores 1, 0.5 or 0, not {score}")
    expected = expected_score(own, other)
    k = k_factor(player.games, player.reached_2400)
    after = player.rating + _round_half_away(k * (score - expected))
    return Update(player.rating, after, _round_half_away(other), score, expected, k)
