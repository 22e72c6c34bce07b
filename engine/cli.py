"""The command line used by tools and checks; keep its output stable.

- ``moves``: positions in, one JSON object per line out: legal actions or the result.
- ``play``: ``{"position": P, "action": A}`` lines in, the next position (or an error) out.
- ``bench``: random complete games for a few seconds, games per second.
- ``show FILE``: a record's final position as a text board.
- ``arena``: bot against bot (``engine.bots``), wins/draws/losses with a 95% interval;
  ``--game rhombus`` (with ``--players 2`` or ``4``) for Rhombus, ``--red`` playing
  side 0 (``SW``, or the team ``SW+NE``) in even games and side 1 in odd ones.

``moves``, ``play``, ``bench`` and ``show`` take ``--game rhombus`` (default:
Ace in the Hole, exactly as without the option), with ``--variant`` and
``--players`` (default classic, 2): positions in the Rhombus page's format,
actions in its notation or JSON, records of :class:`engine.record.RhombusRecord`.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from . import rhombus
from .ace.actions import Action
from .ace.position import from_json, to_json
from .ace.rules import apply, legal_actions, outcome
from .ace.state import new_game
from .ace.text import board_text
from .arena import run as run_arena
from .bots import LEVELS
from .errors import EngineError
from .game import GAMES, Game
from .record import RhombusRecord, read, read_rhombus, replay, replay_rhombus
from .rhombus.bench import bench_fast
from .rhombus.text import board_text as rhombus_board_text


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
        raise EngineError.coded("cli-line", example='{"position": {...}, "action": "5H e1-e6"}')
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
    except (EngineError, TypeError, RecursionError, NotImplementedError) as e:
        return {"error": str(e) or type(e).__name__}


def bench(seconds: float, seed: int, out: TextIO) -> float:
    """Play random complete games for ``seconds``; print and return games per second."""
    def one_game(rng: random.Random) -> int:
        s, turns = new_game(rng.getrandbits(64)), 0
        while actions := legal_actions(s):
            s = apply(s, rng.choice(actions))
            turns += 1
        return turns

    cpu = time.process_time()
    games, turns, elapsed = _timed_games(one_game, seconds, seed, out)
    cpu = time.process_time() - cpu
    rate = games / elapsed
    out.write(f"{games} random games in {elapsed:.1f} s on one core: "
              f"{rate:.0f} games/s, {turns / elapsed:.0f} turns/s, {turns / games:.1f} turns/game\n")
    # The machine is shared: CPU time is the figure to compare, the load says how shared.
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    out.write(f"CPU time {cpu:.1f} s: {games / cpu:.0f} games/s, {turns / cpu:.0f} turns/s, "
              f"{cpu / turns * 1e6:.2f} µs a turn; load {load}\n")
    return rate


def _timed_games(one_game: Callable[[random.Random], int], seconds: float, seed: int,
                 out: TextIO) -> tuple[int, int, float]:
    """Play ``one_game`` (returning its turns) until ``seconds`` have passed, a
    progress line a second; (games, turns, elapsed seconds)."""
    rng = random.Random(seed)
    games = turns = 0
    start = time.perf_counter()
    next_report = start + 1
    while (now := time.perf_counter()) - start < seconds:
        turns += one_game(rng)
        games += 1
        if now >= next_report:
            out.write(f"  {now - start:4.1f} s: {games} games\n")
            next_report += 1
    return games, turns, time.perf_counter() - start


def show(path: str, out: TextIO) -> int:
    with open(path, encoding="utf-8") as f:
        record = read(f.read())
    out.write(board_text(replay(record)[-1]) + "\n")
    return 0


# -- Rhombus (and any further game, through engine.game) ------------------------

GAME_NAMES = {"ace": "ace-in-the-hole", **{name: name for name in GAMES}}


def rhombus_position(data: Any, variant: str | None, players: int | None) -> rhombus.State:
    """A position read from the page's format, checked against ``--variant``/``--players`` if given."""
    s = rhombus.from_json(data)
    if variant is not None and s.variant != variant:
        raise EngineError.coded("cli-variant", variant=s.variant, asked=variant)
    if players is not None and len(s.seats) != players:
        raise EngineError.coded("cli-players", players=len(s.seats), asked=players)
    return s


def rhombus_moves_line(data: Any, variant: str | None = None, players: int | None = None) -> dict[str, Any]:
    """The answer of ``moves --game rhombus`` for one position: its legal actions (N14) or result."""
    s = rhombus_position(data, variant, players)
    over = rhombus.outcome(s)
    if over is None:
        return {"over": False, "legal": sorted(str(a) for a in rhombus.legal_actions(s))}
    return {"over": True, "winner": over.winner, "reason": over.reason}


def rhombus_play_line(data: Any, variant: str | None = None, players: int | None = None) -> dict[str, Any]:
    """The answer of ``play --game rhombus`` for one ``{"position": ..., "action": ...}`` object."""
    if not isinstance(data, dict) or "position" not in data or "action" not in data:
        raise EngineError.coded("cli-line", example='{"position": {...}, "action": "KC b1-b3"}')
    s = rhombus_position(data["position"], variant, players)
    return dict(rhombus.to_json(rhombus.apply(s, rhombus.Action.from_json(data["action"]))))


