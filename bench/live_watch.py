"""Watchers benchmark (issue 26): the live list and TV with many games and watchers.

    .venv/bin/python bench/live_watch.py [--games 1000] [--watchers 2000] [--seconds 60] [--rate 40]
        [--db-name aceweb_bench_watch] [--redis-db 2] [--drop]

Needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis) on loopback; it uses its
own database (``--db-name``) and Redis database (``--redis-db``, flushed), as
bench/live_play.py does, whose helpers it shares. It

1. creates ``--games`` running games directly through the ORM (games.starting.start_game,
   so each has its rating snapshot): Ace in the Hole mostly, a tenth Rhombus, a
   twentieth Rhombus of four, across the site's time controls, players rated
   800..2400 at random (seeded);
2. starts ONE daphne (real, the Redis channel layer, persistent connections);
3. opens ``--watchers`` websockets to /ws/live/, signed out, spread as visitors
   are: half the home page's panel (``home=1``: six boards and the top-rated TV),
   a quarter the live list (page 1 or 2, some filtered by game or speed), a
   quarter TV (``tv=ace&tv=rhombus&tv=rhombus-4``), at most 50 opening at once;
4. drives for ``--seconds``: ``--rate`` moves a second, half on the games the
   pages show (the best rated of each kind), half on any game, each played as
   its player through games.moving.submit (the site's own move, committed and
   announced as a socket's move is); and every ``--turnover`` seconds the best
   rated game ends by resignation (TV goes on to the next, the lists close up)
   and a new one starts above every other (it appears at the top);
5. prints the delivery latency of changes to watchers, p50/p95/p99/max: a board
   frame from just before the move was submitted until it arrived on a watcher;
   a list frame from just before the game started or ended until a watcher's
   list shows it or no longer does; the frames per second; daphne's CPU per
   change (move, start or end) and per delivered frame; the load average
   before and after. It fails (exit 1) if p99 is over ``--goal-ms`` (500).

The driver runs in this process; the watchers in ``--clients`` processes of
their own (2), so that the clients' reading does not delay the driver's clock
readings or the other way round. Times come from one clock for all of them
(time.perf_counter, Linux's CLOCK_MONOTONIC). Loopback only; every wait is
bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import random
import secrets
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.live_play import (  # noqa: E402
    HOST, Client, cpu_seconds, cpu_used, database_name, drain, log_directory, run_on_services, say, server_env,
    start_servers, stop_servers, tail,
)

DEFAULT_DB_NAME = "aceweb_bench_watch"
DEFAULT_REDIS_DB = 2
CONNECT_CONCURRENCY = 50
CONTROLS = ("3+2", "5+3", "10+5", "1+0", "3d")
SHOWN_PER_KIND = 15  # the best rated games of each kind: what the pages and TV show
SETTLE_SECONDS = 3.0  # after the drive: frames still on their way


# --- Setting up (Django ORM) ------------------------------------------------


@dataclass
class Table:
    id: int
    kind: str  # a key of games.live.GAMES
    rating: int
    players: list[Any]  # users, in seat order
    began: float = 0.0  # just before it was started (perf_counter)


def create_games(count: int, seed: str, first: int = 0, rating: int | None = None) -> list[Table]:
    """COUNT running games with rated players, clocks long and started (the first-move
    window would abort them while 2,000 sockets open)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction
    from django.utils import timezone

    from games import live, starting
    from games.models import Game
    from games.timecontrols import TimeControl
    from ladder.models import Player, Rating

    rng = random.Random(f"{seed}-{first}")
    User = get_user_model()
    unusable = make_password(None)
    kinds = [("rhombus-4" if i % 20 == 0 else "rhombus" if i % 10 == 0 else "ace") for i in range(first, first + count)]
    seats = sum(4 if kind == "rhombus-4" else 2 for kind in kinds)
    tag = f"{seed}-{first}-{secrets.token_hex(3)}"  # a kept database holds earlier runs' users
    with transaction.atomic():
        users = User.objects.bulk_create([User(username=f"w-{tag}-{i}", password=unusable) for i in range(seats)])
        ratings = [rating if rating is not None else rng.randint(800, 2400) for _ in users]
        Player.objects.bulk_create([Player(user=u, rating=r, rated_games=30) for u, r in zip(users, ratings)])
        Rating.objects.bulk_create([Rating(user=u, ladder=ladder, rating=r, rated_games=30)
                                    for u, r in zip(users, ratings) for ladder in ("rhombus", "rhombus-teams")])
        tables: list[Table] = []
        at = 0
        for i, kind in enumerate(kinds):
            rules, n = live.GAMES[kind]
            players = users[at:at + n]
            at += n
            control = TimeControl.parse(CONTROLS[(first + i) % len(CONTROLS)])
            if not control.correspondence:
                control = TimeControl(3 * 3600, control.increment_seconds)  # nobody flags during a bench
            began = time.perf_counter()
            game = starting.start_game(*players, rated=True, time_control=control, setup=starting.Setup(rules),
                                       seed=f"watch-{seed}-{first + i}")
            tables.append(Table(game.pk, kind, game.rating or 0, list(players), began))
        Game.objects.filter(pk__in=[t.id for t in tables]).update(abort_at=None, turn_started_at=timezone.now())
    return tables


