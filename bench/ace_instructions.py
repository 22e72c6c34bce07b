"""Ace in the Hole's public API in machine instructions a call (valgrind's callgrind).

    .venv/bin/python bench/ace_instructions.py [--phase legal|apply|turn|site] [--root DIR]

On a shared machine CPU time moves with the neighbours' load (other processes
on the same cores slow each instruction); the number of instructions executed
does not.  This runs a workload twice under ``valgrind --tool=callgrind``, with
0 and with N units, and prints the difference per unit: ``legal`` is
``engine.legal_actions`` over the ~2,000 positions of 40 seeded random games,
``apply`` is ``engine.apply`` over the same (position, action) pairs, ``turn``
is a whole random game's turns (legal_actions + random.choice + apply, and
new_game); ``site`` is the same turns as the site plays them: the position
listed twice (the mover's view and the API or bot each ask) and the action
applied as its text.  ``--root`` measures the ``engine`` package of another checkout (a
``git worktree`` or ``git archive`` of an older commit), for before/after.
Needs valgrind (Debian's ``valgrind``); a run takes a few minutes.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = 40


def workload(root: str, phase: str, units: int) -> int:
    """Run ``units`` units of ``phase``; return how many calls (or turns) that was."""
    sys.path.insert(0, root)
    import engine
    from engine.ace import moves
    moves.fill_all()  # the tables fill lazily: build them before either run counts
    rng = random.Random(1)
    pairs = []
    for _ in range(GAMES):
        s = engine.new_game(rng.getrandbits(64))
        while actions := engine.legal_actions(s):
            a = rng.choice(actions)
            pairs.append((s, a))
            s = engine.apply(s, a)
    calls = 0
    for _ in range(units):
        if phase == "legal":
            for s, _ in pairs:
                engine.legal_actions(s)
            calls += len(pairs)
        elif phase == "apply":
            for s, a in pairs:
                engine.apply(s, a)
            calls += len(pairs)
        else:
            rng = random.Random(3)
            for _ in range(GAMES):
                s = engine.new_game(rng.getrandbits(64))
                while actions := engine.legal_actions(s):
                    if phase == "site":
                        engine.legal_actions(s)
                        s = engine.apply(s, str(rng.choice(actions)))
                    else:
                        s = engine.apply(s, rng.choice(actions))
                    calls += 1
    return calls


def instructions(root: str, phase: str, units: int) -> tuple[int, int]:
    """(instructions, calls) of one run under callgrind."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, __file__, "--child", str(units), "--phase", phase, "--root", root],
        capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}, check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    calls = re.search(r"calls (\d+)", done.stdout)
    assert found and calls, done.stderr[-2000:]
    return int(found.group(1)), int(calls.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phase", choices=("legal", "apply", "turn", "site"), default="turn")
    parser.add_argument("--units", type=int, default=3, help="passes (legal, apply) or 40-game rounds (turn)")
    parser.add_argument("--root", default=str(ROOT), help="the checkout whose engine/ is measured")
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(f"calls {workload(args.root, args.phase, args.child)}")
        return
    base, _ = instructions(args.root, args.phase, 0)
    total, calls = instructions(args.root, args.phase, args.units)
    print(f"{args.phase}: {(total - base) / calls:,.0f} instructions a "
          f"{'call' if args.phase in ('legal', 'apply') else 'turn'} ({calls} {'calls' if args.phase in ('legal', 'apply') else 'turns'}, "
          f"{args.root})")


if __name__ == "__main__":
    main()
