"""Admin lists benchmark: every changelist of the admin, and the CSV export, on an admin-sized database.

    .venv/bin/python bench/admin_lists.py [--database-url URL] [--quick] [--pages 5] [--exports 3] [--drop]

Issue 37 ("lists that scale") asked that every admin list be a small constant
number of queries; tests/site/test_admin_queries.py pins each count at 100 rows.
This measures what the lists cost on a database the size the issue was tried on.

The database is DATABASE_URL (or --database-url) and its name must start with
``aceweb_bench``: the script empties it (TRUNCATE) before filling it, so it
refuses any other. It is created on that server if missing and migrated. Then it
is filled, with bulk inserts over one pool of users (deterministic, seed 37):

    1,000 users (each a ladder player with an e-mail address), 600 finished games
    with their seats and ~32,000 moves, 1,200 rating changes (two a game),
    3,000 chat lines, 300 reports, 150 moderation acts, 12 Swiss tournaments of
    32 players with 3 rounds of pairings (their games among the 600), and a few
    dozen rows in each of the other lists (seeks, challenges, bans, tokens, ...).

``--quick`` fills about a tenth of that. A registered model this script does
not fill is filled by its factory in tests/site/admin_rows.py, so a list added
later is measured too.

Signed in as a superuser with Django's test client (in process, DEBUG off, so
over https as on a deployed site), it GETs each registered model's changelist
(generic over ``admin.site._registry``, as test_admin_queries.py does): one
warm-up, PAGES timed requests, one more to count the queries. Per list it
prints the rows in the table, the queries a page, the median wall ms a page and
the median CPU ms a page (``time.process_time``: the test client runs the view
in this process, so this is the request's Python and the client side of its
queries). Then it exports the largest exportable list (adminkit/export.py:
"Select all", "Export selected as CSV") EXPORTS times and prints rows a second
(wall) and CPU ms per 1,000 rows. The load average is printed at the start and
at the end.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.live_play import database_name, drop_database, ensure_database, say  # noqa: E402

PREFIX = "aceweb_bench"
SEED = 37
MAX_PAGES = 50  # --pages and --exports are bounded: every loop ends
MAX_REDIRECTS = 3
ROOMS_PER_GAME_SHARE = 0.7  # of the chat lines, the share said in game rooms (the rest: lobby, tournaments)


@dataclass(frozen=True)
class Sizes:
    users: int
    games: int
    moves: int
    lines: int
    reports: int
    acts: int
    tournaments: int
    entrants: int  # per tournament (even)
    rounds: int  # per tournament, each pairing every entrant
    few: int  # rows in each of the smaller lists

    @property
    def tournament_games(self) -> int:
        return self.tournaments * self.rounds * self.entrants // 2


FULL = Sizes(users=1000, games=600, moves=32000, lines=3000, reports=300, acts=150, tournaments=12, entrants=32,
             rounds=3, few=50)
QUICK = Sizes(users=100, games=60, moves=3200, lines=300, reports=30, acts=15, tournaments=2, entrants=8, rounds=3,
              few=10)


# --- The data set -------------------------------------------------------------


class Filler:
    """Bulk inserts over one pool of users; rows spread as a live site's are
    (moves 20-86 a game, chat by many authors, reports about games)."""

    def __init__(self, sizes: Sizes) -> None:
        self.sizes = sizes
        self.rng = random.Random(SEED)
        self.now = self._now()
        self.users: list[Any] = []
        self.games: list[Any] = []
        self.sides: dict[int, tuple[Any, Any]] = {}

    @staticmethod
    def _now() -> datetime:
        from django.utils import timezone

        return timezone.now()

    def ago(self, days: float) -> datetime:
        return self.now - timedelta(seconds=self.rng.uniform(0, days * 86400))

    def some_users(self, n: int) -> list[Any]:
        return self.rng.sample(self.users, min(n, len(self.users)))

    def fill(self) -> None:
        for step in (self.accounts, self.games_and_moves, self.rating_changes, self.tournaments, self.chat,
                     self.reports_and_acts, self.lobby, self.the_rest):
            began = time.perf_counter()
            step()
            say(f"  {step.__name__}: {time.perf_counter() - began:.1f} s")

    def accounts(self) -> None:
        from allauth.account.models import EmailAddress
        from django.contrib.auth import get_user_model

        from ladder.models import Player
        from preferences.models import Preference

        User = get_user_model()
        self.users = User.objects.bulk_create([
            User(username=f"player{i}", email=f"player{i}@example.org", password="!", date_joined=self.ago(400),
                 last_login=self.ago(30)) for i in range(1, self.sizes.users + 1)], batch_size=1000)
        Player.objects.bulk_create([
            Player(user=user, name=user.username, rating=int(self.rng.gauss(1500, 250)),
                   rated_games=self.rng.randrange(0, 200), last_active=self.ago(90)) for user in self.users],
            batch_size=1000)
        EmailAddress.objects.bulk_create([EmailAddress(user=user, email=user.email, primary=True, verified=True)
                                          for user in self.users], batch_size=1000)
        Preference.objects.bulk_create([Preference(user=user, language=self.rng.choice(["de", "es", "ru", "en"]))
                                        for user in self.users[::3]], batch_size=1000)

    def games_and_moves(self) -> None:
        from games.models import Game, Move, Seat

        reasons = [Game.Reason.ACES, Game.Reason.POINTS, Game.Reason.RESIGNATION, Game.Reason.TIME]
        finished = [self.ago(180) for _ in range(self.sizes.games)]
        self.games = Game.objects.bulk_create([
            Game(position={}, commitment="c", status=Game.Status.FINISHED, winner=self.rng.choice(["red", "black"]),
                 reason=self.rng.choice(reasons), finished=when, rating=self.rng.randrange(1100, 1900))
            for when in finished], batch_size=1000)
        seats = []
        for game in self.games:
            red, black = self.some_users(2)
            self.sides[game.pk] = (red, black)  # for the rating changes and the reports
            seats += [Seat(game=game, number=0, name="red", user=red), Seat(game=game, number=1, name="black", user=black)]
        Seat.objects.bulk_create(seats, batch_size=2000)
        lengths = self.move_counts()
        Move.objects.bulk_create([
            Move(game=game, ply=ply, seat=("red", "black")[ply % 2], action="8D b1xc3")
            for game, length in zip(self.games, lengths, strict=True) for ply in range(length)], batch_size=4000)

    def move_counts(self) -> list[int]:
        """Moves a game, 20 to 86, summing to about sizes.moves."""
        mean = self.sizes.moves / self.sizes.games
        spread = min(mean - 20, 86 - mean)
        return [round(mean + self.rng.uniform(-spread, spread)) for _ in self.games]

    def rating_changes(self) -> None:
        from ladder.models import RatingChange

        rows = []
        for game in self.games:
            red, black = self.sides[game.pk]
            before_red, before_black = self.rng.randrange(1100, 1900), self.rng.randrange(1100, 1900)
            delta = self.rng.randrange(3, 20) * (1 if game.winner == "red" else -1)
            rows += [RatingChange(game=game, user=red, opponent=black, before=before_red,
                                  after=before_red + delta, opponent_rating=before_black,
                                  score=1.0 if delta > 0 else 0.0, k=20),
                     RatingChange(game=game, user=black, opponent=red, before=before_black,
                                  after=before_black - delta, opponent_rating=before_red,
                                  score=0.0 if delta > 0 else 1.0, k=20)]
        RatingChange.objects.bulk_create(rows, batch_size=2000)

    def tournaments(self) -> None:
        """Finished Swiss tournaments; every pairing's game is one of the finished games."""
        from tournaments.models import Entry, Pairing, Round, Tournament

        size = self.sizes
        made = Tournament.objects.bulk_create([
            Tournament(name=f"Sunday Swiss {i}", organizer=self.rng.choice(self.users), starts_at=self.ago(120),
                       rounds=size.rounds, max_players=size.entrants, status=Tournament.Status.FINISHED,
                       current_round=size.rounds) for i in range(1, size.tournaments + 1)])
        entries = {t.pk: Entry.objects.bulk_create([
            Entry(tournament=t, user=user, number=n, rating=self.rng.randrange(1100, 1900), place=n)
            for n, user in enumerate(self.some_users(size.entrants), start=1)]) for t in made}
        rounds = Round.objects.bulk_create([Round(tournament=t, number=n, status=Round.Status.FINISHED)
                                            for t in made for n in range(1, size.rounds + 1)])
        games = iter(self.games)
        pairings = []
        for round_ in rounds:
            field = entries[round_.tournament_id][:]
            self.rng.shuffle(field)
            for board, (red, black) in enumerate(zip(field[::2], field[1::2], strict=True), start=1):
                game = next(games)  # sizes keep tournament_games <= games
                pairings.append(Pairing(round=round_, board=board, red=red, black=black, game=game,
                                        result="1-0" if game.winner == "red" else "0-1"))
        Pairing.objects.bulk_create(pairings, batch_size=2000)

    def chat(self) -> None:
        from chat.models import ChatTimeout, Line, Mute, RoomLock

        game_lines = int(self.sizes.lines * ROOMS_PER_GAME_SHARE)
        rooms = [f"game:{self.rng.choice(self.games).pk}" for _ in range(game_lines)]
        rooms += [self.rng.choice(["lobby", "tournament:1", "tournament:2"]) for _ in range(self.sizes.lines - game_lines)]
        texts = ["gg", "good game", "hi", "well played", "thanks", "rematch?", "nice ace", "gl hf"]
        Line.objects.bulk_create([Line(room=room, author=self.rng.choice(self.users), text=self.rng.choice(texts),
                                       created=self.ago(60)) for room in rooms], batch_size=2000)
        moderator, few = self.users[0], self.sizes.few
        ChatTimeout.objects.bulk_create([ChatTimeout(user=user, reason="spam", ends=self.now + timedelta(minutes=15),
                                                     moderator=moderator) for user in self.some_users(few)])
        Mute.objects.bulk_create([Mute(user=a, muted=b) for a, b in zip(self.users[:few], self.users[1:few + 1])])
        RoomLock.objects.bulk_create([RoomLock(room=f"game:{g.pk}", ends=self.now + timedelta(hours=1),
                                               moderator=moderator) for g in self.games[:few]])

    def reports_and_acts(self) -> None:
        from moderation.models import ModerationAction, Report, Restriction

        moderators = self.users[:5]
        reasons = [r for r, _ in Report.Reason.choices]
        reports = Report.objects.bulk_create([
            Report(reporter=self.sides[game.pk][0], reported=self.sides[game.pk][1], game=game, reason=self.rng.choice(reasons), text="look",
                   created=self.ago(60), status=Report.Status.OPEN if i % 3 else Report.Status.CLOSED)
            for i, game in enumerate(self.rng.sample(self.games, min(self.sizes.reports, len(self.games))))])
        kinds = [ModerationAction.Kind.UNDO_RATING, ModerationAction.Kind.RESTRICT_RATED,
                 ModerationAction.Kind.CHAT_TIMEOUT]
        ModerationAction.objects.bulk_create([
            ModerationAction(kind=self.rng.choice(kinds), moderator=self.rng.choice(moderators), user=report.reported,
                             game=report.game, report=report, reason="reported", outcome="done",
                             created=self.ago(60)) for report in reports[:self.sizes.acts]])
        Restriction.objects.bulk_create([Restriction(user=user, scope="rated", reason="reported")
                                         for user in self.some_users(self.sizes.few)])

    def lobby(self) -> None:
        from ladder.models import Ban, Challenge, PlaybanRecord, PoolEntry, Rating, Seek

        few, users = self.sizes.few, self.some_users(2 * self.sizes.few + 1)
        Seek.objects.bulk_create([Seek(creator=user, time_control="5+3", status=Seek.Status.ACCEPTED, game=game)
                                  for user, game in zip(users[:few], self.games, strict=False)])
        Challenge.objects.bulk_create([
            Challenge(challenger=a, challenged=b, time_control="5+3", status=Challenge.Status.ACCEPTED, game=game,
                      expires_at=self.now) for a, b, game in zip(users[:few], users[few:], self.games[few:], strict=False)])
        PoolEntry.objects.bulk_create([
            PoolEntry(user=user, time_control="5+3", rating=1500, status=PoolEntry.Status.PAIRED, joined=self.ago(30),
                      game=game) for user, game in zip(users[:few], self.games[2 * few:], strict=False)])
        PlaybanRecord.objects.bulk_create([PlaybanRecord(user=user, outcomes=["good", "abort"]) for user in users[:few]])
        Ban.objects.bulk_create([Ban(user=user, started=self.now, ends=self.now + timedelta(hours=1), offence="abort",
                                     game=game) for user, game in zip(users[:few], self.games, strict=False)])
        Rating.objects.bulk_create([Rating(user=user, name=user.username, ladder="rhombus") for user in users[:few]])

    def the_rest(self) -> None:
        from django.contrib.auth.models import Group

        from api.models import ApiToken
        from notify.models import Notification, PushSubscription, Sent
        from notify.models import Preference as NotifyPreference
        from relation.models import Follow

        few, users = self.sizes.few, self.some_users(self.sizes.few + 1)
        Group.objects.bulk_create([Group(name=f"bench group {i}") for i in range(few)])
        Follow.objects.bulk_create([Follow(follower=users[0], followed=user) for user in users[1:]])
        Notification.objects.bulk_create([Notification(user=user, kind="turn", key=f"game:{i}")
                                          for i, user in enumerate(users)])
        NotifyPreference.objects.bulk_create([NotifyPreference(user=user, kind="turn") for user in users])
        PushSubscription.objects.bulk_create([
            PushSubscription(user=user, endpoint=f"https://push.example.org/{i}", p256dh="k", auth="a")
            for i, user in enumerate(users)])
        Sent.objects.bulk_create([Sent(user=user, kind="turn", key="digest:2026-11-26") for user in users])
        ApiToken.objects.bulk_create([
            ApiToken(user=user, name="bot", digest=f"{i:064d}", hint="acew_abcd", scopes=["read"],
                     revoked=self.now if i % 2 else None, revoked_by=users[0] if i % 2 else None)
            for i, user in enumerate(users[1:])])


