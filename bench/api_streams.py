"""API streams benchmark: how many NDJSON streams one daphne holds, and how
fast a move played over the HTTP API reaches the opponent's stream.

    .venv/bin/python bench/api_streams.py [--max-streams 4000] [--games 100] [--moves 40] [--servers 1] [--drop]

Needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis), and like bench/live_play.py
(whose service set-up, daphne start and stop, game creation, CPU accounting and
database check it imports) uses its own database on that server
(``aceweb_bench_api``) and its own Redis database (9), flushed at the start and
the end. The daphne processes get a short keep-alive interval
(``--keepalive``, 2 s) and rate limits too high to matter. It prints figures
only; it fails (non-zero) on errors, never on speed.

1. Capacity. One daphne; users and tokens made through the ORM. Event streams
   (GET /api/stream/event) are opened in steps (``--first-step`` 50, doubling,
   up to ``--max-streams``), at most ``--connects`` connects in flight, all kept
   open. After each step every stream must have its first (empty) line, and then
   a keep-alive within 3 intervals. Per step: streams open, seconds to open the
   step, daphne's RSS, its CPU % with only the keep-alives going, its file
   descriptors. It stops at the first step that fails (refused, timed out, first
   line missing, silent) and names the largest step held. A step that would
   leave the PostgreSQL server fewer than ``--pg-headroom`` free connections
   is not tried, reckoning with the connections per stream the last step
   measured (a stream held one of its own until the token check moved to the
   sockets' database threads; a full server fails every other user of it too). The PG column counts
   the PostgreSQL connections to the bench database at each step (from /proc). At that step, a sample
   of the users (``--sample``, 200) is challenged one after the other
   (ladder.challenges.create_challenge, from other users): the time from the call
   until the challenged user's stream shows the challenge.
2. Moves. ``--games`` games of Ace in the Hole between new users, each seat with
   its game stream (GET /api/stream/game/{id}) open; with ``--servers`` N > 1 the
   two seats are on different daphnes, so each line crosses Redis. The seat to
   move POSTs /api/games/{id}/actions with a random action of its stream's last
   ``legal`` and ``ply``; timed from the POST being sent until the OPPONENT's
   stream shows the new ply. ``--moves`` per game (40) or to the end; a game
   still running then is resigned (POST /resign), so that every game ends and
   live_play's database check applies as it is: Move rows exactly the
   acknowledged moves, plies contiguous, every game finished.

For the same moves over websockets see bench/live_play.py and its figures in
docs/performance.md (one daphne: 170-180 moves/s at full speed).
Only loopback addresses; every wait has a timeout, and the whole run has one.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import json
import os
import random
import re
import resource
import secrets
import signal
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.live_play import (  # noqa: E402
    HOST, Check, GameSpec, Result, Server, Stats, check_database, cpu_seconds, cpu_used, create_games,
    database_name, drain, log_directory, progress, run_on_services, say, server_env,
    start_servers, stop_servers, tail,
)

DEFAULT_DB_NAME = "aceweb_bench_api"
DEFAULT_REDIS_DB = 9
KEEPALIVE = 2.0  # seconds: the daphnes' API_STREAM_KEEPALIVE here (the site's default is 7)
NO_LIMIT = "10000000/min"  # the API's rate limits, out of the way
PG_HEADROOM = 10  # PostgreSQL connections a capacity step leaves free (see pg_shortfall)
ALIVE_WITHIN = 3  # keep-alive intervals a stream may stay silent before it counts as dead
MAX_REFUSALS_PER_GAME = 3


class BadAnswer(Exception):
    """The server answered with something other than what was asked."""


# --- HTTP/1.1 on asyncio streams ---------------------------------------------


def http_request(method: str, port: int, path: str, token: str, body: dict[str, Any] | None = None) -> bytes:
    data = b"" if body is None else json.dumps(body).encode()
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}", f"Authorization: Bearer {token}"]
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + data


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    """The status and the (lower-cased) header fields of a response."""
    status, *fields = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    parts = status.split(" ")
    if len(parts) < 2 or not parts[1].isdigit():
        raise BadAnswer(f"not an HTTP status line: {status!r}")
    headers = {name.strip().lower(): value.strip() for name, _, value in (f.partition(":") for f in fields if f)}
    return int(parts[1]), headers


async def body_parts(reader: asyncio.StreamReader, headers: dict[str, str]) -> AsyncIterator[bytes]:
    """A response body as it comes: chunk by chunk when chunked (daphne's
    answer to a streamed response), else by its length or to the end."""
    if headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await reader.readuntil(b"\r\n")  # the end of the (empty) trailer
                return
            yield (await reader.readexactly(size + 2))[:-2]
    elif "content-length" in headers:
        yield await reader.readexactly(int(headers["content-length"]))
    else:
        while data := await reader.read(65536):
            yield data


class Stream:
    """One NDJSON stream: the time of its first line (None if it ended before
    one), the time of its latest keep-alive, and its JSON lines, queued with
    their arrival times (None once it has ended)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, headers: dict[str, str]) -> None:
        self.reader, self.writer = reader, writer
        self.first: asyncio.Future[float | None] = asyncio.get_running_loop().create_future()
        self.keepalive_at = 0.0
        self.ended = False
        self.lines: asyncio.Queue[tuple[float, dict[str, Any] | None]] = asyncio.Queue()
        self.task = asyncio.create_task(self._read(headers))

    @classmethod
    async def open(cls, port: int, path: str, token: str) -> Stream:
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            writer.write(http_request("GET", port, path, token))
            status, headers = await read_head(reader)
        except BaseException:
            writer.close()
            raise
        if status != 200:
            writer.close()
            raise BadAnswer(f"HTTP {status}")
        return cls(reader, writer, headers)

    async def _read(self, headers: dict[str, str]) -> None:
        pending = b""
        try:
            async for part in body_parts(self.reader, headers):
                *lines, pending = (pending + part).split(b"\n")
                now = time.perf_counter()
                for line in lines:
                    self._line(now, line)
        except (asyncio.IncompleteReadError, ConnectionError, ValueError):
            pass
        finally:
            self.ended = True
            if not self.first.done():
                self.first.set_result(None)
            self.lines.put_nowait((time.perf_counter(), None))
            self.writer.close()

    def _line(self, now: float, line: bytes) -> None:
        first = not self.first.done()
        if first:
            self.first.set_result(now)
        if line.strip():
            self.lines.put_nowait((now, json.loads(line)))
        elif not first:
            self.keepalive_at = now

    async def next_line(self, wanted: Callable[[dict[str, Any]], bool], timeout: float) -> tuple[float, dict[str, Any]]:
        """The next JSON line WANTED accepts (arrival time, line); the others are dropped."""
        deadline = time.perf_counter() + timeout
        while True:
            at, line = await asyncio.wait_for(self.lines.get(), max(0.001, deadline - time.perf_counter()))
            if line is None:
                self.lines.put_nowait((at, None))  # ended: say so to the next reader too
                raise ConnectionError("the stream ended")
            if wanted(line):
                return at, line

    async def close(self) -> None:
        self.writer.close()
        try:
            await asyncio.wait_for(self.task, 5)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            self.writer.transport.abort()


