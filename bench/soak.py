"""Soak: games played over real websockets while their sockets come and go;
counts the sockets left behind (issue 10).

    .venv/bin/python bench/soak.py --games 1000 [--at-once 200] [--servers 2] [--think 1] [--beat S]

Needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis), and like bench/live_play.py
uses its own database on that server (``aceweb_soak``) and its own Redis
database (15), flushed at the start and the end. Per game there are four
sockets: Red and Black (on different daphne processes, so updates cross Redis),
a logged-in spectator and an anonymous ``?watch=1`` one. While the game is
played, spectators leave and come back, a player's socket closes and the player
reconnects, a share of the games ends by resignation (``--resigning``, 0.1),
and the game page, the replay and both records are loaded. Players take a
moment before each move (``--think``, the mean in seconds): a machine driven
past what it can serve delays updates by more than a beat, which would count.

A socket is **stalled** when an update never reached it: a player whose socket
never showed the ply it was to act on (the game then stops there), or any socket
still open that never came to the game's final ply and status. The servers'
heartbeat is off by default, so that nothing covers a lost update up; with
``--beat S`` it runs, and the sockets the server had to send the state unasked
are counted too (under a load beyond the machine, a late update counts there as
well). The last line printed is stalled sockets per 1,000 games; the goal is 0.
Only loopback addresses; every wait has a timeout, and the whole run has one.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.live_play import (  # noqa: E402
    HOST, Client, GameSpec, create_games, drain, flush_redis, log_directory, login_cookie,
    prepare_services, say, server_env, start_servers, stop_servers,
)

DEFAULT_DB_NAME = "aceweb_soak"
DEFAULT_REDIS_DB = 15
NO_BEAT = 3600.0  # seconds: the heartbeat, off for the length of any run
CHURN = 0.04  # per ply: chance that the spectator, the watcher, a player leaves and comes back
PAGE_LOADS = 0.05  # per ply: chance of loading one of the game's pages


@dataclass
class Tally:
    games: int = 0
    moves: int = 0
    sockets: int = 0
    stuck: int = 0  # sockets that never showed a state they were due: an update was lost
    resent: int = 0  # with the heartbeat on: sockets sent the state unasked (lost or late)
    pages: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def stalled(self) -> int:
        return self.resent + self.stuck

    def report(self) -> str:
        per_1000 = 1000 * self.stalled / self.games if self.games else float("nan")
        return "\n".join([
            f"games: {self.games}, moves: {self.moves}, sockets opened: {self.sockets}, "
            f"pages loaded: {self.pages}",
            f"sockets that never showed a state they were due: {self.stuck}",
            f"sockets sent the state unasked by the heartbeat (lost or late): {self.resent}",
            f"errors: {len(self.errors)}", *(f"  {e}" for e in self.errors[:10]),
            f"stalled sockets per 1,000 games: {per_1000:.2f}",
        ])


class Follower:
    """One socket, read all the time: the latest state, and how many ``sync``
    frames came (the first is the one every socket gets on opening)."""

    def __init__(self, client: Client, name: str) -> None:
        self.client, self.name = client, name
        self.state: dict[str, Any] = {}
        self.syncs = 0  # the first comes on opening; others, only from the heartbeat
        self.open = True
        self.errors: list[str] = []
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(self._follow())

    async def _follow(self) -> None:
        while True:
            _, message = await self.client.messages.get()
            if message is None:
                self.open = False
            elif message["type"] in ("sync", "update"):
                self.syncs += message["type"] == "sync"
                if message["ply"] >= self.state.get("ply", -1):
                    self.state = message
            elif message["type"] == "error":
                self.errors.append(message["message"])
            self.changed.set()
            if message is None:
                return

    @property
    def step(self) -> tuple[int, str] | None:
        return (self.state["ply"], self.state["game"]["status"]) if self.state else None

    async def until(self, done: Callable[[Follower], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not done(self):
            if not self.open or self.errors or time.monotonic() > deadline:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), deadline - time.monotonic())
            except asyncio.TimeoutError:
                return done(self)
        return True

    async def close(self) -> None:
        await self.client.close()
        await asyncio.wait_for(self.task, 10)


@dataclass
class Plan:
    """How the games go: how fast, and how many end by resignation."""

    think: float = 1.0
    resigning: float = 0.1
    beat: float = NO_BEAT  # the servers' GAME_BEAT_SECONDS
    timeout: float = 20.0  # for any one wait: a socket's sync, a move's answer


@dataclass
class Table:
    """One game's sockets, as people open and close them."""

    spec: GameSpec
    ports: Sequence[int]
    spectator_cookie: str
    tally: Tally
    plan: Plan
    sockets: dict[str, Follower] = field(default_factory=dict)
    gone: list[Follower] = field(default_factory=list)  # closed on purpose: counted at the end

    async def open(self, who: str) -> Follower:
        seat_port = {"red": 0, "black": 1}.get(who, random.randrange(len(self.ports)))
        port = self.ports[(self.spec.index + seat_port) % len(self.ports)]
        cookie = {"red": self.spec.cookies["red"], "black": self.spec.cookies["black"],
                  "spectator": self.spectator_cookie}.get(who)
        path = f"/ws/games/{self.spec.id}/" + ("?watch=1" if who == "watcher" else "")
        headers = {"Origin": f"http://{HOST}:{port}"}
        if cookie:
            headers["Cookie"] = f"sessionid={cookie}"
        client = await asyncio.wait_for(Client.connect(port, path, headers), self.plan.timeout)
        follower = self.sockets[who] = Follower(client, who)
        self.tally.sockets += 1
        if not await follower.until(lambda f: bool(f.state), self.plan.timeout):
            raise RuntimeError(f"game {self.spec.id}: the {who}'s socket got no sync")
        return follower

    async def reopen(self, who: str) -> None:
        leaving = self.sockets.pop(who)
        await leaving.close()
        self.gone.append(leaving)
        await self.open(who)