def label(model: Any) -> str:
    return f"{model._meta.app_label}.{model._meta.model_name}"


def fill_unfilled(count: int) -> list[str]:
    """A registered model left empty (registered after this script was written)
    gets COUNT rows from its factory in tests/site/admin_rows.py."""
    from django.contrib import admin

    from tests.site.admin_rows import FACTORIES

    filled = []
    for model in admin.site._registry:
        if not model._default_manager.exists() and label(model) in FACTORIES:
            FACTORIES[label(model)](count)
            filled.append(label(model))
    return filled


def dated() -> None:
    """Dates as play leaves them (auto_now_add made them all now): a game
    created before it finished, its moves and rating changes at its end."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("UPDATE games_game SET created = finished - interval '25 minutes' WHERE finished IS NOT NULL")
        cursor.execute("UPDATE games_move m SET created = g.finished FROM games_game g WHERE g.id = m.game_id"
                       " AND g.finished IS NOT NULL")
        cursor.execute("UPDATE ladder_ratingchange r SET created = g.finished FROM games_game g WHERE g.id = r.game_id")


def empty_and_fill(sizes: Sizes) -> None:
    from django.db import connection, transaction

    assert sizes.tournament_games <= sizes.games, "every pairing needs a game of its own"
    with connection.cursor() as cursor:  # the bench's own database only (checked in main)
        cursor.execute("TRUNCATE auth_user, games_game, django_admin_log RESTART IDENTITY CASCADE")
        cursor.execute("DELETE FROM auth_group WHERE name LIKE 'bench group %' OR name LIKE 'group%'")
    with transaction.atomic():
        Filler(sizes).fill()
        unfilled = fill_unfilled(sizes.few)
        dated()
    if unfilled:
        say(f"  filled by tests/site/admin_rows.py: {', '.join(unfilled)}")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")  # what autovacuum does on a live site: fresh statistics


# --- The measurements ---------------------------------------------------------


@dataclass
class Row:
    name: str
    rows: int
    queries: int
    wall_ms: float  # median of the timed requests
    cpu_ms: float  # this process's CPU, median

    def line(self) -> str:
        return f"| {self.name} | {self.rows:,} | {self.queries} | {self.wall_ms:.1f} | {self.cpu_ms:.1f} |"


def timed(call: Callable[[], Any], runs: int) -> tuple[float, float, Any]:
    """Median wall and CPU ms of RUNS calls, and the last call's result."""
    walls, cpus, result = [], [], None
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        result = call()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return statistics.median(walls), statistics.median(cpus), result