class Caller:
    """One keep-alive HTTP connection for a player's POSTs."""

    def __init__(self, port: int, token: str) -> None:
        self.port, self.token = port, token
        self.connection: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if self.connection is None:
            self.connection = await asyncio.open_connection(HOST, self.port)
        reader, writer = self.connection
        writer.write(http_request("POST", self.port, path, self.token, body))
        status, headers = await read_head(reader)
        data = b"".join([part async for part in body_parts(reader, headers)])
        if headers.get("connection", "").lower() == "close":
            self.close()
        try:
            return status, json.loads(data) if data else {}
        except ValueError:
            raise RuntimeError(f"POST {path}: HTTP {status}, not JSON: {data[:300]!r}") from None

    def close(self) -> None:
        if self.connection is not None:
            self.connection[1].close()
            self.connection = None


# --- Users and tokens (Django ORM) ---------------------------------------------


def create_users(count: int, tag: str) -> list[Any]:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    User = get_user_model()
    unusable = make_password(None)
    users = User.objects.bulk_create(
        [User(username=f"api-{tag}-{i}", email=f"api-{tag}-{i}@example.org", password=unusable) for i in range(count)])
    if any(u.pk is None for u in users):  # not PostgreSQL: fetch the keys
        users = list(User.objects.filter(username__startswith=f"api-{tag}-").order_by("pk"))
    return list(users)


def make_tokens(users: Sequence[Any], scopes: list[str]) -> list[str]:
    """One token a user, made by tokens.make itself (two queries each) in one
    transaction: a few seconds for thousands of users."""
    from django.db import transaction

    from api import tokens

    made: list[str] = []
    with transaction.atomic():
        for user in users:
            made.append(tokens.make(user, "bench", scopes)[1])
            if len(made) % 1000 == 0:
                say(f"{len(made)}/{len(users)} tokens")
    return made


def seat_tokens(specs: Sequence[GameSpec]) -> dict[int, dict[str, str]]:
    """A play token for every seat of every game: game id -> seat -> token."""
    from games.models import Seat

    seats = list(Seat.objects.filter(game_id__in=[s.id for s in specs]).select_related("user"))
    made = make_tokens([seat.user for seat in seats], ["play"])
    found: dict[int, dict[str, str]] = {s.id: {} for s in specs}
    for seat, token in zip(seats, made):
        found[seat.game_id][seat.name] = token
    return found