async def play(spec: GameSpec, ports: Sequence[int], spectator_cookie: str, seed: str, tally: Tally,
               plan: Plan) -> None:
    rng = random.Random(f"{seed}-{spec.index}")
    table = Table(spec, ports, spectator_cookie, tally, plan)
    try:
        for who in ("red", "black", "spectator", "watcher"):
            await table.open(who)
        resign_at = rng.randint(1, 40) if rng.random() < plan.resigning else None
        final = await _play_out(table, rng, resign_at)
        await _check_the_end(table, final)
    except Stuck as stuck:
        tally.stuck += 1
        tally.errors.append(f"game {spec.id}: {stuck}")
    except Exception as error:  # noqa: BLE001 - one game's failure is counted, the others go on
        tally.errors.append(f"game {spec.id}: {type(error).__name__} {error}")
    finally:
        for follower in table.sockets.values():
            await follower.close()
    tally.games += 1


class Stuck(Exception):
    """A player's socket never showed the ply it was to act on."""


async def _play_out(table: Table, rng: random.Random, resign_at: int | None) -> tuple[int, str]:
    """Play to the end: the mover acts once its own socket shows the ply. The
    final (ply, status), as the socket of the player who ended the game saw it."""
    ply = 0
    while True:
        red = table.sockets["red"]
        if not await red.until(lambda f: f.state["ply"] >= ply or not _running(f), table.plan.timeout):
            raise Stuck(f"red never reached ply {ply}: {red.errors}")
        if not _running(red):
            return red.step  # type: ignore[return-value]
        mover = table.sockets[red.state["to_move"]]
        if not await mover.until(lambda f: f.state["ply"] >= ply, table.plan.timeout):
            raise Stuck(f"{mover.name} never reached ply {ply}: {mover.errors}")
        await _churn(table, rng, mover.name)
        await asyncio.sleep(rng.uniform(0, 2 * table.plan.think))
        if ply == resign_at:
            mover.client.send_json({"type": "resign"})
        else:
            mover.client.send_json({"type": "act", "ply": ply, "action": rng.choice(mover.state["legal"])})
        if not await mover.until(lambda f: f.step != (ply, "running"), table.plan.timeout):
            raise RuntimeError(f"{mover.name}'s action at ply {ply} was not answered: {mover.errors}")
        table.tally.moves += 1
        if not _running(mover):
            return mover.step  # type: ignore[return-value]
        ply += 1


def _running(follower: Follower) -> bool:
    return bool(follower.state["game"]["status"] == "running")


async def _churn(table: Table, rng: random.Random, mover: str) -> None:
    """People come and go (never the player about to act); pages are loaded."""
    for who in ("spectator", "watcher", "black" if mover == "red" else "red"):
        if rng.random() < CHURN:
            await table.reopen(who)
    if rng.random() < PAGE_LOADS:
        page = rng.choice(["", "replay/", "record.json", "record.txt"])
        await _get(table.ports[0], f"/games/{table.spec.id}/{page}")
        table.tally.pages += 1


async def _get(port: int, path: str) -> None:
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n\r\n".encode())
    await reader.read()
    writer.close()


