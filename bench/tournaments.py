"""Tournament benchmark: Swiss pairing per round, starting a round of 500
games end to end, and the tournament page with 1,000 players.

    .venv/bin/python bench/tournaments.py [--pairing-sizes 100 500 1000 5000] [--players 1000] [--drop]

Needs DATABASE_URL (PostgreSQL) and REDIS_URL. It never touches the
databases they name: it creates and migrates its own PostgreSQL database
(``aceweb_bench_tournaments``) and uses Redis database 12, flushed before
and after.

0. Standings: ``tiebreaks.standings`` with every tiebreak for 1,000 players
   after 11 random Swiss rounds (no database), wall and CPU time.
1. Pairing: ``bench/swiss_pairing.py``'s figures, the Dutch pairing alone
   (no database), per round for rounds 5..9 of an 11-round Swiss, with random
   results between rounds.
2. Starting a round: PLAYERS entries in a Swiss; ``advancing.advance`` pairs
   round 1 and starts its PLAYERS/2 games in one transaction, then tells every
   player through the Redis channel layer (after commit). Then the results of
   each round are written straight into the database and the next round is
   started, to round 5: each start is timed, split into pairing and the rest.
3. The page: /tournaments/<id>/ and its live part with PLAYERS players after
   those rounds: median server time of 5 requests and the query count.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.live_play import database_name, drop_database, ensure_database, flush_redis, say, with_path  # noqa: E402
from bench.leaderboard import seed_players  # noqa: E402

DEFAULT_DB_NAME = "aceweb_bench_tournaments"
REDIS_DB = 12
ROUNDS = 5


def standings_figures(players: int = 1000, rounds: int = 11, repeats: int = 3) -> None:
    from tournaments.results import Player, Round
    from tournaments.tiebreaks import TIEBREAKS, standings

    rng = random.Random(11)
    records: dict[int, list[Round]] = {n: [] for n in range(1, players + 1)}
    flip = {"1": "0", "0": "1", "=": "="}
    for _ in range(rounds):
        order = list(records)
        rng.shuffle(order)
        for red, black in zip(order[::2], order[1::2]):
            code = rng.choice("1=0")
            records[red].append(Round(black, "w", code))
            records[black].append(Round(red, "b", flip[code]))
    field = [Player(n, f"p{n}", rng.randrange(1000, 2600), tuple(rounds_)) for n, rounds_ in records.items()]
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        standings(field, list(TIEBREAKS))
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    print(f"Standings with all {len(TIEBREAKS)} tiebreaks, {players} players after {rounds} rounds: "
          f"best {min(walls) * 1000:.0f} ms wall, {min(cpus) * 1000:.0f} ms CPU (of {repeats})", flush=True)


def pairing_figures(sizes: Sequence[int]) -> None:
    from bench import swiss_pairing

    print("Swiss pairing (Dutch, rustworkx), seconds per round, rounds 5-9 of 11:", flush=True)
    for size in sizes:
        began = time.monotonic()
        times = swiss_pairing.run(size, 11, 9, 1)
        late = times[4:]
        print(f"  {size:5d} players: median {statistics.median(late):6.2f} s, max {max(late):6.2f} s"
              f"  (all rounds: {' '.join(f'{t:.2f}' for t in times)}; {time.monotonic() - began:.0f} s in all)",
              flush=True)


def make_tournament(players: int) -> int:
    """A Swiss of PLAYERS seeded users, due to start now."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from tournaments.models import Entry, Tournament

    users = list(get_user_model().objects.order_by("pk").values_list("pk", "player__rating")[:players])
    organizer = get_user_model().objects.order_by("pk").first()
    t = Tournament.objects.create(name="Bench Swiss", organizer=organizer, format=Tournament.Format.SWISS,
                                  rounds=11, starts_at=timezone.now(), max_players=players, pause_seconds=0)
    Entry.objects.bulk_create(Entry(tournament=t, user_id=pk, rating=rating or 1500) for pk, rating in users)
    return t.pk


def finish_round_in_sql(tournament_id: int, rng: random.Random) -> None:
    """Random results for the round's games, written as a finished game would leave them."""
    from django.db import transaction
    from django.utils import timezone

    from games.models import Game
    from tournaments.models import Pairing, Round, Tournament

    with transaction.atomic():
        pairings = list(Pairing.objects.filter(round__tournament_id=tournament_id, result="", game__isnull=False))
        for pairing in pairings:
            pairing.result = rng.choice(["1-0", "0-1", "1/2"])
        Pairing.objects.bulk_update(pairings, ["result"], batch_size=500)
        Game.objects.filter(pk__in=[p.game_id for p in pairings]).update(
            status=Game.Status.FINISHED, reason="resignation", finished=timezone.now())
        Round.objects.filter(tournament_id=tournament_id, status="running").update(status="finished")
        Tournament.objects.filter(pk=tournament_id).update(next_round_at=timezone.now())