# --- Reading a daphne from /proc -----------------------------------------------


def status_field(pid: int, name: str) -> int:
    """A number from /proc/<pid>/status ("VmRSS" in kB, "Threads"); -1 if missing."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return int(line.split()[1])
    return -1


def rss_mb(pid: int) -> float:
    return status_field(pid, "VmRSS") / 1024


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def fd_limit(pid: int | str) -> str:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return line.split()[3]
    return "?"


def pg_backends(db_name: str) -> int:
    """PostgreSQL connections to the bench database, counted from /proc (as
    cpu_seconds finds them): the count works even when the server is full."""
    return sum(key.startswith("postgres:") for key in cpu_seconds([os.getpid()], db_name))


def last_error(log: Path) -> str:
    """The last exception line of a daphne log ("psycopg.OperationalError: ..."), or ""."""
    found = [line for line in tail(log, 400).splitlines()
             if re.match(r"^[\w.]+(Error|Exception): ", line)]
    return found[-1] if found else ""


def raise_fd_limit() -> int:
    """This process's open-file limit raised to its hard limit; the daphnes it
    starts inherit it (start_servers' Popen keeps rlimits), which is why no
    preexec_fn is needed there. Returns the limit."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


# --- 1. Capacity ---------------------------------------------------------------


@dataclass
class Step:
    target: int
    open: int = 0
    seconds: float = 0.0
    rss_mb: float = 0.0
    fds: int = 0
    idle_cpu_percent: float = 0.0
    pg_backends: int = 0  # PostgreSQL server processes serving the bench database
    threads: int = 0  # daphne's
    failures: Counter[str] = field(default_factory=Counter)

    def line(self) -> str:
        failed = ", ".join(f"{n} {why}" for why, n in self.failures.most_common()) or "none"
        return (f"  {self.target:6d} {self.open:6d} {self.seconds:8.1f} {self.rss_mb:8.0f} "
                f"{self.idle_cpu_percent:7.1f} {self.fds:6d} {self.threads:7d} {self.pg_backends:6d}   {failed}")


@dataclass
class Capacity:
    keepalive: float
    pg_max_connections: str = "?"
    steps: list[Step] = field(default_factory=list)
    held: int = 0
    delivery: list[float] = field(default_factory=list)  # seconds, challenge made -> line arrived
    delivery_failures: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    server_error: str = ""  # daphne's last logged exception, when a step failed

    @property
    def ok(self) -> bool:
        """Done with nothing broken below the largest step: a failing step
        is the figure sought, not an error; a delivery that failed is one."""
        return self.held > 0 and not self.delivery_failures and not self.errors

    def report(self) -> list[str]:
        lines = [f"capacity: event streams on one daphne (keep-alive every {self.keepalive:g} s; "
                 f"PostgreSQL max_connections {self.pg_max_connections}, PG = its connections to the bench database)",
                 "  target   open  open s   RSS MB  idle %    fds threads     PG   failed"]
        lines += [s.line() for s in self.steps]
        if self.server_error:
            lines.append(f"  daphne's last logged error: {self.server_error}")
        lines.append(f"largest step fully held: {self.held} streams")
        if self.delivery or self.delivery_failures:
            lines.append(f"delivery at {self.held} streams, challenge made -> challenged user's line: "
                         f"{len(self.delivery)} lines, ms p50 {percentile(self.delivery, 50):.1f}  "
                         f"p99 {percentile(self.delivery, 99):.1f}  max {percentile(self.delivery, 100):.1f}"
                         + "".join(f", {n} {why}" for why, n in self.delivery_failures.items()))
        lines += [f"error: {e}" for e in self.errors[:10]]
        return lines


def percentile(values: Sequence[float], p: float) -> float:
    """In ms, as live_play's Result.percentile."""
    return Result(0, 0, Stats(round_trips=list(values)), 0.0, Check()).percentile(p)


def steps_to(first: int, largest: int) -> list[int]:
    """first, 2*first, 4*first, ... below LARGEST, then LARGEST."""
    steps, n = [], first
    while n < largest:
        steps.append(n)
        n *= 2
    return steps + [largest]


async def open_streams(port: int, tokens: Sequence[str], concurrency: int, timeout: float,
                       failures: Counter[str]) -> list[Stream]:
    """An event stream for each token, CONCURRENCY connects at a time; each must
    show its first line within TIMEOUT s. Those that do not are counted in
    FAILURES (and closed); the rest are returned, open."""
    gate = asyncio.Semaphore(concurrency)
    done = 0

    async def one(token: str) -> Stream | None:
        nonlocal done
        async with gate:
            try:
                stream = await asyncio.wait_for(Stream.open(port, "/api/stream/event", token), timeout)
            except asyncio.TimeoutError:
                failures["connect timed out"] += 1
                return None
            except BadAnswer as answer:
                failures[f"answered {answer}"] += 1
                return None
            except OSError as error:  # refused, reset, or out of descriptors here
                failures[f"refused ({error.strerror or type(error).__name__})"] += 1
                return None
            try:
                first = await asyncio.wait_for(asyncio.shield(stream.first), timeout)
            except asyncio.TimeoutError:
                first = None
            if first is None:
                failures["first line missing"] += 1
                await stream.close()
                return None
            done += 1
            return stream

    async def ticker() -> None:
        while True:
            await asyncio.sleep(5)
            say(f"  ... {done}/{len(tokens)} opened, {sum(failures.values())} failed")

    ticking = asyncio.create_task(ticker())
    try:
        opened = await asyncio.gather(*(one(t) for t in tokens))
    finally:
        ticking.cancel()
    return [s for s in opened if s is not None]


async def check_alive(streams: Sequence[Stream], pid: int, interval: float, db_name: str) -> tuple[int, float]:
    """Wait for a keep-alive on every stream (at most ALIVE_WITHIN intervals);
    measure daphne's CPU % over the first two intervals, when keep-alives are
    its only work. (Streams with no keep-alive or ended, CPU %.)"""
    started = time.perf_counter()
    before = cpu_seconds([pid], db_name).get("daphne", 0.0)
    await asyncio.sleep(2 * interval)
    cpu = 100 * (cpu_seconds([pid], db_name).get("daphne", 0.0) - before) / (time.perf_counter() - started)
    deadline = started + ALIVE_WITHIN * interval
    while time.perf_counter() < deadline and any(s.keepalive_at <= started for s in streams if not s.ended):
        await asyncio.sleep(0.1)
    return sum(s.ended or s.keepalive_at <= started for s in streams), cpu


async def pg_shortfall(steps: Sequence[Step], streams: int, headroom: int) -> str:
    """Why a step of STREAMS more streams would fill the PostgreSQL server, or
    "". Each open stream has held a connection of its own: filling a shared
    server would fail everyone's work on it, not only this bench's, so the
    bench stops short of it, reckoning with the connections per stream
    measured at the last step (one before any)."""
    held = [s for s in steps if s.open]
    per_stream = held[-1].pg_backends / held[-1].open if held else 1.0
    needed = int(per_stream * streams) + headroom
    free = await asyncio.get_running_loop().run_in_executor(None, pg_free_connections)
    if needed <= free:
        return ""
    return (f"not tried: needs about {needed} more PostgreSQL connections ({per_stream:.2f} a stream, "
            f"{headroom} spare), the server has {free} free")


def pg_free_connections() -> int:
    """Connections the PostgreSQL server can still open for ordinary users."""
    from django.db import connection

    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_setting('max_connections')::int"
                           " - current_setting('superuser_reserved_connections')::int"
                           " - (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')")
            row = cursor.fetchone()
        return int(row[0])
    finally:
        connection.close()


