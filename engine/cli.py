"""The command line used by tools and checks; keep its output stable.

- ``moves``: positions in, one JSON object per line out: legal actions or the result.
- ``play``: ``{"position": P, "action": A}`` lines in, the next position (or an error) out.
- ``bench``: random complete games for a few seconds, games per second.
- ``show FILE``: a record's final position as a text board.
- ``arena``: bot against bot (``engine.bots``), wins/draws/losses with a 95% interval.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from .actions import Action
from .arena import run as run_arena
from .bots import LEVELS
from .errors import EngineError
from .position import from_json, to_json
from .record import read, replay
from .rules import apply, legal_actions, outcome
from .state import new_game
from .text import board_text


def moves_line(data: Any) -> dict[str, Any]:
    """The answer of ``moves`` for one position."""
    s = from_json(data)
    over = outcome(s)
    if over is None:
        return {"over": False, "legal": sorted(str(a) for a in legal_actions(s))}
    answer: dict[str, Any] = {"over": True, "winner": over.winner, "reason": over.reason}
    if over.reason == "points":
        answer["score"] = dict(over.score)
    return answer


def play_line(data: Any) -> dict[str, Any]:
    """The answer of ``play`` for one ``{"position": ..., "action": ...}`` object."""
    if not isinstance(data, dict) or "position" not in data or "action" not in data:
        raise EngineError('each line is {"position": {...}, "action": "5H e1-e6"}')
    s = from_json(data["position"])
    return dict(to_json(apply(s, Action.from_json(data["action"]))))


def _each_line(lines: Iterable[str], out: TextIO, answer: Callable[[Any], dict[str, Any]]) -> int:
    for line in lines:
        if line.strip():
            out.write(json.dumps(_answer_line(line, answer)) + "\n")
        out.flush()
    return 0


def _answer_line(line: str, answer: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as e:
        return {"error": f"not valid JSON: {e.msg} at column {e.colno}"}
    except (ValueError, RecursionError):  # a number over 4300 digits; nesting too deep
        return {"error": "not valid JSON: a number too long or nesting too deep"}
    try:
        return answer(data)
    except (EngineError, TypeError, RecursionError) as e:
        return {"error": str(e) or type(e).__name__}


def bench(seconds: float, seed: int, out: TextIO) -> float:
    """Play random complete games for ``seconds``; print and return games per second."""
    rng = random.Random(seed)
    games = turns = 0
    start = time.perf_counter()
    next_report = start + 1
    while (now := time.perf_counter()) - start < seconds:
        s = new_game(rng.getrandbits(64))
        while actions := legal_actions(s):
            s = apply(s, rng.choice(actions))
            turns += 1
        games += 1
        if now >= next_report:
            out.write(f"  {now - start:4.1f} s: {games} games\n")
            next_report += 1
    elapsed = time.perf_counter() - start
    rate = games / elapsed
    out.write(f"{games} random games in {elapsed:.1f} s on one core: "
              f"{rate:.0f} games/s, {turns / elapsed:.0f} turns/s, {turns / games:.1f} turns/game\n")
    return rate


def show(path: str, out: TextIO) -> int:
    with open(path, encoding="utf-8") as f:
        record = read(f.read())
    out.write(board_text(replay(record)[-1]) + "\n")
    return 0


def _arena_parser(sub: Any) -> None:
    a = sub.add_parser(
        "arena", help="bot against bot: wins, draws and losses of the --red level",
        description="Plays --games games between two bot levels, swapping colours every game "
                    "(each pair of games shares one deal). Results are from the --red level's "
                    "side, with a 95%% Wilson interval; progress goes to standard error.")
    a.add_argument("--red", required=True, choices=LEVELS, help="the first level (reported)")
    a.add_argument("--black", required=True, choices=LEVELS, help="its opponent")
    a.add_argument("--games", type=int, default=100)
    a.add_argument("--seed", type=int, default=0)
    a.add_argument("--seconds", type=float, default=None,
                   help="search for this long per move instead of the level's iterations "
                        "(not reproducible)")
    a.add_argument("--jobs", type=int, default=1, help="games played at once, one process each")


def arena(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run ``python -m engine arena``: progress on ``err``, the result on ``out``."""
    if args.games < 1 or args.jobs < 1 or (args.seconds is not None and args.seconds <= 0):
        err.write("python -m engine arena: --games and --jobs must be at least 1, "
                  "--seconds above 0\n")
        return 2
    budget = f"{args.seconds:g} s per move" if args.seconds else "iteration budgets"
    err.write(f"arena: {args.red} vs {args.black}, {args.games} games, seed {args.seed}, "
              f"{budget}, {args.jobs} job(s)\n")

    def progress(line: str) -> None:
        err.write(line)
        err.flush()

    tally = run_arena(args.red, args.black, args.games, args.seed, args.seconds, args.jobs, progress)
    out.write(tally.report() + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("moves", help="legal actions of positions read from standard input")
    sub.add_parser("play", help="apply actions to positions read from standard input")
    b = sub.add_parser("bench", help="random complete games per second")
    b.add_argument("--seconds", type=float, default=5.0)
    b.add_argument("--seed", type=int, default=0)
    s = sub.add_parser("show", help="a record's final position as a text board")
    s.add_argument("file")
    _arena_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "arena":
        return arena(args, sys.stdout, sys.stderr)
    if args.command == "moves":
        return _each_line(sys.stdin, sys.stdout, moves_line)
    if args.command == "play":
        return _each_line(sys.stdin, sys.stdout, play_line)
    if args.command == "bench":
        bench(args.seconds, args.seed, sys.stdout)
        return 0
    try:
        return show(args.file, sys.stdout)
    except (OSError, EngineError, UnicodeDecodeError) as e:
        sys.stderr.write(f"python -m engine show: {e}\n")
        return 1