def timed_pairing() -> list[float]:
    """Wrap the Dutch pairing so that its share of a round's start is known."""
    from tournaments import swiss

    spent: list[float] = []
    original = swiss.pair

    def pair(*args: object, **kwargs: object) -> object:
        began = time.perf_counter()
        try:
            return original(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            spent.append(time.perf_counter() - began)

    swiss.pair = pair  # type: ignore[assignment]
    return spent


def round_starts(tournament_id: int, rounds: int) -> None:
    from tournaments import advancing
    from tournaments.models import Pairing

    rng = random.Random(5)
    pairing_times = timed_pairing()
    print("Starting a round (pairing, game rows, notifications through Redis), seconds:", flush=True)
    for number in range(1, rounds + 1):
        if number > 1:
            finish_round_in_sql(tournament_id, rng)
        began = time.perf_counter()
        outcome = advancing.advance(tournament_id)  # on_commit: every player told through Redis
        total = time.perf_counter() - began
        games = Pairing.objects.filter(round__tournament_id=tournament_id, round__number=number,
                                       game__isnull=False).count()
        print(f"  round {number}: {total:6.2f} s for {games} games ({games / total:5.0f} games/s);"
              f" pairing {pairing_times[-1]:.2f} s; {outcome}", flush=True)
    finish_round_in_sql(tournament_id, rng)


def page_figures(tournament_id: int, players: int) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    print(f"The tournament page with {players} players after {ROUNDS} rounds:", flush=True)
    for path in (f"/tournaments/{tournament_id}/", f"/tournaments/{tournament_id}/live/"):
        response = client.get(path, secure=True)  # DEBUG off: plain http is redirected to https
        assert response.status_code == 200, (path, response.status_code, response.get("Location"), response.content[:2000])
        times = []
        for _ in range(5):
            began = time.perf_counter()
            response = client.get(path, secure=True)
            times.append((time.perf_counter() - began) * 1000)
        with CaptureQueriesContext(connection) as queries:
            client.get(path, secure=True)
        sql = sum(float(q["time"]) for q in queries.captured_queries) * 1000
        print(f"  {path:<28} median {statistics.median(times):7.1f} ms, SQL {sql:6.1f} ms, {len(queries)} queries,"
              f" {len(response.content) // 1024} KiB", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairing-sizes", type=int, nargs="*", default=[100, 500, 1000, 5000])
    parser.add_argument("--players", type=int, default=1000, help="entries of the database part (default 1000)")
    parser.add_argument("--db-name", default=DEFAULT_DB_NAME)
    parser.add_argument("--drop", action="store_true", help="drop the bench database at the end")
    args = parser.parse_args(argv)
    base_db, base_redis = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not base_db.startswith(("postgres://", "postgresql://")) or not base_redis:
        say("DATABASE_URL (PostgreSQL) and REDIS_URL must be set; the bench uses its own database on each")
        return 2
    if args.db_name == database_name(base_db):
        parser.error(f"--db-name {args.db_name} is the DATABASE_URL database; the bench needs its own")
    load = os.getloadavg()
    say(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    standings_figures()
    if args.pairing_sizes:
        pairing_figures(args.pairing_sizes)
    if not args.players:
        return 0
    bench_db = ensure_database(base_db, args.db_name)
    redis_url = with_path(base_redis, str(REDIS_DB))
    flush_redis(redis_url)
    os.environ.update(DATABASE_URL=bench_db, REDIS_URL=redis_url, DJANGO_SETTINGS_MODULE="aceweb.settings",
                      DEBUG="false")
    os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_hex(32))
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)
    try:
        import django

        django.setup()
        from django.db import connection

        with connection.cursor() as cursor:  # the bench's own database only
            cursor.execute("TRUNCATE auth_user RESTART IDENTITY CASCADE")
        seed_players(args.players)
        tournament_id = make_tournament(args.players)
        if os.environ.get("BENCH_PROFILE"):
            import cProfile

            cProfile.runctx("round_starts(tournament_id, 1)", globals(), {"tournament_id": tournament_id},
                            os.environ["BENCH_PROFILE"])
            return 0
        round_starts(tournament_id, ROUNDS)
        if os.environ.get("BENCH_PAGE_PROFILE"):
            import cProfile

            from django.test import Client

            client = Client(HTTP_HOST="127.0.0.1")
            client.get(f"/tournaments/{tournament_id}/", secure=True)
            cProfile.runctx("client.get(path, secure=True)", {}, {"client": client,
                            "path": f"/tournaments/{tournament_id}/"}, os.environ["BENCH_PAGE_PROFILE"])
        page_figures(tournament_id, args.players)
    finally:
        from django.db import connections

        connections.close_all()
        flush_redis(redis_url)
        if args.drop:
            drop_database(base_db, args.db_name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