async def capacity(server: Server, tokens: Sequence[str], steps: Sequence[int], usernames: Sequence[str],
                   challengers: Sequence[Any], *, concurrency: int, timeout: float, interval: float,
                   db_name: str, found: Capacity, pg_guard: int | None = PG_HEADROOM) -> None:
    """Open the steps one after the other, then time deliveries at the largest
    step held; FOUND is filled as it goes, so a global timeout keeps what was seen."""
    pid = server.process.pid
    streams: list[Stream] = []
    try:
        for target in steps:
            step = Step(target)
            found.steps.append(step)
            if pg_guard is not None:
                shortfall = await pg_shortfall(found.steps, target - len(streams), pg_guard)
                if shortfall:
                    step.failures[shortfall] += 1
                    say(f"step {target} not tried: {shortfall}")
                    break
            say(f"opening streams {len(streams) + 1}..{target}")
            began = time.perf_counter()
            new = await open_streams(server.port, tokens[len(streams):target], concurrency, timeout, step.failures)
            step.seconds = time.perf_counter() - began
            streams += new
            step.open = len(streams)
            silent, step.idle_cpu_percent = await check_alive(streams, pid, interval, db_name)
            if silent:
                step.failures[f"no keep-alive within {ALIVE_WITHIN} intervals (or ended)"] += silent
            step.rss_mb, step.fds, step.pg_backends = rss_mb(pid), open_fds(pid), pg_backends(db_name)
            step.threads = status_field(pid, "Threads")
            say(f"step {target}: {step.open} open in {step.seconds:.1f} s, RSS {step.rss_mb:.0f} MB, "
                f"idle CPU {step.idle_cpu_percent:.1f} %, {step.fds} fds, {step.threads} threads, {step.pg_backends} PostgreSQL "
                f"connections, {sum(step.failures.values())} failed")
            if step.failures:
                found.server_error = last_error(server.log)
                await asyncio.gather(*(s.close() for s in new))  # back to the last step held
                streams = streams[:len(streams) - len(new)]
                break
            found.held = target
        if not found.held:
            return
        if len(streams) != found.held or (await check_alive(streams, pid, interval, db_name))[0]:
            found.errors.append(f"the {found.held} streams of the last step held were not all alive "
                                "after the failed step's streams closed: no delivery measured")
            return
        await deliveries(streams, usernames, challengers, timeout, found)
    finally:
        say(f"closing {len(streams)} streams")
        await asyncio.gather(*(s.close() for s in streams))


