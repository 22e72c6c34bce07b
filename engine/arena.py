"""Bot against bot, many games: how strong each level is.

``python -m engine arena --red A --black B --games N --seed S`` plays N
games.  Games come in pairs that share one deal (the deck seed), with the
colours swapped, so neither level gains from a lucky shuffle; an odd N
leaves the last pair half played.  Results are from the first-named level's
(``--red``'s) point of view, with a 95% Wilson score interval on its win rate.

``--game rhombus`` plays Rhombus the same way (``--players 4`` for the team
game): the first-named level plays side 0 (``SW``, or the team ``SW+NE``,
which moves first, RH9) in even games and side 1 in odd ones, and both
seats of a team play the same level.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing import get_context

from . import rhombus
from .ace.cards import SEATS
from .ace.rules import apply, outcome
from .ace.state import new_game
from .ace.view import view
from .bots import decide


@dataclass(frozen=True, slots=True)
class GameResult:
    """One arena game: ``first_won`` is True, False, or None for a draw."""

    index: int
    first_seat: str
    first_won: bool | None
    reason: str
    plies: int
    # level -> (moves searched, iterations, seconds), for the iteration rate.
    search: dict[str, tuple[int, int, float]] = field(default_factory=dict)


def play_game(first: str, second: str, seed: int, index: int,
              seconds: float | None = None, game: str = "ace-in-the-hole",
              players: int = 2) -> GameResult:
    """Game ``index`` of an arena: ``first`` is Red in even games, Black in odd ones.

    For ``game="rhombus"``, ``first`` plays side 0 in even games and side 1
    in odd ones; ``first_seat`` is then the side's name (``SW`` or ``SW+NE``).
    """
    if game == "rhombus":
        return _play_rhombus(first, second, seed, index, seconds, players)
    if game != "ace-in-the-hole":
        raise ValueError(f"the arena plays ace-in-the-hole or rhombus, not {game!r}")
    first_seat = SEATS[index % 2]
    level_of = {first_seat: first, SEATS[1 - index % 2]: second}
    s = new_game(f"arena/{seed}/{index // 2}")
    search: dict[str, list[float]] = {}
    while (over := outcome(s)) is None:
        seat = s.turn
        level = level_of[seat]
        d = decide(view(s, seat), level, seed=f"arena/{seed}/{index}/{seat}", seconds=seconds)
        if d.iterations:
            spent = search.setdefault(level, [0, 0, 0.0])
            spent[0] += 1
            spent[1] += d.iterations
            spent[2] += d.seconds
        s = apply(s, d.action)
    won = None if over.winner is None else over.winner == first_seat
    return GameResult(index, first_seat, won, over.reason, s.ply,
                      {k: (int(v[0]), int(v[1]), v[2]) for k, v in search.items()})


def _play_rhombus(first: str, second: str, seed: int, index: int, seconds: float | None,
                  players: int) -> GameResult:
    s = rhombus.new_game(f"arena/{seed}/{index // 2}", players=players)
    first_side = index % 2
    level_of = {seat: first if i % 2 == first_side else second for i, seat in enumerate(s.seats)}
    first_name = "+".join(seat for i, seat in enumerate(s.seats) if i % 2 == first_side)
    search: dict[str, list[float]] = {}
    while (over := rhombus.outcome(s)) is None:
        seat = s.turn
        level = level_of[seat]
        d = decide(rhombus.view(s, seat), level, seed=f"arena/{seed}/{index}/{seat}", seconds=seconds)
        if d.iterations:
            spent = search.setdefault(level, [0, 0, 0.0])
            spent[0] += 1
            spent[1] += d.iterations
            spent[2] += d.seconds
        s = rhombus.apply(s, d.action)
    won = None if over.winner is None else s.seats[first_side] in over.seats
    return GameResult(index, first_name, won, over.reason, s.ply,
                      {k: (int(v[0]), int(v[1]), v[2]) for k, v in search.items()})


def _play(args: tuple[str, str, int, int, float | None, str, int]) -> GameResult:
    return play_game(*args)


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% for z = 1.96).

    >>> [round(x, 3) for x in wilson(180, 200)]
    [0.851, 0.934]
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def games(first: str, second: str, n: int, seed: int, seconds: float | None = None,
          jobs: int = 1, game: str = "ace-in-the-hole", players: int = 2) -> Iterator[GameResult]:
    """Play the ``n`` games (on ``jobs`` processes), yielding each as it ends."""
    tasks = [(first, second, seed, i, seconds, game, players) for i in range(n)]
    if jobs <= 1:
        yield from map(_play, tasks)
        return
    with get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap_unordered(_play, tasks)


@dataclass
class Tally:
    """Wins, draws and losses of the first-named level, and search effort by level."""

    first: str
    second: str
    results: list[GameResult] = field(default_factory=list)

    def add(self, r: GameResult) -> None:
        self.results.append(r)

    def count(self, seat: str | None = None) -> tuple[int, int, int]:
        rs = [r for r in self.results if seat is None or r.first_seat == seat]
        return (sum(r.first_won is True for r in rs), sum(r.first_won is None for r in rs),
                sum(r.first_won is False for r in rs))

    def search(self) -> dict[str, tuple[int, int, float]]:
        total: dict[str, tuple[int, int, float]] = {}
        for r in self.results:
            for level, (moves, its, secs) in r.search.items():
                m0, i0, s0 = total.get(level, (0, 0, 0.0))
                total[level] = (m0 + moves, i0 + its, s0 + secs)
        return dict(sorted(total.items()))

    def report(self) -> str:
        w, d, l = self.count()
        n = w + d + l
        lo, hi = wilson(w, n)
        lines = [
            f"{self.first} vs {self.second}: {n} games, from {self.first}'s side: "
            f"{w} wins, {d} draws, {l} losses",
            f"win rate {_pct(w, n)} (95% Wilson interval {lo:.1%}-{hi:.1%}); "
            f"score {_pct(2 * w + d, 2 * n)} (a draw counts half)",
        ]
        seats = list(dict.fromkeys(r.first_seat for r in sorted(self.results, key=lambda r: r.index)))
        for seat in SEATS if all(s in SEATS for s in seats) else seats:
            sw, sd, sl = self.count(seat)
            lines.append(f"  as {seat}: {sw} wins, {sd} draws, {sl} losses")
        reasons: dict[str, int] = {}
        for r in self.results:
            reasons[r.reason] = reasons.get(r.reason, 0) + 1
        lines.append("  endings: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
        for level, (moves, its, secs) in self.search().items():
            rate = its / secs if secs else 0.0
            lines.append(f"  {level}: {its / moves:.0f} iterations per searched move, "
                         f"{rate:.0f} ISMCTS iterations/s ({moves} moves searched)")
        return "\n".join(lines)


def _pct(k: int, n: int) -> str:
    return f"{k / n:.1%}" if n else "n/a"


def run(first: str, second: str, n: int, seed: int, seconds: float | None, jobs: int,
        progress: Callable[[str], None], game: str = "ace-in-the-hole", players: int = 2) -> Tally:
    """Play an arena, calling ``progress`` with a line after each game."""
    tally = Tally(first, second)
    start = time.perf_counter()
    for r in games(first, second, n, seed, seconds, jobs, game, players):
        tally.add(r)
        w, d, l = tally.count()
        progress(f"  {len(tally.results)}/{n} games, {time.perf_counter() - start:.0f} s: "
                 f"{first} {w} wins, {d} draws, {l} losses\n")
    tally.results.sort(key=lambda r: r.index)
    return tally


__all__ = ["GameResult", "Tally", "games", "play_game", "run", "wilson"]
