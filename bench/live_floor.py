"""The floor under a live move: daphne's CPU a move when the site does nothing
but carry it (issue 24).

    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python bench/live_floor.py \\
        [--games 500] [--four 0] [--moves 50] [--think 2] [--servers 2] [--redis-db 15]

Starts ``--servers`` daphne processes serving ``bench/floor_app.py`` on the
Redis channel layer (its own Redis database, flushed before and after), opens
two sockets a game (four in ``--four`` games), each seat on another process
than the one before it as in ``bench/live_play.py``, and plays ``--moves``
"moves" a game at ``--think`` seconds on average between them: each move a
frame in, a hop to a database thread and back, an Ace in the Hole update to
the mover, one group message through Redis, and in each other seat's process
a hop and the update to that seat. (``--four`` games stand for Rhombus games
of four in the mixed run; their frames here are the Ace frame.) No database, no
rules, no sessions. It prints daphne's CPU a move, beside the load, as
``bench/live_play.py`` does: what ``live_play.py`` measures above it is the
game's own work (loads, the move's write, views, presence, clocks,
notifications), the only part code in ``games/`` can cut.

Only loopback addresses; every wait is bounded (``--move-timeout``,
``--timeout``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.live_play import (HOST, Client, cpu_seconds, cpu_used, drain, flush_redis,  # noqa: E402
                             log_directory, say, start_servers, stop_servers, with_path)

APP = "bench.floor_app:application"


async def play(tables: Sequence[Sequence[Client]], moves: int, think: float, seed: str,
               move_timeout: float) -> list[float]:
    """Every game's moves, the seats taking turns; each move's round trip (s),
    from the act sent to the update on every seat's socket."""
    trips: list[float] = []

    async def game(index: int, seats: Sequence[Client]) -> None:
        pause = random.Random(f"{seed}-{index}")
        for ply in range(moves):
            if think:
                await asyncio.sleep(pause.uniform(0, 2 * think))
            sent = time.perf_counter()
            seats[ply % len(seats)].send_json({"type": "act", "ply": ply})
            for sock in seats:
                await asyncio.wait_for(sock.next_state(ply + 1), max(0.001, sent + move_timeout - time.perf_counter()))
            trips.append(time.perf_counter() - sent)

    await asyncio.gather(*(game(i, seats) for i, seats in enumerate(tables)))
    return trips


async def drive(games: int, four: int, ports: Sequence[int], pids: Sequence[int], moves: int, think: float,
                seed: str, move_timeout: float, total_timeout: float) -> tuple[list[float], float, dict[str, float]]:
    """Open the sockets, wait for the servers to settle, play; the round trips,
    the wall time of the play and the CPU used while playing."""
    gate = asyncio.Semaphore(50)

    async def open_seat(game: int, seat: int) -> Client:
        port = ports[(game + seat) % len(ports)]
        async with gate:
            client = await asyncio.wait_for(
                Client.connect(port, f"/ws/games/{game + 1}/", {"Origin": f"http://{HOST}:{port}"}), move_timeout)
        await asyncio.wait_for(client.next_state(0), move_timeout)
        return client

    async def open_game(game: int) -> list[Client]:
        return list(await asyncio.gather(*(open_seat(game, seat) for seat in range(2 if game < games else 4))))

    tables = await asyncio.gather(*(open_game(g) for g in range(games + four)))
    try:
        await asyncio.get_running_loop().run_in_executor(None, drain, ports)
        before, started = cpu_seconds(pids, ""), time.perf_counter()
        trips = await asyncio.wait_for(play(tables, moves, think, seed, move_timeout), total_timeout)
        wall = time.perf_counter() - started
        return trips, wall, cpu_used(before, cpu_seconds(pids, ""))
    finally:
        await asyncio.gather(*(sock.close() for seats in tables for sock in seats), return_exceptions=True)


def percentile(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] * 1000


@dataclass
class Floor:
    servers: int
    games: int
    four: int  # of them, games of four seats
    trips: list[float]  # each move's round trip, s
    wall: float  # s
    cpu: dict[str, float]  # s used while playing, by whom

    def report(self) -> str:
        moves = len(self.trips)
        return "\n".join([
            f"servers: {self.servers} daphne process(es) serving {APP}",
            f"games: {self.games} ({self.four} of four seats), moves: {moves}, "
            f"wall time: {self.wall:.2f} s, moves/s: {moves / self.wall:.1f}",
            f"round trip ms (act sent -> update on every seat's socket): p50 {percentile(self.trips, 50):.1f}  "
            f"p99 {percentile(self.trips, 99):.1f}  max {percentile(self.trips, 100):.1f}",
            f"cpu ms per move (while playing): daphne {1000 * self.cpu['daphne'] / moves:.2f}  "
            f"client {1000 * self.cpu['client'] / moves:.2f}"])


def run_floor(*, games: int, four: int = 0, moves: int, think: float, servers: int, redis_url: str, seed: str = "1",
              move_timeout: float = 10, total_timeout: float = 600) -> Floor:
    """Serve the floor app from SERVERS daphne processes on REDIS_URL and play
    GAMES games of two seats and FOUR of four."""
    env = dict(os.environ, REDIS_URL=redis_url, DEBUG="false", HTTPS="false", PYTHONUNBUFFERED="1",
               DJANGO_SETTINGS_MODULE="aceweb.settings", SECRET_KEY="floor-bench-" + "x" * 40)
    env.pop("DATABASE_URL", None)  # the floor touches no database
    with log_directory(None) as logs:
        started = start_servers(servers, env, logs, app=APP)
        try:
            ports, pids = [s.port for s in started], [s.process.pid for s in started]
            trips, wall, cpu = asyncio.run(drive(games, four, ports, pids, moves, think, seed, move_timeout,
                                                 total_timeout))
        finally:
            stop_servers(started)
    return Floor(servers, games + four, four, trips, wall, cpu)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="games played at once (default 500)")
    parser.add_argument("--four", type=int, default=0,
                        help="games of four seats beside them, each move reaching three other sockets (default 0)")
    parser.add_argument("--moves", type=int, default=50, help="moves a game (default 50, a live Ace game's mean)")
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds between a game's moves (default 2)")
    parser.add_argument("--servers", type=int, default=2, help="daphne processes (default 2)")
    parser.add_argument("--redis-db", type=int, default=15, help="the bench's own Redis database, flushed (default 15)")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--move-timeout", type=float, default=10)
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args(argv)
    base = os.environ.get("REDIS_URL", "")
    host = urlsplit(base).hostname or ""
    if not base.startswith("redis://") or not (host == "localhost" or host.startswith("127.")):
        say("REDIS_URL must name a Redis server on loopback (e.g. redis://127.0.0.1:6379/0)")
        return 2
    if args.redis_db == 0:
        say("--redis-db 0 is where real data lives; pick another")
        return 2
    redis_url = with_path(base, f"/{args.redis_db}")
    flush_redis(redis_url)
    load = os.getloadavg()
    say(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    try:
        floor = run_floor(games=args.games, four=args.four, moves=args.moves, think=args.think, servers=args.servers,
                          redis_url=redis_url, seed=args.seed, move_timeout=args.move_timeout,
                          total_timeout=args.timeout)
    finally:
        flush_redis(redis_url)
    print(floor.report(), flush=True)
    load = os.getloadavg()
    say(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0 if len(floor.trips) == (args.games + args.four) * args.moves else 1


if __name__ == "__main__":
    sys.exit(main())
