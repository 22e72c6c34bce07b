"""Live-play load benchmark: K games played to the end over real websockets.

    .venv/bin/python bench/live_play.py --games 50 [--rhombus 20] [--rhombus4 10] [--servers 2] [--chat 10] [--drop]

Needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis). It never touches the
databases they name: it creates and migrates its own PostgreSQL database
(``aceweb_bench`` by default, on the same server) and uses Redis database 14
(flushed at the start and the end). It then

1. creates K running games of Ace in the Hole (``--games``), and as many
   Rhombus games of two (``--rhombus``) and four players (``--rhombus4``) as
   asked, one new user a seat (long clocks, fixed seeds), through the ORM, and a
   session cookie for each user, as ``Client.force_login`` does;
2. starts N daphne processes (``--servers``, default 1) on free loopback ports,
   with the Redis channel layer and persistent database connections;
3. opens one websocket client per seat (with N > 1 the seats of a game sit on
   different servers, so every update crosses processes through Redis), and
   plays every game to its end: the seat to move sends a random action from
   its own ``legal`` list (one seeded RNG per game); a Rhombus seat, whose view
   has the card sets with a legal action and no list (issue 24), builds one as
   the page does: a random card set, then ``options`` questions over its socket,
   a random next use each time, until every card is used (those questions'
   round trips are reported apart, and their CPU is part of a move's);
4. times each move from the ``act`` being sent until EVERY seat's socket has
   received the ``update`` with the new ply, and reports the figures for each
   game (Ace in the Hole, Rhombus, Rhombus 4 players) beside the total;
5. checks the database: for each game the Move rows are exactly the
   acknowledged moves, plies 0..n-1 with no gap or duplicate, and the game is
   finished. Any discrepancy, error or timeout exits non-zero; a daphne that
   must be killed to stop is printed as a warning (with its stacks) only.
6. with ``--chat S`` (issue 25), while each two-player game runs, one of its
   players says a line in the players' chat every 0..2S s (mean S), and the
   time from sending it until every seat's socket has the ``chatLine`` is
   reported beside the moves' (a refused or unheard line is counted apart).

Only loopback addresses; bounded by a global timeout and a per-move timeout.
The websocket client is a small RFC 6455 one on asyncio streams (see Client).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import gc
import hashlib
import json
import os
import random
import secrets
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DAPHNE = ROOT / ".venv" / "bin" / "daphne"
HOST = "127.0.0.1"  # loopback only
DEFAULT_DB_NAME = "aceweb_bench"
DEFAULT_REDIS_DB = 14
INITIAL_SECONDS = 3 * 3600  # long clocks: nobody flags during a benchmark
CONNECT_CONCURRENCY = 50  # sockets being opened at once
MAX_REFUSALS_PER_GAME = 3


def say(message: str) -> None:
    print(f"[bench] {message}", flush=True)


# --- Services -------------------------------------------------------------


def with_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))


def database_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


def redis_db(url: str) -> int:
    path = urlsplit(url).path.strip("/")
    return int(path) if path else 0


def psycopg_url(url: str) -> str:
    """psycopg wants postgresql:// (dj-database-url also takes postgres://, pgsql://)."""
    parts = urlsplit(url)
    return urlunsplit(("postgresql", parts.netloc, parts.path, parts.query, ""))


