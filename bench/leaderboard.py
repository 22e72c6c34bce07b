"""Leaderboard benchmark: the /ladder/ page's server time and query count with many players.

    .venv/bin/python bench/leaderboard.py --players 100000 [--runs 7] [--drop]

Needs DATABASE_URL (PostgreSQL). It never touches the database it names: it
creates and migrates its own (``aceweb_bench_ladder`` by default, on the same
server), seeds PLAYERS users with ladder rows in one SQL statement each
(ratings spread around 1500, a third of them active in the last 30 days, one
in 500 a bot), and reuses them on the next run if the count matches.

Then, signed in as a seeded player (so the "find me" link and the own-row
highlight are computed), it requests each view of the page through Django's
test client, in process: the first page, the second, a deep page, the last
page, a name search, and each filter (all players, bots hidden, both). For
each it prints the median server time of RUNS requests (after one warm-up),
the time spent in SQL and the number of queries (from one more request), the
median CPU time of this process a request (Python, and the client side of the
queries), and the rows shown. The whole request is timed: middleware, session,
view, template. DEBUG is off, as on a deployed site, so the requests are made
over https (the settings redirect http there); the load average is printed
before and after.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import timedelta
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.live_play import database_name, drop_database, ensure_database, say  # noqa: E402

DEFAULT_DB_NAME = "aceweb_bench_ladder"
NAME_WORDS = ("ace", "king", "queen", "jack", "heart", "spade", "club", "diamond")
SEARCH = "queen1"  # a prefix: queen10, queen18, queen106, ... (names are word + number)


@dataclass
class Case:
    name: str
    query: str
    median_ms: float
    cpu_ms: float  # this process's CPU (Python and the client side of the queries), median
    queries: int
    sql_ms: float  # the database's share, from one more request
    rows: int

    def line(self) -> str:
        return (f"{self.name:<24} {self.median_ms:8.1f} ms {self.sql_ms:7.1f} ms {self.cpu_ms:7.1f} ms"
                f" {self.queries:4d} queries"
                f" {self.rows:4d} rows   /ladder/?{self.query}")


@dataclass
class Result:
    players: int
    runs: int
    cases: list[Case]

    def report(self) -> str:
        queries = sorted({c.queries for c in self.cases})
        lines = [f"leaderboard: {self.players} players, median of {self.runs} requests each",
                 f"{'view':<24} {'server':>11} {'of it SQL':>10} {'CPU':>10} {'':>12} {'shown':>9}",
                 *(c.line() for c in self.cases),
                 f"slowest: {max(c.median_ms for c in self.cases):.1f} ms; queries per page: "
                 + ", ".join(str(q) for q in queries)]
        return "\n".join(lines)


def seed_players(count: int) -> int:
    """COUNT users named like "queen123" with ladder rows; deterministic (setseed). Returns COUNT."""
    from django.db import connection, transaction

    words = "ARRAY[" + ",".join(f"'{w}'" for w in NAME_WORDS) + "]"
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT setseed(0.42)")
        cursor.execute(
            "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email,"
            " is_staff, is_active, date_joined)"
            f" SELECT '!', false, ({words})[1 + i %% {len(NAME_WORDS)}] || i, '', '', '', false, true, now()"
            " FROM generate_series(1, %s) AS i", [count])
        # Ratings: a sum of three uniforms, ~N(1500, 250); games 0..199 split into W/D/L.
        cursor.execute(
            "INSERT INTO ladder_player (user_id, rating, rated_games, wins, draws, losses, streak,"
            " reached_2400, last_active, is_bot, bot_level)"
            " SELECT id, rating, games, wins, draws, games - wins - draws, streak, rating >= 2400,"
            "  now() - random() * interval '90 days', id % 500 = 0, CASE WHEN id % 500 = 0 THEN 'greedy' ELSE '' END"
            " FROM (SELECT id, games, floor(random() * (games + 1))::int / 2 AS wins,"
            "        floor(random() * (games + 1))::int / 4 AS draws,"
            "        (1500 + (random() + random() + random() - 1.5) * 500)::int AS rating,"
            "        floor(random() * 7)::int - 3 AS streak"
            "       FROM (SELECT id, floor(random() * 200)::int AS games FROM auth_user"
            "             WHERE NOT EXISTS (SELECT 1 FROM ladder_player p WHERE p.user_id = auth_user.id)) u) s")
    return count


def vacuum() -> None:
    """What beat and autovacuum do on a live site: the leaderboard's count rows
    folded together (ladder.tasks.compact_rank_counts), fresh statistics, and the
    visibility map that lets index-only scans skip the table. Outside a transaction."""
    from django.db import connection

    from ladder.tasks import compact_rank_counts

    compact_rank_counts()
    with connection.cursor() as cursor:
        for table in ("auth_user", "ladder_player", "ladder_ratingcount"):
            cursor.execute(f"VACUUM ANALYZE {table}")


def cases(players: int) -> list[tuple[str, str]]:
    from ladder.leaderboard import PAGE_SIZE

    active_pages = max(1, players // 3 // PAGE_SIZE)
    return [
        ("first page", ""),
        ("page 2", "page=2"),
        ("deep page (middle)", f"page={max(1, active_pages // 2)}"),
        ("last page", "page=last"),
        ("search", f"q={SEARCH}"),
        ("all players", "show=all"),
        ("all players, deep", f"show=all&page={max(1, players // PAGE_SIZE // 2)}"),
        ("bots hidden", "bots=hide"),
        ("all, bots hidden, deep", f"show=all&bots=hide&page={max(1, players // PAGE_SIZE // 2)}"),
        ("search, all players", f"q={SEARCH}&show=all"),
    ]


def measure(players: int, runs: int) -> Result:
    """Django is set up on the seeded database; time each case through the test client."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    # A player every view ranks (active, not a bot): each computes their page.
    recently = timezone.now() - timedelta(days=20)
    viewer = (get_user_model().objects.filter(player__last_active__gte=recently, player__is_bot=False)
              .order_by("pk").first())
    # DEBUG is off, so the settings redirect http to https (HTTPS defaults on):
    # every request is made over https, as a deployed site is reached.
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(viewer)
    measured = []
    for name, query in cases(players):
        url = f"/ladder/?{query}"
        assert client.get(url, secure=True).status_code == 200  # warm-up
        times, cpu = [], []
        for _ in range(runs):
            began, began_cpu = time.perf_counter(), time.process_time()
            response = client.get(url, secure=True)
            times.append((time.perf_counter() - began) * 1000)
            cpu.append((time.process_time() - began_cpu) * 1000)
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url, secure=True)
        assert response.status_code == 200, (url, response.status_code)
        rows = response.content.decode().count('class="ladder__row')
        sql_ms = sum(float(q["time"]) for q in captured.captured_queries) * 1000
        measured.append(Case(name, query, statistics.median(times), statistics.median(cpu), len(captured),
                             sql_ms, rows))
    return Result(players, runs, measured)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100_000, help="players seeded (default 100000)")
    parser.add_argument("--runs", type=int, default=7, help="timed requests per view (default 7)")
    parser.add_argument("--db-name", default=DEFAULT_DB_NAME,
                        help=f"the bench's own PostgreSQL database (default {DEFAULT_DB_NAME})")
    parser.add_argument("--drop", action="store_true", help="drop the bench database at the end")
    args = parser.parse_args(argv)
    base_db = os.environ.get("DATABASE_URL", "")
    if not base_db.startswith(("postgres://", "postgresql://", "pgsql://")):
        say("DATABASE_URL must name a PostgreSQL server; the bench uses its own database on it")
        return 2
    if args.db_name == database_name(base_db):
        parser.error(f"--db-name {args.db_name} is the DATABASE_URL database; the bench needs its own")
    bench_db = ensure_database(base_db, args.db_name)
    os.environ.update(DATABASE_URL=bench_db, DJANGO_SETTINGS_MODULE="aceweb.settings", DEBUG="false")
    os.environ.pop("REDIS_URL", None)  # the page needs no Redis
    os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_hex(32))
    say(f"migrating {args.db_name}")
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)
    try:
        import django

        django.setup()
        from ladder.models import Player

        have = Player.objects.count()
        if have != args.players:
            from django.db import connection

            say(f"seeding {args.players} players (had {have})")
            began = time.monotonic()
            with connection.cursor() as cursor:  # the bench's own database only
                cursor.execute("TRUNCATE auth_user RESTART IDENTITY CASCADE")
            seed_players(args.players)
            say(f"seeded in {time.monotonic() - began:.1f} s")
        vacuum()
        load = os.getloadavg()
        say(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
        print(measure(args.players, args.runs).report(), flush=True)
        load = os.getloadavg()
        say(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    finally:
        if args.drop:
            from django.db import connections

            connections.close_all()
            drop_database(base_db, args.db_name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