# --- The watchers (client processes of their own) ----------------------------


@dataclass
class Stats:
    changed_at: dict[tuple[int, int], float] = field(default_factory=dict)  # (game, ply) -> before the move
    started_at: dict[int, float] = field(default_factory=dict)  # game -> before it started
    ended_at: dict[int, float] = field(default_factory=dict)  # game -> before it ended
    board_latency: list[float] = field(default_factory=list)  # s
    list_latency: list[float] = field(default_factory=list)
    frames: int = 0
    moves: int = 0
    starts: int = 0
    ends: int = 0
    refused: int = 0  # driver moves refused (a game ended meanwhile): not counted
    errors: list[str] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)
    drive_seconds: float = 0.0
    connect_seconds: float = 0.0
    watched_changes: set[tuple[int, int]] = field(default_factory=set)  # board changes some watcher got


@dataclass
class Heard:
    """What one client process's watchers received, with arrival times
    (time.perf_counter: CLOCK_MONOTONIC, one clock for every process)."""

    boards: list[tuple[int, int, float]] = field(default_factory=list)  # game, ply, at
    shown: list[tuple[int, float]] = field(default_factory=list)  # a game came into a list
    dropped: list[tuple[int, float]] = field(default_factory=list)  # a game left a list
    frames: int = 0
    closed: int = 0  # sockets the server closed
    errors: list[str] = field(default_factory=list)


class Watcher(Client):
    """A live-games socket that notes every change it is shown."""

    heard: Heard  # one a process, set on the class before any opens: frames may come at once

    def __init__(self, *args: Any) -> None:
        self.lists: dict[str, set[int]] = {}
        super().__init__(*args)

    def _received(self, at: float, message: dict[str, Any]) -> None:
        heard = self.heard
        heard.frames += 1
        kind = message.get("type")
        if kind == "boards":
            heard.boards += [(board["id"], board["ply"], at) for board in message["boards"]]
        elif kind == "list":
            shown = {board["id"] for board in message["boards"]}
            before = self.lists.get(message["list"])
            if before is not None:
                heard.shown += [(game_id, at) for game_id in shown - before]
                heard.dropped += [(game_id, at) for game_id in before - shown]
            self.lists[message["list"]] = shown


def watcher_paths(count: int, seed: str) -> list[str]:
    rng = random.Random(f"{seed}-paths")
    lists = ["list=1", "list=1&page=2", "list=1&game=ace", "list=1&game=rhombus", "list=1&speed=blitz",
             "list=1&game=ace&speed=rapid", "list=1&speed=correspondence"]
    paths = []
    for i in range(count):
        share = i % 4
        if share in (0, 1):
            paths.append("/ws/live/?home=1")
        elif share == 2:
            paths.append("/ws/live/?" + rng.choice(lists))
        else:
            paths.append("/ws/live/?tv=ace&tv=rhombus&tv=rhombus-4")
    return paths