def landing(client: Any, url: str) -> str:
    """The URL a list answers on: a list that opens on a filter (the reports
    queue on Open) redirects there first."""
    for _ in range(MAX_REDIRECTS):
        response = client.get(url, secure=True)
        if response.status_code not in (301, 302):
            assert response.status_code == 200, (url, response.status_code, response.content[:500])
            return url
        location = urlsplit(response["Location"])
        url = location.path + (f"?{location.query}" if location.query else "")
    raise SystemExit(f"{url}: more than {MAX_REDIRECTS} redirects")


def count_queries(call: Callable[[], Any]) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured.captured_queries)


def measure_lists(client: Any, pages: int) -> list[Row]:
    from django.contrib import admin
    from django.urls import reverse

    measured = []
    for model in sorted(admin.site._registry, key=label):
        url = landing(client, reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist"))
        name = label(model) + (f" ({urlsplit(url).query})" if urlsplit(url).query else "")
        wall, cpu, response = timed(lambda u=url: client.get(u, secure=True), pages)
        assert response.status_code == 200, (url, response.status_code)
        queries = count_queries(lambda u=url: client.get(u, secure=True))
        measured.append(Row(name, model._default_manager.count(), queries, wall, cpu))
        print(measured[-1].line(), flush=True)
    return measured


def largest_exportable() -> Any:
    from django.contrib import admin

    from adminkit.export import ExportMixin

    exportable = [model for model, model_admin in admin.site._registry.items() if isinstance(model_admin, ExportMixin)]
    return max(exportable, key=lambda model: model._default_manager.count())


def export_rows(client: Any, model: Any) -> int:
    """'Select all', then the export action, read to the end: the CSV's data rows."""
    from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
    from django.urls import reverse

    from adminkit.export import ACTION

    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
    response = client.post(url, {"action": ACTION, "select_across": "1", "index": "0", ACTION_CHECKBOX_NAME: ["0"]},
                           secure=True)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv"), response.status_code
    return len(list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))) - 1