def ensure_database(base_url: str, name: str) -> str:
    """Create database NAME on BASE_URL's server if missing; return its URL."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(psycopg_url(with_path(base_url, "/postgres")), autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            say(f"creating database {name}")
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return with_path(base_url, f"/{name}")


def drop_database(base_url: str, name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(psycopg_url(with_path(base_url, "/postgres")), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
    say(f"dropped database {name}")


def flush_redis(url: str) -> None:
    import redis

    if redis_db(url) == 0:
        raise SystemExit("refusing to flush Redis database 0")
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]
    log: Path


def start_servers(count: int, env: dict[str, str], log_dir: Path, ready_timeout: float = 60,
                  app: str = "aceweb.asgi:application") -> list[Server]:
    """COUNT daphne processes serving APP on free loopback ports, each answering HTTP."""
    servers: list[Server] = []
    for i in range(count):
        port = free_port()
        log = log_dir / f"daphne-{i}-{port}.log"
        with open(log, "wb") as out:
            process = subprocess.Popen(
                [str(DAPHNE), "-b", HOST, "-p", str(port), app],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            )
        servers.append(Server(port, process, log))
    deadline = time.monotonic() + ready_timeout
    for server in servers:
        while True:
            if server.process.poll() is not None:
                raise RuntimeError(f"daphne on port {server.port} exited ({server.process.returncode}):\n"
                                   + tail(server.log))
            try:
                urllib.request.urlopen(f"http://{HOST}:{server.port}/", timeout=2).close()
                break
            except urllib.error.HTTPError:
                break  # it answered
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"daphne on port {server.port} did not answer in {ready_timeout:.0f} s")
                time.sleep(0.2)
    return servers


def drain(ports: Sequence[int], timeout: float = 60) -> None:
    """Wait (at most TIMEOUT s) until every server is idle: two page loads in a row
    answered within 250 ms. Used before the games start (the connects' presence
    updates) and before the servers are stopped (the disconnects' database work).
    """
    deadline = time.monotonic() + timeout
    for port in ports:
        quick = 0
        while quick < 2 and time.monotonic() < deadline:
            time.sleep(0.5)
            began = time.monotonic()
            try:
                urllib.request.urlopen(f"http://{HOST}:{port}/", timeout=max(1.0, deadline - began)).close()
            except urllib.error.HTTPError:
                pass
            except OSError:
                return
            quick = quick + 1 if time.monotonic() - began < 0.25 else 0


def stop_servers(servers: Sequence[Server]) -> None:
    for server in servers:
        if server.process.poll() is None:
            server.process.send_signal(signal.SIGTERM)
    for server in servers:
        try:
            server.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            # PYTHONFAULTHANDLER is set: SIGABRT writes every thread's stack to the log.
            server.process.send_signal(signal.SIGABRT)
            try:
                server.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                server.process.kill()
                server.process.wait()


def tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


# --- Users, games, sessions (Django ORM; Django must be set up) ------------


@dataclass
class GameSpec:
    id: int
    index: int
    cookies: dict[str, str]  # seat -> sessionid, in turn order
    label: str = "Ace in the Hole"

    @property
    def seats(self) -> list[str]:
        return list(self.cookies)


def create_games(count: int, seed: str, *, players: int = 2, rules: str = "ace-in-the-hole",
                 first_index: int = 0) -> list[GameSpec]:
    """COUNT running games of ``rules`` (games.starting.setups) between PLAYERS*COUNT
    new users, with a session cookie per user; indexes from ``first_index``."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction
    from django.utils import timezone

    from games import starting
    from games.models import Game

    User = get_user_model()
    tag = secrets.token_hex(3)
    unusable = make_password(None)
    setup = starting.setup_of(rules)
    label = setup.title if players == 2 else f"{setup.title}, {players} players"
    with transaction.atomic():
        users = User.objects.bulk_create(
            [User(username=f"bench-{tag}-{i}", email=f"bench-{tag}-{i}@example.org", password=unusable)
             for i in range(players * count)]
        )
        if any(u.pk is None for u in users):  # not PostgreSQL: fetch the keys
            users = list(User.objects.filter(username__startswith=f"bench-{tag}-").order_by("pk"))
        specs: list[GameSpec] = []
        for i in range(count):
            table = users[players * i:players * (i + 1)]
            index = first_index + i
            game = starting.start_game(*table, rated=False, seed=f"bench-{seed}-{index}", setup=setup,
                                       initial_seconds=INITIAL_SECONDS, increment_seconds=0)
            cookies = {seat: login_cookie(user) for seat, user in zip(game.seat_names, table)}
            specs.append(GameSpec(game.pk, index, cookies, label))
        # Start the clocks now rather than wait for each side's first move: with
        # hundreds of games, opening every socket takes longer than the
        # first-move window (games.models.FIRST_MOVE_WINDOW), which would abort them.
        Game.objects.filter(pk__in=[s.id for s in specs]).update(abort_at=None, turn_started_at=timezone.now())
    return specs


def login_cookie(user: Any) -> str:
    """A session for USER, as ``Client.force_login`` makes: its cookie value."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from importlib import import_module

    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return str(session.session_key)


@dataclass
class Check:
    lost: int = 0  # acknowledged moves missing from the database
    duplicated: int = 0  # a ply stored twice for one game
    unacked: int = 0  # stored moves whose update never reached both players (move timed out)
    gaps: int = 0  # games whose plies are not 0..n-1
    unfinished: int = 0  # games not finished
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.lost or self.duplicated or self.unacked or self.gaps or self.unfinished)


def check_database(specs: Sequence[GameSpec], acked: dict[int, int]) -> Check:
    from games.models import Game, Move

    ids = [s.id for s in specs]
    plies: dict[int, list[int]] = {i: [] for i in ids}
    for game_id, ply in Move.objects.filter(game_id__in=ids).order_by("game_id", "ply").values_list("game_id", "ply"):
        plies[game_id].append(ply)
    games = {g.pk: g for g in Game.objects.filter(pk__in=ids).only("pk", "status", "ply", "reason")}
    check = Check()
    for game_id in ids:
        rows = plies[game_id]
        n = acked.get(game_id, 0)
        distinct = set(rows)
        if len(distinct) != len(rows):
            check.duplicated += len(rows) - len(distinct)
            check.problems.append(f"game {game_id}: a ply stored twice")
        if sorted(distinct) != list(range(len(distinct))):
            check.gaps += 1
            check.problems.append(f"game {game_id}: plies are not 0..n-1: {sorted(distinct)}")
        if len(distinct) < n:
            check.lost += n - len(distinct)
            check.problems.append(f"game {game_id}: {n} moves acknowledged, {len(distinct)} stored")
        elif len(distinct) > n:
            check.unacked += len(distinct) - n
            check.problems.append(f"game {game_id}: {len(distinct)} moves stored, {n} acknowledged")
        game = games.get(game_id)
        if game is None or game.status != Game.Status.FINISHED:
            check.unfinished += 1
            check.problems.append(f"game {game_id}: status {game.status if game else 'missing'}")
        elif game.ply != len(rows):
            check.problems.append(f"game {game_id}: game.ply {game.ply} but {len(rows)} Move rows")
            check.gaps += 1
    return check


# --- The websocket clients --------------------------------------------------


class Refused(Exception):
    """The server answered an act with an error."""


WS_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


def apply_mask(payload: bytes, mask: bytes) -> bytes:
    """XOR with the repeated 4-byte mask (RFC 6455 5.3), as one big-integer operation."""
    n = len(payload)
    key = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")


def client_frame(opcode: int, payload: bytes) -> bytes:
    """One final frame as a client sends it (RFC 6455 5.2: masked)."""
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    return head + mask + apply_mask(payload, mask)


class Client:
    """A minimal RFC 6455 client on asyncio streams (text frames, ping/pong, close).

    Written here rather than taken from autobahn because autobahn's asyncio flavour
    cannot be loaded in a process where Django has imported daphne (txaio is then
    bound to Twisted), and the benchmark needs Django for its setup and checks.
    Each received message is queued with its arrival time.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.messages: asyncio.Queue[tuple[float, dict[str, Any] | None]] = asyncio.Queue()
        self.closed = asyncio.get_running_loop().create_future()
        self.reading = asyncio.create_task(self._read())
        self.state: dict[str, Any] = {}
        self.chat_heard: dict[str, float] = {}  # a chat line's text -> when it arrived (--chat)
        self.chat_refused: list[str] = []

    @classmethod
    async def connect(cls, port: int, path: str, headers: dict[str, str]) -> Client:
        reader, writer = await asyncio.open_connection(HOST, port)
        key = base64.b64encode(os.urandom(16))
        lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}:{port}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key.decode()}", "Sec-WebSocket-Version: 13",
                 *(f"{k}: {v}" for k, v in headers.items())]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        status, *fields = head.split("\r\n")
        if status.split(" ")[1:2] != ["101"]:
            writer.close()
            raise ConnectionError(f"handshake refused: {status}")
        accept = base64.b64encode(hashlib.sha1(key + WS_GUID).digest()).decode()
        if not any(f.lower().startswith("sec-websocket-accept:") and f.split(":", 1)[1].strip() == accept
                   for f in fields):
            writer.close()
            raise ConnectionError("handshake: bad Sec-WebSocket-Accept")
        return cls(reader, writer)

    def _frame(self, opcode: int, payload: bytes) -> None:
        self.writer.write(client_frame(opcode, payload))

    def send_json(self, data: dict[str, Any]) -> None:
        self._frame(OP_TEXT, json.dumps(data).encode())

    async def _read(self) -> None:
        buffer = bytearray()
        try:
            while True:
                b0, b1 = await self.reader.readexactly(2)
                opcode, n = b0 & 0x0F, b1 & 0x7F
                if n == 126:
                    (n,) = struct.unpack("!H", await self.reader.readexactly(2))
                elif n == 127:
                    (n,) = struct.unpack("!Q", await self.reader.readexactly(8))
                if b1 & 0x80:  # servers do not mask, but undo it if one does
                    mask = await self.reader.readexactly(4)
                    payload = apply_mask(await self.reader.readexactly(n), mask)
                else:
                    payload = await self.reader.readexactly(n)
                if opcode == OP_PING:
                    self._frame(OP_PONG, payload)
                elif opcode == OP_CLOSE:
                    if not self.closed.done():
                        self._frame(OP_CLOSE, payload[:2])
                    break
                elif opcode in (OP_TEXT, OP_BINARY, OP_CONT):
                    buffer += payload
                    if b0 & 0x80:  # FIN
                        self._received(time.perf_counter(), json.loads(bytes(buffer)))
                        buffer.clear()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.messages.put_nowait((time.perf_counter(), None))
            if not self.closed.done():
                self.closed.set_result(None)
            self.writer.close()

    def _received(self, at: float, message: dict[str, Any]) -> None:
        """Chat lines are noted with their arrival time (chatter reads them);
        everything else goes to the queue the game reads."""
        kind = message.get("type")
        if kind == "chatLine":
            self.chat_heard[message["line"]["text"]] = at
        elif kind == "chatRefused":
            self.chat_refused.append(str(message.get("message")))
        else:
            self.messages.put_nowait((at, message))

    async def _next(self, wanted: Callable[[dict[str, Any]], bool]) -> tuple[float, dict[str, Any]]:
        """The next message ``wanted`` accepts (arrival time, message), the others dropped;
        Refused on an error, ConnectionError once the socket is closed."""
        while True:
            at, message = await self.messages.get()
            if message is None:
                raise ConnectionError("socket closed")
            if message.get("type") == "error":
                raise Refused(str(message.get("message")))
            if wanted(message):
                return at, message

    async def next_state(self, min_ply: int) -> tuple[float, dict[str, Any]]:
        """The next sync/update with ply >= MIN_PLY (arrival time, message); Refused on error."""
        return await self._next(lambda m: m.get("type") in ("sync", "update") and m.get("ply", -1) >= min_ply)

    async def next_options(self, ply: int) -> dict[str, Any]:
        """The answer to this socket's ``options`` question at ``ply``; Refused on error."""
        return (await self._next(lambda m: m.get("type") == "options" and m.get("ply") == ply))[1]

    async def close(self) -> None:
        try:
            if not self.closed.done():
                self._frame(OP_CLOSE, struct.pack("!H", 1000))
                await asyncio.wait_for(asyncio.shield(self.closed), 5)
        except Exception:  # noqa: BLE001 - closing is best effort: drop the connection
            self.reading.cancel()
            self.writer.transport.abort()