async def deliveries(streams: Sequence[Stream], usernames: Sequence[str], challengers: Sequence[Any],
                     timeout: float, found: Capacity) -> None:
    """One challenge after the other to a sample of the streams' users: the time
    from create_challenge being called until the challenged stream's line."""
    from django.db import connections

    from games.timecontrols import OFFERED
    from ladder import challenges

    key = OFFERED[0].key
    pick = random.Random("sample").sample(range(len(streams)), min(len(challengers), len(streams)))
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(1, thread_name_prefix="orm") as orm:  # the ORM is sync: off the event loop
        for n, (challenger, i) in enumerate(zip(challengers, pick)):
            sent = time.perf_counter()
            made = loop.run_in_executor(orm, functools.partial(challenges.create_challenge, challenger, usernames[i],
                                                                key, rated=False))
            try:
                at, _ = await streams[i].next_line(lambda line: line.get("type") == "challenge", timeout)
                found.delivery.append(at - sent)
            except (asyncio.TimeoutError, ConnectionError) as error:
                found.delivery_failures[f"stream: {type(error).__name__}"] += 1
            try:
                await asyncio.wait_for(made, timeout)
            except Exception as error:  # noqa: BLE001 - counted: the challenge was never made
                found.delivery_failures[f"create_challenge: {type(error).__name__}"] += 1
            if (n + 1) % 50 == 0:
                say(f"  ... {n + 1}/{len(pick)} challenges delivered")
        await loop.run_in_executor(orm, connections.close_all)


# --- 2. Moves over the API -----------------------------------------------------


@dataclass
class Player:
    name: str
    stream: Stream
    caller: Caller
    state: dict[str, Any] = field(default_factory=dict)  # its stream's latest sync/update


def at_least(ply: int) -> Callable[[dict[str, Any]], bool]:
    return lambda line: line.get("type") in ("sync", "update") and int(line.get("ply", -1)) >= ply


async def open_seats(spec: GameSpec, tokens: dict[str, str], ports: Sequence[int], timeout: float) -> list[Player]:
    """Each seat's game stream and POST connection, seat i on server (game + i) mod N."""
    seats: list[Player] = []
    try:
        for i, name in enumerate(spec.seats):
            port = ports[(spec.index + i) % len(ports)]
            stream = await asyncio.wait_for(Stream.open(port, f"/api/stream/game/{spec.id}", tokens[name]), timeout)
            seats.append(Player(name, stream, Caller(port, tokens[name])))
            _, seats[-1].state = await stream.next_line(at_least(0), timeout)
    except BaseException:
        await close_seats(seats)
        raise
    return seats


async def close_seats(seats: Sequence[Player]) -> None:
    for seat in seats:
        seat.caller.close()
        await seat.stream.close()


@dataclass
class Moves:
    stats: Stats = field(default_factory=Stats)
    answers: list[float] = field(default_factory=list)  # s, POST sent -> its answer
    resigned: int = 0
    pg_sessions: int = -1  # PostgreSQL sessions opened on the bench database while playing


async def play_over_api(spec: GameSpec, seats: Sequence[Player], seed: str, moves: int, timeout: float,
                        found: Moves) -> None:
    """Up to MOVES moves, each timed to the opponent's line; then resign if still running."""
    stats = found.stats
    rng = random.Random(f"{seed}-{spec.index}")
    by_name = {s.name: s for s in seats}
    stats.acked[spec.id] = 0
    refusals = 0
    while seats[0].state["game"]["status"] == "running" and stats.acked[spec.id] < moves:
        ply, mover = seats[0].state["ply"], by_name[seats[0].state["to_move"]]
        if not mover.state.get("legal"):
            stats.errors.append(f"game {spec.id} ply {ply}: {mover.name} to move with no legal action")
            return
        action = rng.choice(mover.state["legal"])
        sent = time.perf_counter()
        answer = asyncio.create_task(mover.caller.post(f"/api/games/{spec.id}/actions", {"ply": ply, "action": action}))
        waiting = "the POST's answer"
        try:
            status, body = await asyncio.wait_for(asyncio.shield(answer), timeout)
            found.answers.append(time.perf_counter() - sent)
            if status != 200:
                stats.errors.append(f"game {spec.id} ply {ply} {action!r}: HTTP {status} {body.get('error')}")
                refusals += 1
                if refusals >= MAX_REFUSALS_PER_GAME:
                    return
                continue
            arrivals = {}
            for seat in (*(s for s in seats if s is not mover), mover):  # the opponent's first
                left = max(0.001, sent + timeout - time.perf_counter())
                waiting = f"{seat.name}'s stream line of ply {ply + 1}"
                arrivals[seat.name], seat.state = await seat.stream.next_line(at_least(ply + 1), left)
        except (asyncio.TimeoutError, ConnectionError, BadAnswer) as error:
            answer.cancel()
            stats.errors.append(f"game {spec.id} ply {ply} {action!r}: waiting for {waiting}: "
                                f"{type(error).__name__} {error}")
            return
        latency = max(t for name, t in arrivals.items() if name != mover.name) - sent
        stats.round_trips.append(latency)
        stats.by_game.setdefault(spec.label, []).append(latency)
        stats.acked[spec.id] += 1
    await finish(spec, seats, timeout, found)