def watch_in_process(port: int, paths: list[str], timeout: float, ready: Any, stop: Any, out: Any) -> None:
    """A client process: open the sockets, say so, note frames until told to stop,
    send back what was heard. Watchers apart from the driver, so that neither's
    work delays the other's clock readings (one interpreter, one GIL)."""
    gc.freeze()
    heard = asyncio.run(_watch(port, paths, timeout, ready, stop))
    out.send(heard)
    out.close()


async def _watch(port: int, paths: list[str], timeout: float, ready: Any, stop: Any) -> Heard:
    heard = Heard()
    Watcher.heard = heard
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY // 2)
    headers = {"Origin": f"http://{HOST}:{port}"}

    async def one(path: str) -> Watcher:
        async with gate:
            client = await asyncio.wait_for(Watcher.connect(port, path, headers), timeout)
        assert isinstance(client, Watcher)
        return client

    watchers: list[Watcher] = []
    try:
        watchers = list(await asyncio.gather(*(one(path) for path in paths)))
    except (asyncio.TimeoutError, OSError) as error:
        heard.errors.append(f"while connecting: {type(error).__name__} {error}")
    ready.set()
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, stop.wait, timeout + 3600)
    heard.closed = sum(1 for w in watchers if w.closed.done())
    await asyncio.gather(*(w.close() for w in watchers), return_exceptions=True)
    return heard


# --- The driver (a thread: Django's ORM is synchronous) -----------------------


class Driver:
    def __init__(self, tables: list[Table], stats: Stats, seed: str, rate: float, turnover: float) -> None:
        self.tables = {t.id: t for t in tables}
        self.stats, self.rate, self.turnover = stats, rate, turnover
        self.rng = random.Random(f"{seed}-drive")
        self.seed = seed
        self.made = len(tables)

    def shown(self) -> list[int]:
        """The best rated running games of each kind: those the pages show."""
        by_kind: dict[str, list[Table]] = {}
        for table in self.tables.values():
            by_kind.setdefault(table.kind, []).append(table)
        return [t.id for tables in by_kind.values()
                for t in sorted(tables, key=lambda t: (-t.rating, -t.id))[:SHOWN_PER_KIND]]

    def run(self, seconds: float) -> None:
        from django.db import connections

        try:
            self._run(seconds)
        except Exception as error:  # noqa: BLE001 - reported, the bench fails
            self.stats.errors.append(f"driver: {type(error).__name__}: {error}")
        finally:
            connections.close_all()

    def _run(self, seconds: float) -> None:
        started = time.perf_counter()
        next_turnover = started + self.turnover
        moves = 0
        while True:
            now = time.perf_counter()
            if now - started >= seconds:
                return
            if now >= next_turnover:
                self._turn_over()
                next_turnover += self.turnover
            shown = self.shown()
            game_id = self.rng.choice(shown) if self.rng.random() < 0.5 else self.rng.choice(list(self.tables))
            self._move(game_id)
            moves += 1
            pause = started + moves / self.rate - time.perf_counter()
            if pause > 0:
                time.sleep(pause)

    def _move(self, game_id: int) -> None:
        from games import moving, payloads, refusals, store

        game = store.load(game_id)
        if game is None or not game.running:
            self.tables.pop(game_id, None)
            return
        # A Rhombus view lists none (issue 24).
        legal = [str(a) for a in game.rules.legal_actions(payloads.state_of(game))]
        if not legal:
            return
        user = game.seat(game.to_move).user
        began = time.perf_counter()
        self.stats.changed_at[(game_id, game.ply + 1)] = began
        try:
            after = moving.submit(game_id, user, game.ply, self.rng.choice(legal))
        except refusals.Refusal:
            self.stats.refused += 1
            return
        self.stats.moves += 1
        if not after.running:  # the rules ended it: it leaves the lists
            self.stats.ended_at[game_id] = began
            self.stats.ends += 1
            self.tables.pop(game_id, None)

    def _turn_over(self) -> None:
        """The best game ends (TV goes on), and a new one starts above all."""
        from games import finishing, refusals

        best = max(self.tables.values(), key=lambda t: (t.rating, t.id))
        self.stats.ended_at[best.id] = time.perf_counter()
        try:
            finishing.resign(best.id, best.players[0])
            self.stats.ends += 1
        except refusals.Refusal:
            pass
        self.tables.pop(best.id, None)
        (new,) = create_games(1, self.seed, first=self.made, rating=2500 + self.made)
        self.made += 1
        self.stats.started_at[new.id] = new.began
        self.stats.starts += 1
        self.tables[new.id] = new