async def open_socket(port: int, game_id: int, cookie: str, timeout: float) -> Client:
    from django.conf import settings

    headers = {"Origin": f"http://{HOST}:{port}", "Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"}
    return await asyncio.wait_for(Client.connect(port, f"/ws/games/{game_id}/", headers), timeout)


@dataclass
class Stats:
    acked: dict[int, int] = field(default_factory=dict)  # game id -> moves acknowledged to every seat
    round_trips: list[float] = field(default_factory=list)  # seconds
    by_game: dict[str, list[float]] = field(default_factory=dict)  # the same, by GameSpec.label
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # not about the moves: reported, not failed
    games_done: int = 0
    connect_seconds: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)  # seconds used while playing, by whom
    chat_trips: list[float] = field(default_factory=list)  # --chat: line sent -> on every seat's socket, s
    chat_lost: list[str] = field(default_factory=list)  # lines refused or not heard in time
    option_trips: list[float] = field(default_factory=list)  # a Rhombus "options" question -> its answer, s


async def play_game(spec: GameSpec, clients: Sequence[Any], seed: str, stats: Stats,
                    move_timeout: float, think: float = 0.0) -> None:
    """Play one game to its end: the mover picks from its own legal list."""
    rng = random.Random(f"{seed}-{spec.index}")
    pause = random.Random(f"{seed}-{spec.index}-think")  # its own, so --think plays the same moves
    sockets = dict(zip(spec.seats, clients))
    states = {seat: sock.state for seat, sock in sockets.items()}  # the latest sync/update
    first = spec.seats[0]
    stats.acked[spec.id] = 0
    refusals = 0
    while states[first]["game"]["status"] == "running":
        ply = states[first]["ply"]
        mover = states[first]["to_move"]
        if "legal" in states[mover]:
            choices = states[mover]["legal"]
            action = rng.choice(choices) if choices else None
        else:
            try:
                action = await build_action(sockets[mover], states[mover], rng, stats, move_timeout)
            except (Refused, asyncio.TimeoutError, ConnectionError) as error:
                stats.errors.append(f"game {spec.id} ply {ply}: options: {type(error).__name__} {error}")
                return
        if action is None:
            stats.errors.append(f"game {spec.id} ply {ply}: {mover} to move with no legal action")
            return
        if think:  # a player who takes a moment (uniform 0..2*think s, mean think s)
            await asyncio.sleep(pause.uniform(0, 2 * think))
        sent = time.perf_counter()
        sockets[mover].send_json({"type": "act", "ply": ply, "action": action})
        try:
            arrivals = []
            for seat in (mover, *(s for s in spec.seats if s != mover)):  # one timeout for all
                left = max(0.001, sent + move_timeout - time.perf_counter())
                at, states[seat] = await asyncio.wait_for(sockets[seat].next_state(ply + 1), left)
                sockets[seat].state = states[seat]  # the chatter (--chat) stops when it shows the end
                arrivals.append(at)
        except Refused as refusal:
            stats.errors.append(f"game {spec.id} ply {ply} {action!r}: refused: {refusal}")
            refusals += 1
            if refusals >= MAX_REFUSALS_PER_GAME:
                return
            continue
        except (asyncio.TimeoutError, ConnectionError) as error:
            stats.errors.append(f"game {spec.id} ply {ply} {action!r}: {type(error).__name__} {error}")
            return
        stats.round_trips.append(max(arrivals) - sent)
        stats.by_game.setdefault(spec.label, []).append(max(arrivals) - sent)
        stats.acked[spec.id] += 1
    stats.games_done += 1