async def finish(spec: GameSpec, seats: Sequence[Player], timeout: float, found: Moves) -> None:
    """Resign a game still running (so it ends and its streams close); every
    stream must then show the end."""
    if seats[0].state["game"]["status"] == "running":
        status, body = await asyncio.wait_for(seats[0].caller.post(f"/api/games/{spec.id}/resign", {}), timeout)
        if status != 200:
            found.stats.errors.append(f"game {spec.id}: resigning answered HTTP {status} {body.get('error')}")
            return
        found.resigned += 1
    for seat in seats:
        while seat.state["game"]["status"] == "running":
            _, seat.state = await seat.stream.next_line(at_least(0), timeout)
    found.stats.games_done += 1


async def drive_moves(specs: Sequence[GameSpec], tokens: dict[int, dict[str, str]], servers: Sequence[Server],
                      seed: str, moves: int, timeout: float, total_timeout: float, db_name: str,
                      found: Moves) -> float:
    """Open every seat's stream, play every game; the wall time of the play (s)."""
    ports = [s.port for s in servers]
    gate = asyncio.Semaphore(50)

    async def seated(spec: GameSpec) -> list[Player]:
        async with gate:
            return await open_seats(spec, tokens[spec.id], ports, timeout)

    tables: list[list[Player]] = []
    try:
        began = time.perf_counter()
        opened = await asyncio.wait_for(asyncio.gather(*(seated(s) for s in specs), return_exceptions=True),
                                        total_timeout)
        for spec, table in zip(specs, opened):
            if isinstance(table, BaseException):
                found.stats.errors.append(f"game {spec.id}: opening its streams: {type(table).__name__} {table}")
            else:
                tables.append(table)
        if found.stats.errors:
            return 0.0
        # Let the servers finish the opening work (presence stamps) before timing.
        await asyncio.get_running_loop().run_in_executor(None, drain, ports)
        found.stats.connect_seconds = time.perf_counter() - began
        say(f"{2 * len(tables)} game streams open in {found.stats.connect_seconds:.1f} s; playing")
        started = time.perf_counter()
        loop = asyncio.get_running_loop()
        sessions_before = await loop.run_in_executor(None, pg_sessions)
        cpu_before = cpu_seconds([s.process.pid for s in servers], db_name)
        ticker = asyncio.create_task(progress(found.stats, len(specs), started))
        try:
            await asyncio.wait_for(asyncio.gather(*(play_over_api(spec, table, seed, moves, timeout, found)
                                                    for spec, table in zip(specs, tables))),
                                   max(1.0, total_timeout - (started - began)))
        except asyncio.TimeoutError:
            found.stats.errors.append(f"global timeout ({total_timeout:.0f} s) reached")
        finally:
            ticker.cancel()
        found.stats.cpu = cpu_used(cpu_before, cpu_seconds([s.process.pid for s in servers], db_name))
        found.pg_sessions = await loop.run_in_executor(None, pg_sessions) - sessions_before
        return time.perf_counter() - started
    finally:
        await asyncio.gather(*(close_seats(t) for t in tables), return_exceptions=True)


def pg_sessions() -> int:
    """Sessions ever opened on this database (PostgreSQL 14+), on a connection
    of its own that is closed again: a thread of the default executor."""
    from django.db import connection

    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
            row = cursor.fetchone()
        return int(row[0])
    finally:
        connection.close()


