"""Rhombus public API in CPU time: random complete games, actions per CPU second (issue 24).

    .venv/bin/python bench/rhombus_api.py [--players 2] [--variant classic] [--seconds 10] [--seed 1]

The loop of ``python -m engine bench --game rhombus`` (``legal_actions``, a
seeded ``random.choice``, ``apply``, until the game ends), timed by
``time.process_time()`` instead of the wall clock, as the machine is shared:
it prints the games, actions, CPU and wall seconds, actions and games per
CPU second and the load average. The games depend only on the seed, so two
checkouts play the very same ones (the same action count says so).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import rhombus  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=2, choices=(2, 4))
    p.add_argument("--variant", default="classic", choices=("classic", "formation"))
    p.add_argument("--seconds", type=float, default=10.0, help="CPU seconds to play for (default 10)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    rng = random.Random(args.seed)
    games = actions = 0
    load_before = os.getloadavg()[0]
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while time.process_time() - cpu0 < args.seconds:
        s = rhombus.new_game(rng.getrandbits(64), players=args.players, variant=args.variant)
        while legal := rhombus.legal_actions(s):
            s = rhombus.apply(s, rng.choice(legal))
            actions += 1
        games += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    print(f"engine at {Path(rhombus.__file__).resolve().parent}: {args.variant}, {args.players} players: "
          f"{games} games, {actions} actions in {cpu:.1f} s CPU ({wall:.1f} s wall): "
          f"{actions / cpu:.0f} actions/s, {games / cpu:.2f} games/s of CPU; "
          f"load {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main()