def measure_export(client: Any, runs: int) -> str:
    model = largest_exportable()
    export_rows(client, model)  # warm-up
    wall, cpu, rows = timed(lambda: export_rows(client, model), runs)
    queries = count_queries(lambda: export_rows(client, model))
    return (f"CSV export of {label(model)}: {rows:,} rows, {queries} queries, median of {runs}: {wall:.0f} ms wall"
            f" ({rows / wall * 1000:,.0f} rows/s), {cpu:.0f} ms CPU ({cpu / rows * 1000:.1f} ms CPU per 1,000 rows)")


def superuser_client() -> Any:
    from django.contrib.auth import get_user_model
    from django.test import Client

    User = get_user_model()
    admin_user = (User.objects.filter(username="bench-admin").first()
                  or User.objects.create_superuser("bench-admin", "bench-admin@example.org", None))
    client = Client(HTTP_HOST="127.0.0.1")  # DEBUG off: https, as a deployed site is reached
    client.force_login(admin_user)
    return client


def load_average() -> str:
    load = os.getloadavg()
    return f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores"


# --- Running ------------------------------------------------------------------


def bounded(value: str) -> int:
    number = int(value)
    if not 1 <= number <= MAX_PAGES:
        raise argparse.ArgumentTypeError(f"between 1 and {MAX_PAGES}")
    return number


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="The database is emptied and refilled: its name must start with "
                                            f"{PREFIX}.")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""),
                        help=f"PostgreSQL database to fill (default: $DATABASE_URL); its name must start with {PREFIX}")
    parser.add_argument("--quick", action="store_true", help="about a tenth of the data (100 users, 60 games)")
    parser.add_argument("--pages", type=bounded, default=5, help="timed requests per list (default 5)")
    parser.add_argument("--exports", type=bounded, default=3, help="timed CSV exports (default 3)")
    parser.add_argument("--drop", action="store_true", help="drop the database at the end")
    return parser.parse_args(argv)


