"""An API move's work in one process: CPU, SQL statements, PostgreSQL and
Redis connections, and Redis commands per ``POST /api/games/{id}/actions``
(issue 24).

    .venv/bin/python bench/api_move_path.py [--games 10] [--moves 40] [--rounds 3]

Needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis), as bench/live_play.py,
and like it works in a database of its own (``aceweb_bench_api_path``) and a
Redis database of its own (``--redis-db``, 12; flushed). Each round starts
``--games`` new Ace in the Hole games with a play token a seat, then POSTs
``--moves`` random legal actions a game, one request at a time, through the
site's own ASGI application (aceweb.asgi: the middleware, the token check, the
rate limits, the move and the mover's view) on this process's event loop, as
daphne hands it a request. The rate limits are on (high enough never to
refuse), as on a site. Which action to play is read before each request, from
the database, outside the timed part.

No daphne, no sockets, no streams: what is left is the POST's own CPU, timed
with the process's CPU clock (``time.process_time``, every thread of the
process) around each request; best and worst of ``--rounds``, after a round to
warm up. bench/api_streams.py measures the whole path (the streams' lines
too) under daphne.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.live_play import create_games, run_on_services, say  # noqa: E402

DEFAULT_DB_NAME = "aceweb_bench_api_path"
DEFAULT_REDIS_DB = 12
RATE = "10000000/min"  # counted as on a site, never reached


class Counts:
    """SQL statements (an execute wrapper on every database connection),
    connections handed to Django (``connection_created``: new, or from the
    pool), PostgreSQL sessions started (pg_stat_database), Redis commands and
    Redis connections made, while counting."""

    def __init__(self) -> None:
        self.sql: Counter[str] = Counter()
        self.redis: Counter[str] = Counter()
        self.connects = Counter[str]()
        self.on = False

    def statement(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if self.on:
            self.sql[sql.split(None, 1)[0].upper()] += 1
        return execute(sql, params, many, context)

    def install(self) -> None:
        import redis
        import redis.asyncio
        from django.db.backends.signals import connection_created

        def created(sender: Any, connection: Any, **kwargs: Any) -> None:
            if self.statement not in connection.execute_wrappers:
                connection.execute_wrappers.append(self.statement)
            if self.on:
                self.connects["Django connections opened (new, or taken from the pool)"] += 1

        connection_created.connect(created, weak=False)
        for client in (redis.Redis, redis.asyncio.Redis):
            self._wrap_command(client)
        for kind in (redis.connection.AbstractConnection, redis.asyncio.connection.AbstractConnection):
            self._wrap_connect(kind)

    def _wrap_command(self, client: Any) -> None:
        original, counts = client.execute_command, self

        if asyncio.iscoroutinefunction(original):
            async def acounted(redis_client: Any, *args: Any, **options: Any) -> Any:
                if counts.on:
                    counts.redis[str(args[0]).upper()] += 1
                return await original(redis_client, *args, **options)
            client.execute_command = acounted
        else:
            def counted(redis_client: Any, *args: Any, **options: Any) -> Any:
                if counts.on:
                    counts.redis[str(args[0]).upper()] += 1
                return original(redis_client, *args, **options)
            client.execute_command = counted

    def _wrap_connect(self, kind: Any) -> None:
        original, counts = kind.on_connect, self

        if asyncio.iscoroutinefunction(original):
            async def aconnected(connection: Any, *args: Any, **kwargs: Any) -> Any:
                if counts.on:
                    counts.connects["Redis connections made"] += 1
                return await original(connection, *args, **kwargs)
            kind.on_connect = aconnected
        else:
            def connected(connection: Any, *args: Any, **kwargs: Any) -> Any:
                if counts.on:
                    counts.connects["Redis connections made"] += 1
                return original(connection, *args, **kwargs)
            kind.on_connect = connected


def pg_sessions(database_url: str) -> int:
    """Sessions ever started on the bench database (PostgreSQL 14+), asked on
    a connection of its own, outside Django."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()").fetchone()
    return int(row[0]) if row else 0


