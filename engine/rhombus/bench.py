"""Random complete Rhombus games through the fast playout code, per second (issue 12).

``python -m engine bench --game rhombus`` prints this beside the public
API's figure (:func:`engine.cli.bench_game`).  The moves are
:func:`engine.rhombus.fastplay.random_move`'s: uniform over the card sets
with a legal outcome, then over that set's outcomes, which is not the
public bench's uniform choice among all actions, so the games differ a
little in length; both lines give actions per second as well.
"""
from __future__ import annotations

import random
import time
from typing import TextIO

from . import fastplay
from .state import new_game


def bench_fast(seconds: float, seed: int, out: TextIO, players: int = 2, variant: str = "classic") -> float:
    """Play fast random games for ``seconds``; print and return games per second."""
    rng = random.Random(seed)
    games = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        sim = fastplay.Sim(new_game(rng.getrandbits(64), players=players, variant=variant))
        while (move := fastplay.random_move(sim, rng)) is not None:
            fastplay.play(sim, move)
            plies += 1
        games += 1
    elapsed = time.perf_counter() - start
    rate = games / elapsed
    out.write(f"{games} fast-playout Rhombus ({variant}, {players} players) games in {elapsed:.1f} s on one core: "
              f"{rate:.1f} games/s, {plies / elapsed:.0f} turns/s, {plies / max(games, 1):.1f} turns/game\n")
    return rate


__all__ = ["bench_fast"]