def uses_cards(use: str) -> int:
    """How many cards a use's text plays: its card, and a kill card joined with ``+`` (Notation)."""
    return 2 if "+" in use.split(" ")[0] else 1


async def build_action(sock: Any, state: dict[str, Any], rng: random.Random, stats: Stats,
                       timeout: float) -> str | None:
    """A Rhombus action built as the page builds one: a random card set of the view's ``sets``,
    then an ``options`` question per use, a random next use each time (a whole action, such as
    an Eliminator or a discard, one time in five where the cards make one)."""
    if not state.get("sets"):
        return None
    ply, cards, done = state["ply"], rng.choice(state["sets"]), []
    while True:
        first = state.get("firsts", {}).get(cards[0]) if len(cards) == 1 and not done else None
        if first is not None:  # a one-card set's first answer comes with the view: no question
            answer = first
            if answer["actions"] and (not answer["uses"] or rng.random() < 0.2):
                return str(rng.choice(answer["actions"]))
            return str(rng.choice(answer["uses"])) if answer["uses"] else None
        asked = time.perf_counter()
        sock.send_json({"type": "options", "ply": ply, "cards": cards, "done": done})
        answer = await asyncio.wait_for(sock.next_options(ply), timeout)
        stats.option_trips.append(time.perf_counter() - asked)
        if answer["actions"] and (not answer["uses"] or rng.random() < 0.2):
            return str(rng.choice(answer["actions"]))
        if not answer["uses"]:
            return None
        done.append(answer["uses"][rng.randrange(len(answer["uses"]))])
        if sum(map(uses_cards, done)) == len(cards):
            return ", ".join(done)