async def post(app: Any, path: str, token: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """One request through the ASGI application, as daphne hands it over."""
    data = json.dumps(body).encode()
    scope = {
        "type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
        "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 8000),
        "headers": [(b"host", b"127.0.0.1:8000"), (b"authorization", f"Bearer {token}".encode()),
                    (b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())],
    }
    received = False
    parts: list[bytes] = []
    status = 0

    async def receive() -> dict[str, Any]:
        nonlocal received
        if not received:
            received = True
            return {"type": "http.request", "body": data, "more_body": False}
        await asyncio.Future()  # the client never goes (Django cancels this wait)
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            parts.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, json.loads(b"".join(parts) or b"{}")


async def play_round(app: Any, database_url: str, games: int, moves: int, seed: str, counts: Counts,
                     times: list[float]) -> int:
    """GAMES new games, MOVES POSTed moves each (fewer if a game ends); the CPU
    seconds of each request go to TIMES. Returns the moves played."""
    from asgiref.sync import sync_to_async

    from bench.api_streams import seat_tokens

    specs = await sync_to_async(create_games)(games, seed)
    tokens = await sync_to_async(seat_tokens)(specs)
    rng = random.Random(seed)
    played = 0
    sessions = await sync_to_async(pg_sessions)(database_url)
    for _ in range(moves):
        for spec in specs:
            seat, legal, ply = await sync_to_async(_to_move)(spec.id)
            if seat is None or not legal:
                continue
            path = f"/api/games/{spec.id}/actions"
            counts.on = True
            began = time.process_time()
            status, answer = await post(app, path, tokens[spec.id][seat], {"ply": ply, "action": rng.choice(legal)})
            times.append(time.process_time() - began)
            counts.on = False
            if status != 200:
                raise RuntimeError(f"POST {path}: {status} {answer}")
            played += 1
    # Less the one that asked (each reading is a session of its own).
    counts.connects["PostgreSQL sessions started"] += await sync_to_async(pg_sessions)(database_url) - sessions - 1
    return played


def _to_move(game_id: int) -> tuple[str | None, list[str], int]:
    """The seat to move, its legal actions and the ply (outside the timed part)."""
    from games import payloads, store

    game = store.load(game_id)
    assert game is not None
    if not game.running:
        return None, [], game.ply
    seat = game.to_move
    view = payloads.seat_view(game, seat)
    return seat, list(view["legal"]), int(view["ply"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games a round (default 10)")
    parser.add_argument("--moves", type=int, default=40, help="moves a game (default 40)")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds, each of new games (default 3)")
    parser.add_argument("--db-name", default=DEFAULT_DB_NAME)
    parser.add_argument("--redis-db", type=int, default=DEFAULT_REDIS_DB)
    parser.add_argument("--drop", action="store_true", help="drop the bench database at the end")
    args = parser.parse_args(argv)
    # As the benches' daphnes are set (bench/live_play.py, server_env): plain http on
    # loopback, connections kept (DB_CONN_MAX_AGE), rate limits counted.
    os.environ.update(HTTPS="false", API_RATE_PER_TOKEN=RATE, API_RATE_PER_ADDRESS=RATE)
    os.environ.setdefault("DB_CONN_MAX_AGE", "3600")

    def bench(database_url: str, redis_url: str) -> Any:
        from aceweb.asgi import application

        counts = Counts()
        counts.install()

        async def run() -> Report:
            per_move: list[float] = []
            await play_round(application, database_url, max(1, args.games // 2), 5, "warm-up", counts, [])
            counts.sql.clear()
            counts.redis.clear()
            counts.connects.clear()
            moves = 0
            for number in range(args.rounds):
                times: list[float] = []
                moves += await play_round(application, database_url, args.games, args.moves,
                                          f"{number}-{random.random()}", counts, times)
                per_move.append(1000 * sum(times) / len(times))
                say(f"round {number + 1}: {len(times)} moves, {per_move[-1]:.3f} ms CPU a request")
            return Report(per_move, moves, counts)

        return asyncio.run(run())

    return run_on_services(args.db_name, args.redis_db, False, args.drop, bench)


class Report:
    def __init__(self, per_move: list[float], moves: int, counts: Counts) -> None:
        self.per_move, self.moves, self.counts = per_move, moves, counts
        self.ok = True

    def report(self) -> str:
        def per(counter: Counter[str]) -> str:
            parts = [f"{name} {n / self.moves:.2f}" for name, n in counter.most_common()]
            return f"{sum(counter.values()) / self.moves:.2f} ({', '.join(parts)})"

        return "\n".join([
            f"CPU ms a POST /api/games/{{id}}/actions ({self.moves} moves): "
            f"best {min(self.per_move):.3f}, worst {max(self.per_move):.3f}",
            f"SQL statements a move: {per(self.counts.sql)}",
            f"Redis commands a move: {per(self.counts.redis)}",
            *(f"{name} a move: {n / self.moves:.2f}" for name, n in self.counts.connects.items()),
        ])


if __name__ == "__main__":
    sys.exit(main())