def refusal(url: str) -> str | None:
    """Why URL may not be emptied, or None."""
    if not url.startswith(("postgres://", "postgresql://", "pgsql://")):
        return "DATABASE_URL (or --database-url) must name a PostgreSQL database"
    if not database_name(url).startswith(PREFIX):
        return (f"refusing to empty database {database_name(url)!r}: the benchmark truncates the tables of the"
                f" database it is given, so its name must start with {PREFIX}")
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    if why := refusal(args.database_url):
        say(why)
        return 2
    name, sizes = database_name(args.database_url), QUICK if args.quick else FULL
    bench_db = ensure_database(args.database_url, name)
    os.environ.update(DATABASE_URL=bench_db, DJANGO_SETTINGS_MODULE="aceweb.settings", DEBUG="false")
    os.environ.pop("REDIS_URL", None)  # the admin's lists need no Redis
    os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_hex(32))
    say(f"migrating {name}")
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)
    # DEBUG off and no collectstatic: WhiteNoise's warning that STATIC_ROOT is missing says nothing here.
    warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
    try:
        import django

        django.setup()
        say(f"filling {name} ({'quick' if args.quick else 'full'} size)")
        began = time.perf_counter()
        empty_and_fill(sizes)
        say(f"filled in {time.perf_counter() - began:.1f} s")
        client = superuser_client()
        say(f"load average at the start: {load_average()}")
        print(f"admin changelists, as a superuser, median of {args.pages} requests each:", flush=True)
        print("| list | rows in the table | queries a page | wall ms a page | CPU ms a page |\n| --- | --: | --: | --: | --: |",
              flush=True)
        measured = measure_lists(client, args.pages)
        print(f"slowest: {max(r.wall_ms for r in measured):.1f} ms wall, most CPU: "
              f"{max(r.cpu_ms for r in measured):.1f} ms; most queries: {max(r.queries for r in measured)}", flush=True)
        print(measure_export(client, args.exports), flush=True)
        say(f"load average at the end: {load_average()}")
    finally:
        if args.drop:
            from django.db import connections

            connections.close_all()
            drop_database(args.database_url, name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
