"""Ace in the Hole's public API, call by call: microseconds a turn.

    .venv/bin/python bench/ace_api.py [--games 400] [--repeats 15]

Records every (position, chosen action) of ``--games`` seeded random games,
then times ``engine.legal_actions`` over the positions and ``engine.apply``
over the pairs, and ``engine.new_game``; each the best of ``--repeats`` runs,
so that a change to one of them can be measured apart from the others and
with less noise than ``python -m engine bench`` (which times all three
together with the random choice).  The figures are CPU time
(``time.process_time``), as the machine is shared; wall-clock best-of and
the load average are printed beside them.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402


def best_of(repeats: int, run: Callable[[], None]) -> tuple[float, float]:
    """The fastest of ``repeats`` runs of ``run``: (CPU seconds, wall seconds)."""
    best_cpu = best_wall = float("inf")
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return best_cpu, best_wall


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
    timed = {name: best_of(args.repeats, run) for name, run in
             (("legal_actions", legal), ("apply", apply), ("new_game", start))}
    per = {"legal_actions": turns, "apply": turns, "new_game": args.games}
    cpu = ", ".join(f"{name} {timed[name][0] / per[name] * 1e6:.2f} µs" for name in timed)
    wall = ", ".join(f"{name} {timed[name][1] / per[name] * 1e6:.2f}" for name in timed)
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{turns} turns of {args.games} random games, best of {args.repeats} (a turn; new_game a game):\n"
          f"  CPU  {cpu}\n  wall {wall} µs\n  load {load}")

if __name__ == "__main__":
    main()