def moves_report(result: Result, found: Moves, moves: int) -> list[str]:
    rate = result.moves / result.wall_seconds if result.wall_seconds else 0.0
    check = result.check
    return [
        f"moves over the API: {result.servers} daphne process(es), {result.games} games, up to {moves} moves each",
        f"games: {result.stats.games_done} ended ({found.resigned} resigned after the last move) of {result.games}",
        f"total moves: {result.moves}",
        f"streams: {result.sockets} game streams open and settled in {result.stats.connect_seconds:.2f} s",
        f"wall time: {result.wall_seconds:.2f} s",
        f"moves/s: {rate:.1f}",
        "latency ms (POST sent -> opponent's stream line with the new ply): "
        f"p50 {result.percentile(50):.1f}  p90 {result.percentile(90):.1f}  "
        f"p99 {result.percentile(99):.1f}  max {result.percentile(100):.1f}",
        f"POST answered ms: p50 {percentile(found.answers, 50):.1f}  p99 {percentile(found.answers, 99):.1f}",
        *result.cpu_lines(),
        f"PostgreSQL sessions opened while playing: {found.pg_sessions} "
        f"({found.pg_sessions / max(1, result.moves):.2f} a move; the postgres CPU above misses the "
        "backends that began and ended while playing)",
        f"errors: {len(result.stats.errors)}",
        *(f"  {e}" for e in result.stats.errors[:10]),
        *(f"warning: {w}" for w in result.stats.warnings),
        f"lost: {check.lost}, duplicated: {check.duplicated}, unacknowledged: {check.unacked}, "
        f"gaps: {check.gaps}, unfinished: {check.unfinished}",
        *(f"  {p}" for p in check.problems[:10]),
    ]


# --- The benchmark -------------------------------------------------------------


@dataclass
class Outcome:
    capacity: Capacity
    moves: Result
    found: Moves
    moves_asked: int

    @property
    def ok(self) -> bool:
        return self.capacity.ok and self.moves.ok

    def report(self) -> str:
        return "\n".join([*self.capacity.report(), "", *moves_report(self.moves, self.found, self.moves_asked)])


def stop(servers: Sequence[Server], warnings: list[str]) -> None:
    stop_servers(servers)
    for s in servers:
        if s.process.returncode not in (0, -signal.SIGTERM):
            warnings.append(f"daphne on port {s.port} did not stop on SIGTERM within 15 s "
                            f"(exit {s.process.returncode}); its log ends:\n{tail(s.log, 40)}")


def run_capacity(env: dict[str, str], logs: Path, *, max_streams: int, first_step: int, sample: int,
                 connects: int, timeout: float, total_timeout: float, keepalive: float, db_name: str,
                 warnings: list[str], pg_guard: int | None) -> Capacity:
    from django.db import connections

    tag = secrets.token_hex(3)
    say(f"creating {max_streams} users with tokens, and {sample} challengers")
    users = create_users(max_streams + sample, tag)
    tokens = make_tokens(users[:max_streams], ["read"])
    with connections["default"].cursor() as cursor:
        cursor.execute("SHOW max_connections")
        found = Capacity(keepalive, str(cursor.fetchone()[0]))
    connections.close_all()
    servers: list[Server] = []
    try:
        servers = start_servers(1, env, logs)
        say(f"daphne {servers[0].process.pid} on port {servers[0].port}, open-file limit "
            f"{fd_limit(servers[0].process.pid)}")
        coroutine = capacity(servers[0], tokens, steps_to(first_step, max_streams),
                             [u.get_username() for u in users[:max_streams]], users[max_streams:],
                             concurrency=connects, timeout=timeout, interval=keepalive, db_name=db_name, found=found,
                             pg_guard=pg_guard)
        asyncio.run(asyncio.wait_for(coroutine, total_timeout))
        # Thousands of streams just closed: let daphne finish their disconnects
        # before it is stopped (and before the games are timed).
        drain([servers[0].port], timeout=120)
    except asyncio.TimeoutError:
        found.errors.append(f"global timeout ({total_timeout:.0f} s) reached")
    finally:
        stop(servers, warnings)
    return found


def run_moves(env: dict[str, str], logs: Path, *, games: int, moves: int, servers: int, seed: str,
              timeout: float, total_timeout: float, db_name: str, found: Moves) -> Result:
    from django.db import connections

    say(f"creating {games} games")
    specs = create_games(games, seed)
    tokens = seat_tokens(specs)
    connections.close_all()
    started: list[Server] = []
    wall = 0.0
    try:
        started = start_servers(servers, env, logs)
        say(f"daphne on port(s) {', '.join(str(s.port) for s in started)}; {games} games")
        wall = asyncio.run(drive_moves(specs, tokens, started, seed, moves, timeout, total_timeout, db_name, found))
        drain([s.port for s in started])
    finally:
        stop(started, found.stats.warnings)
    check = check_database(specs, found.stats.acked)
    connections.close_all()
    return Result(games, servers, found.stats, wall, check, 2 * games)