# What the --chat players say, each in turn (a number makes each line unique; the
# phrases differ enough that no line is "nearly the same" as its author's last two).
CHAT_PHRASES = ("nice move", "oh no, I did not see that", "good luck", "hmm, let me think about this one",
                "well played", "that was close!", "interesting choice", "I should have kept that card")


async def chatter(spec: GameSpec, clients: Sequence[Any], seed: str, stats: Stats, every: float,
                  timeout: float) -> None:
    """While the game runs, a random player says a line every 0..2*EVERY s to
    the players' room; the time until every seat's socket has it is recorded.
    Two-player games only: a running team game takes presets only (RH36)."""
    rng = random.Random(f"{seed}-{spec.index}-chat")
    sockets = dict(zip(spec.seats, clients))
    first = sockets[spec.seats[0]]
    said = dict.fromkeys(spec.seats, 0)  # each player goes through the phrases in turn
    number = 0
    while True:
        await asyncio.sleep(rng.uniform(0, 2 * every))
        if first.state.get("game", {}).get("status", "running") != "running" or first.closed.done():
            return
        number += 1
        author = rng.choice(spec.seats)
        said[author] += 1
        text = f"{CHAT_PHRASES[said[author] % len(CHAT_PHRASES)]} ({spec.id}.{number})"
        sent = time.perf_counter()
        sockets[author].send_json({"type": "chat", "room": "player", "text": text})
        while not all(text in sock.chat_heard for sock in clients):
            refused = [sock.chat_refused.pop() for sock in clients if sock.chat_refused]
            if refused or time.perf_counter() - sent > timeout:
                stats.chat_lost.append(f"game {spec.id} line {number}: " + (refused[0] if refused else "not heard"))
                break
            await asyncio.sleep(0.002)
        else:
            stats.chat_trips.append(max(sock.chat_heard[text] for sock in clients) - sent)


async def progress(stats: Stats, total: int, started: float) -> None:
    last_moves, last_time = 0, started
    while True:
        await asyncio.sleep(2)
        now = time.perf_counter()
        moves = len(stats.round_trips)
        say(f"{now - started:6.1f} s  games {stats.games_done}/{total}  moves {moves}  "
            f"{(moves - last_moves) / (now - last_time):7.1f} moves/s  errors {len(stats.errors)}")
        last_moves, last_time = moves, now