async def _check_the_end(table: Table, final: tuple[int, str]) -> None:
    """Every socket still open must come to the final state; and none of them, nor
    any closed on the way, may have needed the state sent unasked."""
    wait = table.plan.timeout
    for follower in table.sockets.values():
        if not await follower.until(lambda f: f.step == final, wait):
            table.tally.stuck += 1
            table.tally.errors.append(f"game {table.spec.id}: the {follower.name}'s socket stayed at "
                                      f"{follower.step}, the game ended at {final}")
    table.tally.resent += sum(f.syncs > 1 for f in [*table.sockets.values(), *table.gone])


async def soak(specs: Sequence[GameSpec], ports: Sequence[int], spectators: Sequence[str], seed: str,
               at_once: int, plan: Plan, total_timeout: float) -> Tally:
    tally = Tally()
    gate = asyncio.Semaphore(at_once)

    async def one(spec: GameSpec) -> None:
        async with gate:
            await play(spec, ports, spectators[spec.index % len(spectators)], seed, tally, plan)

    ticker = asyncio.create_task(_progress(tally, len(specs)))
    try:
        await asyncio.wait_for(asyncio.gather(*(one(spec) for spec in specs)), total_timeout)
    except asyncio.TimeoutError:
        tally.errors.append(f"global timeout ({total_timeout:.0f} s) reached")
    finally:
        ticker.cancel()
    return tally


async def _progress(tally: Tally, total: int) -> None:
    started = time.monotonic()
    while True:
        await asyncio.sleep(5)
        say(f"{tally.games}/{total} games, {tally.moves} moves, {tally.sockets} sockets, "
            f"{tally.stalled} stalled, {time.monotonic() - started:.0f} s")


def run_soak(*, games: int, database_url: str, redis_url: str, servers: int = 2, at_once: int = 200,
             seed: str = "1", plan: Plan | None = None, total_timeout: float = 900.0, debug: bool = False,
             log_dir: Path | None = None) -> Tally:
    """Play GAMES games (AT_ONCE at a time) through SERVERS daphne processes.
    Django must already be set up on DATABASE_URL."""
    from django.db import connections

    specs = create_games(games, seed)
    spectators = [login_cookie(user) for user in _spectators(max(1, games // 10))]
    connections.close_all()
    plan = plan or Plan()
    env = server_env(database_url, redis_url, debug, GAME_BEAT_SECONDS=str(plan.beat))
    with log_directory(log_dir) as logs:
        started = []
        try:
            started = start_servers(servers, env, logs)
            say(f"daphne on port(s) {', '.join(str(s.port) for s in started)}; {games} games, "
                f"{at_once} at a time, 4 sockets each")
            ports = [s.port for s in started]
            tally = asyncio.run(soak(specs, ports, spectators, seed, at_once, plan, total_timeout))
            drain(ports)
        finally:
            stop_servers(started)
    connections.close_all()
    return tally


def _spectators(count: int) -> list[Any]:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    tag = os.urandom(3).hex()
    User = get_user_model()
    return [User.objects.create(username=f"soak-{tag}-{i}", password=make_password(None)) for i in range(count)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games in all (default 1000)")
    parser.add_argument("--at-once", type=int, default=200, help="games at a time (default 200)")
    parser.add_argument("--servers", type=int, default=2, help="daphne processes (default 2)")
    parser.add_argument("--db-name", default=DEFAULT_DB_NAME)
    parser.add_argument("--redis-db", type=int, default=DEFAULT_REDIS_DB)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds before each move (default 1)")
    parser.add_argument("--beat", type=float, default=NO_BEAT,
                        help="the servers' heartbeat, s (default: off, so that nothing covers a loss up)")
    parser.add_argument("--resigning", type=float, default=0.1,
                        help="share of games ended by a resignation (default 0.1)")
    parser.add_argument("--timeout", type=float, default=1800, help="global timeout, s (default 1800)")
    parser.add_argument("--logs", type=Path, help="keep the daphne logs in this folder")
    args = parser.parse_args(argv)
    if args.games < 1 or args.servers < 1 or args.at_once < 1:
        parser.error("--games, --at-once and --servers must be at least 1")
    prepared = prepare_services(args.db_name, args.redis_db, debug=False)
    if prepared is None:
        return 2
    _, bench_db, bench_redis = prepared
    try:
        import django

        django.setup()
        tally = run_soak(games=args.games, database_url=bench_db, redis_url=bench_redis,
                         servers=args.servers, at_once=args.at_once, seed=args.seed,
                         plan=Plan(think=args.think, resigning=args.resigning, beat=args.beat),
                         total_timeout=args.timeout, log_dir=args.logs)
        print(tally.report(), flush=True)
        return 0 if not tally.stalled and not tally.errors else 1
    finally:
        flush_redis(bench_redis)


if __name__ == "__main__":
    sys.exit(main())