# --- Running it -----------------------------------------------------------------


def percentile(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] * 1000


@dataclass
class Result:
    games: int
    watchers: int
    stats: Stats
    goal_ms: float

    @property
    def latencies(self) -> list[float]:
        return self.stats.board_latency + self.stats.list_latency

    @property
    def ok(self) -> bool:
        return not self.stats.errors and bool(self.latencies) and percentile(self.latencies, 99) <= self.goal_ms

    def report(self) -> str:
        s = self.stats
        changes = s.moves + s.starts + s.ends
        lines = [
            f"games: {self.games} running at the start; watchers: {self.watchers} sockets on one daphne "
            f"(opened in {s.connect_seconds:.1f} s)",
            f"driven {s.drive_seconds:.1f} s: {s.moves} moves, {s.starts} games started, {s.ends} ended "
            f"({changes / s.drive_seconds:.1f} changes/s), {s.refused} moves refused",
            f"frames delivered: {s.frames} ({s.frames / s.drive_seconds:.0f}/s); moves seen by some watcher: "
            f"{len(s.watched_changes)}",
            *(f"{name} latency ms: n {len(v)}  p50 {percentile(v, 50):.1f}  p95 {percentile(v, 95):.1f}  "
              f"p99 {percentile(v, 99):.1f}  max {percentile(v, 100):.1f}"
              for name, v in (("board (move -> watcher)", s.board_latency),
                              ("list (start/end -> watcher)", s.list_latency),
                              ("all changes", self.latencies))),
        ]
        if s.cpu and changes and s.frames:
            lines.append(f"daphne CPU: {s.cpu['daphne']:.2f} s; {1000 * s.cpu['daphne'] / changes:.2f} ms a change, "
                         f"{1e6 * s.cpu['daphne'] / s.frames:.1f} us a delivered frame; PostgreSQL "
                         f"{s.cpu['postgres']:.2f} s; this client and driver {s.cpu['client']:.2f} s")
        lines.append(f"goal: p99 <= {self.goal_ms:.0f} ms: {'met' if self.ok else 'NOT met'}")
        lines += [f"errors: {len(s.errors)}", *(f"  {e}" for e in s.errors[:10])]
        return "\n".join(lines)