def run_benchmark(*, database_url: str, redis_url: str, max_streams: int = 4000, first_step: int = 50,
                  sample: int = 200, connects: int = 100, games: int = 100, moves: int = 40, servers: int = 1,
                  seed: str = "1", timeout: float = 30.0, total_timeout: float = 1800.0,
                  keepalive: float = KEEPALIVE, conn_max_age: int = 3600, debug: bool = False,
                  log_dir: Path | None = None, pg_guard: int | None = PG_HEADROOM) -> Outcome:
    """The capacity steps on one daphne, then the games on SERVERS daphnes.
    Django must already be set up on DATABASE_URL (the daphnes get the same
    URL, REDIS_URL and SECRET_KEY). TIMEOUT bounds each wait, TOTAL_TIMEOUT each part."""
    say(f"open-file limit here: {raise_fd_limit()}")
    env = server_env(database_url, redis_url, debug, API_STREAM_KEEPALIVE=str(keepalive),
                     API_RATE_PER_TOKEN=NO_LIMIT, API_RATE_PER_ADDRESS=NO_LIMIT)
    env["DB_CONN_MAX_AGE"] = str(conn_max_age)  # server_env sets 3600 (live_play); the settings default to 0
    db_name = database_name(database_url)
    # The client's own collector pauses would count as latency: tune it as the servers do.
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    found = Moves()
    with log_directory(log_dir) as logs:
        cap = run_capacity(env, logs, max_streams=max_streams, first_step=first_step, sample=sample,
                           connects=connects, timeout=timeout, total_timeout=total_timeout, keepalive=keepalive,
                           db_name=db_name, warnings=found.stats.warnings, pg_guard=pg_guard)
        print("\n".join(cap.report()), flush=True)
        result = run_moves(env, logs, games=games, moves=moves, servers=servers, seed=seed, timeout=timeout,
                           total_timeout=total_timeout, db_name=db_name, found=found)
    return Outcome(cap, result, found, moves)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-streams", type=int, default=4000, help="largest capacity step (default 4000)")
    parser.add_argument("--first-step", type=int, default=50,
                        help="first capacity step, then doubling (default 50: small enough to measure "
                             "the PostgreSQL connections a stream holds on a shared server)")
    parser.add_argument("--sample", type=int, default=200, help="users challenged to time delivery (default 200)")
    parser.add_argument("--connects", type=int, default=100, help="stream connects in flight (default 100)")
    parser.add_argument("--keepalive", type=float, default=KEEPALIVE,
                        help=f"the daphnes' API_STREAM_KEEPALIVE, s (default {KEEPALIVE:g})")
    parser.add_argument("--conn-max-age", type=int, default=3600,
                        help="the daphnes' DB_CONN_MAX_AGE, s (default 3600, as live_play's)")
    parser.add_argument("--pg-headroom", type=int, default=PG_HEADROOM,
                        help="PostgreSQL connections a capacity step must leave free, or it is not tried "
                             f"(default {PG_HEADROOM}; -1: no such check, fill the server)")
    parser.add_argument("--games", type=int, default=100, help="Ace in the Hole games played at once (default 100)")
    parser.add_argument("--moves", type=int, default=40, help="moves per game before it is resigned (default 40)")
    parser.add_argument("--servers", type=int, default=1, help="daphne processes for the games (default 1)")
    parser.add_argument("--db-name", default=DEFAULT_DB_NAME,
                        help=f"the bench's own PostgreSQL database (default {DEFAULT_DB_NAME})")
    parser.add_argument("--redis-db", type=int, default=DEFAULT_REDIS_DB,
                        help=f"the bench's own Redis database, flushed (default {DEFAULT_REDIS_DB})")
    parser.add_argument("--seed", default="1", help="game seeds and move choices (default 1)")
    parser.add_argument("--timeout", type=float, default=1800, help="global timeout of each part, s (default 1800)")
    parser.add_argument("--wait", type=float, default=30,
                        help="timeout of any one wait (a stream's first line, a move's lines), s (default 30)")
    parser.add_argument("--debug", action="store_true", help="run daphne with DEBUG=true (default false)")
    parser.add_argument("--logs", type=Path, help="keep the daphne logs in this folder")
    parser.add_argument("--drop", action="store_true", help="drop the bench database at the end")
    args = parser.parse_args(argv)
    if min(args.max_streams, args.first_step, args.games, args.moves, args.servers, args.connects) < 1:
        parser.error("sizes and counts must be at least 1")

    def bench(database_url: str, redis_url: str) -> Any:
        return run_benchmark(
            database_url=database_url, redis_url=redis_url, max_streams=args.max_streams, first_step=args.first_step,
            sample=args.sample, connects=args.connects, games=args.games, moves=args.moves, servers=args.servers,
            seed=args.seed, timeout=args.wait, total_timeout=args.timeout, keepalive=args.keepalive,
            conn_max_age=args.conn_max_age, debug=args.debug, log_dir=args.logs,
            pg_guard=None if args.pg_headroom < 0 else args.pg_headroom)

    return run_on_services(args.db_name, args.redis_db, args.debug, args.drop, bench)


if __name__ == "__main__":
    sys.exit(main())
