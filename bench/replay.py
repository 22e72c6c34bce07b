"""Replay benchmark: how long the replay page of a long game takes to build (issue 22, finding 4).

    .venv/bin/python bench/replay.py [--plies 2000] [--runs 3] [--seed bench] [--tries 10] [--keep DIR]

Plays TRIES games of each kind by seeded random playouts (the engine's fast
playout moves, written as the public engine's canonical actions) and keeps
the longest: Ace in the Hole, Rhombus classic with 2 and 4 players, Formation
with 2 and 4 players, each to its end or to PLIES actions, whichever comes
first. Then it
posts each record, as its JSON, to the record import page (`/games/import/`)
through Django's test client, in process: reading the record, replaying it
against the rules and its commitment, every step's view and hands, and the
template, which is the work a stored game's replay page does less its
database query. It prints, per game kind, the plies, the median wall and CPU
time (``time.process_time``) of RUNS builds (after one warm-up), the page's
size, and the machine's load average before and after, as the VM is shared. With ``--keep DIR`` the
records are written there, and read back on the next run: two versions of
the code then build the very same games.

Needs no database or Redis: the import page stores nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import ace, rhombus  # noqa: E402
from engine.record import Record, RhombusRecord  # noqa: E402
from engine.rhombus import fastplay  # noqa: E402

KINDS = (  # (name, players, variant); None: Ace in the Hole
    ("Ace in the Hole", 2, None),
    ("Rhombus classic, 2 players", 2, "classic"),
    ("Rhombus classic, 4 players", 4, "classic"),
    ("Formation, 2 players", 2, "formation"),
    ("Formation, 4 players", 4, "formation"),
)
NAMES = ("ann", "ben", "cat", "dan")


def ace_record(seed: str, plies: int) -> Record:
    """An Ace in the Hole game of random legal actions (it ends within 52 turns, R16)."""
    rng = random.Random(seed)
    record = Record.start(seed, "ann", "ben")
    s = ace.new_game(seed)
    actions = []
    while len(actions) < plies and ace.outcome(s) is None:
        action = rng.choice(ace.legal_actions(s))
        actions.append(action)
        s = ace.apply(s, action)
    return _finished(Record(record.commitment, record.red, record.black, seed, tuple(actions)), ace.outcome(s))


def rhombus_record(seed: str, players: int, variant: str, plies: int) -> RhombusRecord:
    """A Rhombus game of random moves (:func:`engine.rhombus.fastplay.random_move`), at most ``plies`` long."""
    rng = random.Random(seed)
    start = RhombusRecord.start(seed, list(NAMES[:players]), variant=variant)
    s = start.new_game()
    actions = []
    while len(actions) < plies:
        move = fastplay.random_move(fastplay.Sim(s), rng)
        if move is None:
            break
        action = fastplay.to_action(s, move)
        actions.append(action)
        s = rhombus.apply(s, action)
    record = RhombusRecord(start.commitment, start.players, variant, start.dealer, seed, tuple(actions))
    return _finished(record, rhombus.outcome(s))


def _finished(record: Record | RhombusRecord, over: ace.Outcome | rhombus.Outcome | None) -> Record | RhombusRecord:
    """The record with its result when the rules ended the game; still running when it was cut."""
    if over is None:
        return record
    return replace(record, winner=over.winner, reason=over.reason)


@dataclass
class Case:
    kind: str
    plies: int
    wall_ms: float  # median of the runs
    cpu_ms: float
    page_kb: float

    def line(self) -> str:
        return (f"{self.kind:<28} {self.plies:5d} plies {self.wall_ms:8.1f} ms wall {self.cpu_ms:8.1f} ms CPU"
                f" {self.page_kb:7.0f} kB")


def build_page(text: str) -> tuple[float, float, int]:
    """One import page build of ``text`` through the test client: (wall ms, CPU ms, bytes)."""
    from django.test import Client
    client = Client(HTTP_HOST="127.0.0.1")
    wall, cpu = time.perf_counter(), time.process_time()
    response = client.post("/games/import/", {"record": text})
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if response.status_code != 200:
        raise RuntimeError(f"the import page answered {response.status_code}: {response.content[:300]!r}")
    return wall * 1000, cpu * 1000, len(response.content)


def longest(players: int, variant: str | None, plies: int, seed: str, tries: int) -> Record | RhombusRecord:
    """The longest of ``tries`` random games of a kind (seeds ``SEED-0``, ``SEED-1``, ...), at most ``plies`` long."""
    games = (ace_record(f"{seed}-{i}", plies) if variant is None else
             rhombus_record(f"{seed}-{i}", players, variant, plies) for i in range(tries))
    return max(games, key=lambda record: len(record.actions))


def record_text(kind: str, players: int, variant: str | None, plies: int, seed: str, tries: int,
                keep: Path | None) -> tuple[str, int]:
    """The JSON of the kind's longest game and its plies; kept in (or read from) ``keep`` when given,
    so that two versions of the code can build the very same games."""
    path = None if keep is None else keep / f"{kind.replace(' ', '_').replace(',', '')}-{plies}-{seed}.json"
    if path is not None and path.exists():
        text = path.read_text()
        return text, len(json.loads(text)["actions"])
    record = longest(players, variant, plies, seed, tries)
    text = json.dumps(record.to_json())
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return text, len(record.actions)


def measure(plies: int, runs: int, seed: str, tries: int = 1, keep: Path | None = None) -> list[Case]:
    cases = []
    for kind, players, variant in KINDS:
        text, length = record_text(kind, players, variant, plies, seed, tries, keep)
        build_page(text)  # warm-up: imports, templates, URL resolver
        times = [build_page(text) for _ in range(runs)]
        cases.append(Case(kind, length, statistics.median(t[0] for t in times),
                          statistics.median(t[1] for t in times), times[-1][2] / 1024))
    return cases


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} CPUs)"


def report(cases: Sequence[Case], runs: int, before: str, after: str) -> str:
    lines = [f"replay pages: median of {runs} builds each, through the import page", f"before: {before}"]
    lines += [case.line() for case in cases]
    lines.append(f"after: {after}")
    lines.append(f"slowest: {max(c.wall_ms for c in cases):.1f} ms wall")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=2000, help="the longest game, in actions")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--tries", type=int, default=10, help="random games per kind; the longest is built")
    parser.add_argument("--keep", type=Path, help="a directory to keep the games' records in and read them from")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceweb.settings")
    import django
    django.setup()
    before = load()
    cases = measure(args.plies, args.runs, args.seed, args.tries, args.keep)
    print(report(cases, args.runs, before, load()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
