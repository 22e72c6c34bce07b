"""Ace in the Hole's public API, call by call: microseconds a turn.

    .venv/bin/python bench/ace_api.py [--games 400] [--repeats 15]

Records every (position, chosen action) of ``--games`` seeded random games,
then times ``engine.legal_actions`` over the positions and ``engine.apply``
over the pairs, and ``engine.new_game``; each the best of ``--repeats`` runs,
so that a change to one of them can be measured apart from the others and
with less noise than ``python -m engine bench`` (which times all three
together with the random choice).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402


def best_of(repeats: int, run: Callable[[], None]) -> float:
    """The fastest of ``repeats`` runs of ``run``, in seconds."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    rng = random.Random(1)
    pairs = []
    for _ in range(args.games):
        s = engine.new_game(rng.getrandbits(64))
        while actions := engine.legal_actions(s):
            a = rng.choice(actions)
            pairs.append((s, a))
            s = engine.apply(s, a)

    def legal() -> None:
        for s, _ in pairs:
            engine.legal_actions(s)

    def apply() -> None:
        for s, a in pairs:
            engine.apply(s, a)

    def start() -> None:
        for seed in range(args.games):
            engine.new_game(seed)

    turns = len(pairs)
    print(f"{turns} turns of {args.games} random games, best of {args.repeats}: "
          f"legal_actions {best_of(args.repeats, legal) / turns * 1e6:.2f} µs, "
          f"apply {best_of(args.repeats, apply) / turns * 1e6:.2f} µs a turn; "
          f"new_game {best_of(args.repeats, start) / args.games * 1e6:.1f} µs")


if __name__ == "__main__":
    main()