def bench_game(game: Game, seconds: float, seed: int, out: TextIO,
               players: int | None = None, variant: str | None = None) -> float:
    """Random complete games of any registered game through its public API; games per second."""
    def one_game(rng: random.Random) -> int:
        s, turns = game.start(rng.getrandbits(64), players, variant), 0
        while actions := game.legal_actions(s):
            s = game.apply(s, rng.choice(actions))
            turns += 1
        return turns

    games, turns, elapsed = _timed_games(one_game, seconds, seed, out)
    rate = games / elapsed
    kind = f"{game.title} ({variant or game.variants[0]}, {players or game.player_counts[0]} players)"
    out.write(f"{games} random {kind} games in {elapsed:.1f} s on one core: {rate:.0f} games/s, "
              f"{turns / elapsed:.0f} turns/s, {turns / max(games, 1):.1f} turns/game\n")
    return rate


def show_rhombus(path: str, out: TextIO) -> int:
    """``show --game rhombus FILE``: a position (the page's format) or a record's final position."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    position = _position_data(text)
    if position is not None:
        out.write(rhombus_board_text(rhombus.from_json(position)) + "\n")
        return 0
    record: RhombusRecord = read_rhombus(text)
    out.write(rhombus_board_text(replay_rhombus(record)[-1], record.players) + "\n")
    return 0


def _position_data(text: str) -> dict[str, Any] | None:
    """The JSON object of ``text`` if it is a position (it has ``seats``, a record has ``players``)."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None  # read_rhombus names the error
    return data if isinstance(data, dict) and "seats" in data else None


def _game_options(p: argparse.ArgumentParser, *, variant: bool = True) -> None:
    p.add_argument("--game", choices=sorted(GAME_NAMES), default="ace",
                   help="the game (default: ace, Ace in the Hole)")
    if variant:
        p.add_argument("--variant", default=None,
                       help="Rhombus: classic or formation (bench default classic; "
                            "moves and play check the positions against it)")
        p.add_argument("--players", type=int, default=None,
                       help="Rhombus: 2 or 4 (bench default 2; moves and play check the positions)")


def _rhombus_command(args: argparse.Namespace, game: Game) -> int:
    if args.command in ("moves", "play"):
        answer = rhombus_moves_line if args.command == "moves" else rhombus_play_line
        return _each_line(sys.stdin, sys.stdout, lambda data: answer(data, args.variant, args.players))
    if args.command == "bench":
        bench_game(game, args.seconds, args.seed, sys.stdout, args.players, args.variant)
        bench_fast(args.seconds, args.seed, sys.stdout, args.players or 2, args.variant or "classic")
        return 0
    return show_rhombus(args.file, sys.stdout)


def _refuse_options(args: argparse.Namespace, game: Game) -> str | None:
    """Why ``--variant``/``--players`` do not fit the game, or None."""
    variant, players = getattr(args, "variant", None), getattr(args, "players", None)
    if variant is not None and variant not in game.variants:
        return f"{game.title} has the variants {', '.join(game.variants)}, not {variant!r}"
    if players is not None and players not in game.player_counts:
        counts = " or ".join(str(n) for n in game.player_counts)
        return f"{game.title} is played by {counts} players, not {players}"
    return None


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
    a.add_argument("--game", choices=sorted(GAME_NAMES), default="ace",
                   help="the game (default: ace, Ace in the Hole)")
    a.add_argument("--players", type=int, default=2,
                   help="Rhombus: 2, or 4 for the team game (both seats of a team play one level)")


def arena(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run ``python -m engine arena``: progress on ``err``, the result on ``out``."""
    if args.games < 1 or args.jobs < 1 or (args.seconds is not None and args.seconds <= 0):
        err.write("python -m engine arena: --games and --jobs must be at least 1, "
                  "--seconds above 0\n")
        return 2
    game = GAMES[GAME_NAMES[getattr(args, "game", "ace")]]
    players = getattr(args, "players", 2)
    if players not in game.player_counts:
        counts = " or ".join(str(n) for n in game.player_counts)
        err.write(f"python -m engine arena: {game.title} is played by {counts} players, not {players}\n")
        return 2
    budget = f"{args.seconds:g} s per move" if args.seconds else "iteration budgets"
    err.write(f"arena: {args.red} vs {args.black}, {args.games} games, seed {args.seed}, "
              f"{budget}, {args.jobs} job(s)\n")

    def progress(line: str) -> None:
        err.write(line)
        err.flush()

    tally = run_arena(args.red, args.black, args.games, args.seed, args.seconds, args.jobs, progress,
                      game.name, players)
    out.write(tally.report() + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    _game_options(sub.add_parser("moves", help="legal actions of positions read from standard input"))
    _game_options(sub.add_parser("play", help="apply actions to positions read from standard input"))
    b = sub.add_parser("bench", help="random complete games per second")
    b.add_argument("--seconds", type=float, default=5.0)
    b.add_argument("--seed", type=int, default=0)
    _game_options(b)
    s = sub.add_parser("show", help="a record's final position as a text board "
                                    "(Rhombus: also a position)")
    s.add_argument("file")
    _game_options(s, variant=False)
    _arena_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "arena":
        return arena(args, sys.stdout, sys.stderr)
    game = GAMES[GAME_NAMES[args.game]]
    refused = _refuse_options(args, game)
    if refused is not None:
        parser.error(refused)
    if game.name == "rhombus":
        return _run_rhombus(args, game)
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


def _run_rhombus(args: argparse.Namespace, game: Game) -> int:
    try:
        return _rhombus_command(args, game)
    except (OSError, EngineError, UnicodeDecodeError, NotImplementedError) as e:
        sys.stderr.write(f"python -m engine {args.command}: {e}\n")
        return 1