def _process_cpu(pid: int | str, ticks: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks


def _backends_of(db_name: str) -> list[str]:
    """PostgreSQL server processes serving ``db_name`` (their title names it)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            title = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if title.startswith("postgres: ") and f" {db_name} " in title:
            found.append(entry.name)
    return found


def cpu_seconds(pids: Sequence[int], db_name: str) -> dict[str, float]:
    """CPU time (user + system, s) used so far by the daphne processes, each
    PostgreSQL backend serving the bench database (by pid), and this client.
    Read from /proc, so Linux only (empty elsewhere)."""
    ticks = os.sysconf("SC_CLK_TCK")
    try:
        used = {"daphne": sum(_process_cpu(pid, ticks) for pid in pids)}
    except (OSError, IndexError, ValueError):
        return {}
    for pid in _backends_of(db_name):
        try:
            used[f"postgres:{pid}"] = _process_cpu(pid, ticks)
        except (OSError, IndexError, ValueError):
            pass  # it just ended
    own = os.times()
    used["client"] = own.user + own.system
    return used


def cpu_used(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """What each part used between two readings. A backend that started in
    between counts from zero; one that ended in between is lost (the servers
    keep their connections, so few do)."""
    if not before or not after:
        return {}
    used = {"daphne": after["daphne"] - before["daphne"], "postgres": 0.0}
    for key, seconds in after.items():
        if key.startswith("postgres:"):
            used["postgres"] += seconds - before.get(key, 0.0)
    used["client"] = after["client"] - before["client"]
    return used


async def drive(specs: Sequence[GameSpec], ports: Sequence[int], seed: str, stats: Stats,
                move_timeout: float, total_timeout: float, think: float = 0.0,
                pids: Sequence[int] = (), db_name: str = "", chat: float = 0.0) -> float:
    """Open every socket, play every game; return the wall time of the play (s)."""
    clients: list[Client] = []
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def connect(spec: GameSpec, seat: str) -> Any:
        # Seat i of game g on server (g + i) mod N: with N > 1 the seats are on
        # different processes and every update crosses the Redis channel layer.
        port = ports[(spec.index + spec.seats.index(seat)) % len(ports)]
        async with gate:
            client = await open_socket(port, spec.id, spec.cookies[seat], move_timeout)
        clients.append(client)
        return client

    deadline = time.perf_counter() + total_timeout
    try:
        t0 = time.perf_counter()
        tables = await asyncio.wait_for(
            asyncio.gather(*(asyncio.gather(*(connect(s, seat) for seat in s.seats)) for s in specs)),
            total_timeout,
        )
        # Every socket has its sync; then let the servers finish the connect work
        # (presence updates) so that the moves are timed on a settled server.
        for client in clients:
            _, client.state = await asyncio.wait_for(client.next_state(0), move_timeout)
        await asyncio.get_running_loop().run_in_executor(None, drain, ports)
        for client in clients:  # the latest state each socket holds
            while not client.messages.empty():
                at, message = client.messages.get_nowait()
                if message is None:
                    raise ConnectionError("a socket closed before the games began")
                if message.get("type") in ("sync", "update"):
                    client.state = message
        stats.connect_seconds = time.perf_counter() - t0
        say(f"{len(clients)} sockets open and synced in {stats.connect_seconds:.1f} s; playing")
        started = time.perf_counter()
        cpu_before = cpu_seconds(pids, db_name)
        ticker = asyncio.create_task(progress(stats, len(specs), started))
        chatting = [asyncio.create_task(chatter(s, clients, seed, stats, chat, move_timeout))
                    for s, clients in zip(specs, tables) if chat and len(s.seats) == 2]
        try:
            await asyncio.wait_for(
                asyncio.gather(*(play_game(s, clients, seed, stats, move_timeout, think)
                                 for s, clients in zip(specs, tables))),
                max(1.0, deadline - time.perf_counter()),
            )
        except asyncio.TimeoutError:
            stats.errors.append(f"global timeout ({total_timeout:.0f} s) reached")
        finally:
            ticker.cancel()
            for task in chatting:
                task.cancel()
            await asyncio.gather(*chatting, return_exceptions=True)
        cpu_after = cpu_seconds(pids, db_name)
        stats.cpu = cpu_used(cpu_before, cpu_after)
        return time.perf_counter() - started
    except (asyncio.TimeoutError, OSError) as error:  # ConnectionError is an OSError
        stats.errors.append(f"while connecting: {type(error).__name__} {error}")
        return 0.0
    finally:
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)


# --- The benchmark ----------------------------------------------------------


@dataclass
class Result:
    games: int
    servers: int
    stats: Stats
    wall_seconds: float
    check: Check
    sockets: int = 0

    @property
    def moves(self) -> int:
        return len(self.stats.round_trips)

    @property
    def ok(self) -> bool:
        return self.check.ok and not self.stats.errors

    def percentile(self, p: float, values: Sequence[float] | None = None) -> float:
        values = sorted(self.stats.round_trips if values is None else values)
        if not values:
            return float("nan")
        return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] * 1000

    def game_lines(self) -> list[str]:
        """Each game's moves, its share of moves/s in the same run, and its round trips."""
        if len(self.stats.by_game) < 2:
            return []
        return [f"  {label}: {len(times)} moves, {len(times) / self.wall_seconds:.1f} moves/s, round trip ms "
                f"p50 {self.percentile(50, times):.1f}  p99 {self.percentile(99, times):.1f}"
                for label, times in self.stats.by_game.items()]

    def chat_lines(self) -> list[str]:
        """--chat: the lines said and their delivery (sent -> on every seat's socket)."""
        trips, lost = self.stats.chat_trips, self.stats.chat_lost
        if not trips and not lost:
            return []
        return [f"chat lines: {len(trips)} delivered, {len(lost)} refused or unheard; delivery ms "
                f"p50 {self.percentile(50, trips):.1f}  p95 {self.percentile(95, trips):.1f}  "
                f"p99 {self.percentile(99, trips):.1f}  max {self.percentile(100, trips):.1f}",
                *(f"  {line}" for line in lost[:5])]

    def option_lines(self) -> list[str]:
        """The Rhombus seats' ``options`` questions (issue 24): how many, and their round trips."""
        trips = self.stats.option_trips
        if not trips:
            return []
        return [f"options questions (Rhombus): {len(trips)}, {len(trips) / max(1, self.moves):.2f} a move; round trip ms "
                f"p50 {self.percentile(50, trips):.1f}  p99 {self.percentile(99, trips):.1f}  "
                f"max {self.percentile(100, trips):.1f}"]

    def cpu_lines(self) -> list[str]:
        if not self.stats.cpu or not self.moves:
            return []
        per_move = "  ".join(f"{name} {1000 * seconds / self.moves:.2f}"
                             for name, seconds in self.stats.cpu.items())
        return [f"cpu ms per move (while playing): {per_move}"]

    def report(self) -> str:
        rate = self.moves / self.wall_seconds if self.wall_seconds else 0.0
        lines = [
            f"servers: {self.servers} daphne process(es)",
            f"games: {self.stats.games_done} finished of {self.games}",
            f"total moves: {self.moves}",
            f"connect: {self.sockets} sockets open, synced and settled in {self.stats.connect_seconds:.2f} s",
            f"wall time: {self.wall_seconds:.2f} s",
            f"moves/s: {rate:.1f}",
            "round trip ms (act sent -> update on both sockets): "
            f"p50 {self.percentile(50):.1f}  p95 {self.percentile(95):.1f}  "
            f"p99 {self.percentile(99):.1f}  max {self.percentile(100):.1f}",
            *self.game_lines(),
            *self.chat_lines(),
            *self.option_lines(),
            *self.cpu_lines(),
            f"errors: {len(self.stats.errors)}",
            *(f"  {e}" for e in self.stats.errors[:10]),
            *(f"warning: {w}" for w in self.stats.warnings),
            f"lost: {self.check.lost}, duplicated: {self.check.duplicated}, "
            f"unacknowledged: {self.check.unacked}, gaps: {self.check.gaps}, "
            f"unfinished: {self.check.unfinished}",
            *(f"  {p}" for p in self.check.problems[:10]),
        ]
        return "\n".join(lines)


def server_env(database_url: str, redis_url: str, debug: bool, **extra: str) -> dict[str, str]:
    """The environment of the daphne processes: this process's secret key, so
    that the sessions made here are valid there."""
    from django.conf import settings

    return dict(os.environ, DATABASE_URL=database_url, REDIS_URL=redis_url, DB_CONN_MAX_AGE="3600",
                SECRET_KEY=settings.SECRET_KEY, DEBUG="true" if debug else "false",
                DJANGO_SETTINGS_MODULE="aceweb.settings", PYTHONUNBUFFERED="1", PYTHONFAULTHANDLER="1",
                # Plain http on loopback: with DEBUG off the site would redirect to https.
                HTTPS="false", **extra)


def run_benchmark(*, games: int, database_url: str, redis_url: str, servers: int = 1, seed: str = "1",
                  move_timeout: float = 10.0, total_timeout: float = 600.0, debug: bool = False,
                  think: float = 0.0, log_dir: Path | None = None, rhombus: int = 0,
                  rhombus4: int = 0, chat: float = 0.0) -> Result:
    """Play GAMES games through SERVERS daphne processes and check the database.

    Django must already be set up on DATABASE_URL (the daphne processes get the
    same URL, REDIS_URL and SECRET_KEY, so the sessions made here are valid there).
    """
    from django.db import connections

    specs = create_games(games, seed)
    specs += create_games(rhombus, seed, rules="rhombus", first_index=len(specs))
    specs += create_games(rhombus4, seed, players=4, rules="rhombus", first_index=len(specs))
    connections.close_all()  # nothing held open while the servers work
    env = server_env(database_url, redis_url, debug)
    stats = Stats()
    started: list[Server] = []
    with log_directory(log_dir) as logs:
        try:
            started = start_servers(servers, env, logs)
            say(f"daphne on port(s) {', '.join(str(s.port) for s in started)}; "
                f"{len(specs)} games, {sum(len(s.seats) for s in specs)} sockets, think {think:g} s")
            # The clients' own collector pauses would count as round-trip time:
            # tune it as the servers do (aceweb/asgi.py).
            gc.freeze()
            gc.set_threshold(20_000, 20, 20)
            wall = asyncio.run(drive(specs, [s.port for s in started], seed, stats, move_timeout,
                                     total_timeout, think, [s.process.pid for s in started],
                                     database_name(database_url), chat))
            drain([s.port for s in started])
        finally:
            stop_servers(started)
        for s in started:
            if s.process.returncode not in (0, -signal.SIGTERM):
                stats.warnings.append(f"daphne on port {s.port} did not stop on SIGTERM within 15 s "
                                      f"(exit {s.process.returncode}); its log ends:\n{tail(s.log, 40)}")
    check = check_database(specs, stats.acked)
    connections.close_all()
    return Result(len(specs), servers, stats, wall, check, sum(len(s.seats) for s in specs))


@contextmanager
def log_directory(path: Path | None) -> Iterator[Path]:
    if path is not None:
        path.mkdir(parents=True, exist_ok=True)
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="aceweb-bench-") as tmp:
        yield Path(tmp)