def watch_and_drive(port: int, pid: int, db_name: str, tables: list[Table], args: Any, stats: Stats) -> None:
    context = multiprocessing.get_context("spawn")
    paths = watcher_paths(args.watchers, args.seed)
    share = -(-len(paths) // args.clients)
    stop = context.Event()
    clients = []
    began = time.perf_counter()
    for n in range(args.clients):
        ready, (mine, theirs) = context.Event(), context.Pipe(duplex=False)
        process = context.Process(target=watch_in_process, daemon=True,
                                  args=(port, paths[n * share:(n + 1) * share], args.connect_timeout, ready, stop,
                                        theirs))
        process.start()
        clients.append((process, ready, mine))
    for _, ready, _ in clients:
        if not ready.wait(args.connect_timeout + 30):
            stats.errors.append("a client process did not open its sockets in time")
    stats.connect_seconds = time.perf_counter() - began
    say(f"{len(paths)} watchers open in {stats.connect_seconds:.1f} s ({args.clients} client processes); settling")
    time.sleep(SETTLE_SECONDS)
    cpu_before = cpu_seconds([pid], db_name)
    started = time.perf_counter()
    Driver(tables, stats, args.seed, args.rate, args.turnover).run(args.seconds)
    stats.drive_seconds = time.perf_counter() - started
    time.sleep(SETTLE_SECONDS)  # the last changes' frames
    stats.cpu = cpu_used(cpu_before, cpu_seconds([pid], db_name))
    stop.set()
    for process, _, mine in clients:
        if mine.poll(60):
            tally(mine.recv(), stats)
        else:
            stats.errors.append("a client process sent nothing back")
        process.join(10)


def tally(heard: Heard, stats: Stats) -> None:
    """Latencies from what a client process heard and when the driver made each change."""
    stats.frames += heard.frames
    stats.errors += heard.errors
    if heard.closed:
        stats.errors.append(f"{heard.closed} watcher sockets were closed by the server")
    for game_id, ply, at in heard.boards:
        began = stats.changed_at.get((game_id, ply))
        if began is not None:
            stats.board_latency.append(at - began)
            stats.watched_changes.add((game_id, ply))
    stats.list_latency += [at - stats.started_at[g] for g, at in heard.shown if g in stats.started_at]
    stats.list_latency += [at - stats.ended_at[g] for g, at in heard.dropped if g in stats.ended_at]


def run_benchmark(database_url: str, redis_url: str, args: Any) -> Result:
    from django.db import connections

    from games.models import Game

    # A database kept from an earlier run (no --drop) holds its games: call them off.
    Game.objects.filter(status=Game.Status.RUNNING).update(status=Game.Status.ABORTED)
    say(f"creating {args.games} games")
    tables = create_games(args.games, args.seed)
    connections.close_all()
    stats = Stats()
    with log_directory(args.logs) as logs:
        servers = start_servers(1, server_env(database_url, redis_url, args.debug), logs)
        try:
            watch_and_drive(servers[0].port, servers[0].process.pid, database_name(database_url), tables, args,
                            stats)
            drain([servers[0].port])
        except OSError as error:
            stats.errors.append(f"{type(error).__name__}: {error}; daphne's log ends:\n{tail(servers[0].log, 30)}")
        finally:
            stop_servers(servers)
    return Result(args.games, args.watchers, stats, args.goal_ms)


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="running games at the start (default 1000)")
    parser.add_argument("--watchers", type=int, default=2000, help="live-games sockets (default 2000)")
    parser.add_argument("--seconds", type=float, default=60, help="how long the driver plays (default 60)")
    parser.add_argument("--rate", type=float, default=40, help="moves a second (default 40)")
    parser.add_argument("--turnover", type=float, default=3, help="a game ends and one starts every T s (default 3)")
    parser.add_argument("--goal-ms", type=float, default=500, help="p99 delivery goal (default 500)")
    parser.add_argument("--connect-timeout", type=float, default=120, help="opening the sockets, s (default 120)")
    parser.add_argument("--db-name", default=DEFAULT_DB_NAME, help=f"default {DEFAULT_DB_NAME}")
    parser.add_argument("--redis-db", type=int, default=DEFAULT_REDIS_DB, help=f"default {DEFAULT_REDIS_DB}")
    parser.add_argument("--clients", type=int, default=2, help="client processes holding the watchers (default 2)")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--logs", type=Path, help="keep daphne's log in this folder")
    parser.add_argument("--drop", action="store_true", help="drop the bench database at the end")
    parser.add_argument("--debug", action="store_true", help="run daphne with DEBUG=true (default false)")
    args = parser.parse_args(argv)
    if args.games < 20 or args.watchers < 1:
        parser.error("--games must be at least 20 and --watchers at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    return run_on_services(args.db_name, args.redis_db, args.debug, args.drop,
                           lambda database_url, redis_url: run_benchmark(database_url, redis_url, args))


if __name__ == "__main__":
    sys.exit(main())
