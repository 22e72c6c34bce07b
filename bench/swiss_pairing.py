"""Swiss pairing benchmark: how long ``tournaments.swiss.pair`` takes a round.

    .venv/bin/python bench/swiss_pairing.py [--players 100 500 1000 5000] [--rounds 11] [--upto 9]

For each field size it plays a Swiss of ``--rounds`` rounds with seeded random
results (40 % Red wins, 20 % draws), pairing every round with our engine, up to
round ``--upto``, and prints the pairing time of each round, the late rounds
being the ones that matter: more score groups, more rematches to avoid.
Pure Python and rustworkx; no database, no Django.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.results import Player, Round  # noqa: E402
from tournaments.swiss import Board, pair  # noqa: E402


def play(players: list[Player], boards: list[Board], rng: random.Random) -> list[Player]:
    new: dict[int, Round] = {}
    for red, black in boards:
        if black is None:
            new[red] = Round(None, None, "U")
            continue
        roll = rng.random()
        red_result, black_result = ("1", "0") if roll < 0.4 else ("=", "=") if roll < 0.6 else ("0", "1")
        new[red], new[black] = Round(black, "w", red_result), Round(red, "b", black_result)
    return [Player(p.number, p.name, p.rating, p.rounds + (new[p.number],)) for p in players]


def run(size: int, rounds: int, upto: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    players = [Player(n, f"p{n}", 2800 - n) for n in range(1, size + 1)]
    times = []
    for number in range(1, upto + 1):
        start = time.perf_counter()
        boards = pair(players, number, rounds)
        times.append(time.perf_counter() - start)
        players = play(players, boards, rng)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[100, 500, 1000, 5000])
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--upto", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for size in args.players:
        times = run(size, args.rounds, args.upto, args.seed)
        each = " ".join(f"{t:.2f}" for t in times)
        print(f"{size:>5} players, rounds 1..{args.upto} of {args.rounds}: {each} s"
              f"  (round {args.upto}: {times[-1]:.2f} s, slowest {max(times):.2f} s)", flush=True)


if __name__ == "__main__":
    main()