def prepare_services(db_name: str, redis_number: int, debug: bool) -> tuple[str, str, str] | None:
    """Check DATABASE_URL and REDIS_URL (PostgreSQL and Redis on loopback), create
    and migrate the bench's own database, flush its own Redis database, and point
    this process at both. (DATABASE_URL, bench database URL, bench Redis URL), or
    None after saying what is wrong. Shared with bench/soak.py."""
    base_db, base_redis = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not base_db.startswith(("postgres://", "postgresql://", "pgsql://")):
        say("DATABASE_URL must name a PostgreSQL server (e.g. postgres://postgres@127.0.0.1:5432/x); "
            "the bench uses its own database on it")
        return None
    if not base_redis.startswith(("redis://", "rediss://")):
        say("REDIS_URL must name a Redis server (e.g. redis://127.0.0.1:6379/0); "
            f"the bench uses its own database on it ({redis_number})")
        return None
    for url in (base_db, base_redis):
        host = urlsplit(url).hostname or ""
        if host not in ("127.0.0.1", "localhost", "::1") and not host.startswith("127."):
            say(f"refusing a non-loopback service host {host!r}: load tests stay on this machine")
            return None
    if redis_number == 0:
        say("--redis-db 0 is where real data lives; pick another")
        return None
    if db_name == database_name(base_db):
        say(f"--db-name {db_name} is the DATABASE_URL database; the bench needs its own")
        return None

    bench_db = ensure_database(base_db, db_name)
    bench_redis = with_path(base_redis, f"/{redis_number}")
    os.environ.update(DATABASE_URL=bench_db, REDIS_URL=bench_redis, DJANGO_SETTINGS_MODULE="aceweb.settings",
                      DEBUG="true" if debug else "false")
    os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_hex(32))
    say(f"migrating {db_name}")
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)
    flush_redis(bench_redis)
    return base_db, bench_db, bench_redis


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50, help="games played at once (default 50)")
    parser.add_argument("--rhombus", type=int, default=0, help="Rhombus games of two players, beside them (default 0)")
    parser.add_argument("--rhombus4", type=int, default=0, help="Rhombus games of four players (default 0)")
    parser.add_argument("--servers", type=int, default=1, help="daphne processes (default 1)")
    parser.add_argument("--db-name", default=DEFAULT_DB_NAME,
                        help=f"the bench's own PostgreSQL database (default {DEFAULT_DB_NAME})")
    parser.add_argument("--redis-db", type=int, default=DEFAULT_REDIS_DB,
                        help=f"the bench's own Redis database, flushed (default {DEFAULT_REDIS_DB})")
    parser.add_argument("--seed", default="1", help="game seeds and move choices (default 1)")
    parser.add_argument("--timeout", type=float, default=600, help="global timeout, s (default 600)")
    parser.add_argument("--move-timeout", type=float, default=10, help="per-move timeout, s (default 10)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a player waits before each move (default 0: as fast as possible)")
    parser.add_argument("--chat", type=float, default=0.0,
                        help="mean seconds between the chat lines of each two-player game (default 0: no chat)")
    parser.add_argument("--debug", action="store_true", help="run daphne with DEBUG=true (default false)")
    parser.add_argument("--logs", type=Path, help="keep the daphne logs in this folder")
    parser.add_argument("--drop", action="store_true", help="drop the bench database at the end")
    args = parser.parse_args(argv)
    if args.games < 1 or args.servers < 1:
        parser.error("--games and --servers must be at least 1")

    def bench(database_url: str, redis_url: str) -> Any:
        return run_benchmark(
            games=args.games, database_url=database_url, redis_url=redis_url, servers=args.servers, seed=args.seed,
            move_timeout=args.move_timeout, total_timeout=args.timeout, debug=args.debug, think=args.think,
            log_dir=args.logs, rhombus=args.rhombus, rhombus4=args.rhombus4, chat=args.chat)

    return run_on_services(args.db_name, args.redis_db, args.debug, args.drop, bench)


def run_on_services(db_name: str, redis_number: int, debug: bool, drop: bool,
                    bench: Callable[[str, str], Any]) -> int:
    """The bench's own database and Redis database (prepare_services), Django set
    up, then ``bench(database_url, redis_url)`` between two load-average lines and
    its result's report printed. Redis is flushed, and with ``drop`` the database
    dropped, whatever happens. 0 when the result is ok, 1 if not, 2 without services."""
    prepared = prepare_services(db_name, redis_number, debug)
    if prepared is None:
        return 2
    base_db, bench_db, bench_redis = prepared
    try:
        import django

        django.setup()
        load = os.getloadavg()
        say(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
        result = bench(bench_db, bench_redis)
        load = os.getloadavg()
        print(result.report(), flush=True)
        say(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        return 0 if result.ok else 1
    finally:
        flush_redis(bench_redis)
        if drop:
            from django.db import connections

            connections.close_all()
            drop_database(base_db, db_name)


if __name__ == "__main__":
    sys.exit(main())
