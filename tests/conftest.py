"""Fixtures shared by every test: the test Redis database, and the web users."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import redis
from django.db import connections
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from tests.helpers import (ROOT, chromium, redis_db_number, require_service, stop_within,
                           wait_for_other_sessions_to_end)


# The longest files, slowest first (`make test ARGS="--junitxml=FILE"`, each
# test's time summed per file: 2026-11-27, every file here 28-117 s). Under xdist
# (`make test`: two workers, a file to one worker, in collection order) they
# start first, so that neither worker is left running one of them at the end
# while the other has nothing to do.
SLOW_FILES = [
    "site/test_language_walk_browser.py",  # issue 35: every page kind in four languages, about 5 min
    "api/test_external_bot_game.py", "games/test_soak.py", "site/test_accessibility_browser.py",
    "gamepage/test_rhombus_page_browser.py", "tournaments/test_workers.py", "api/test_api_no_leaks.py",
    "bots/test_bot_worker.py", "live/test_live_socket.py", "games/test_seats_migration.py",
    "gamepage/test_game_page_browser.py", "bots/test_new_bot_accounts_move_at_once.py",
    "gamepage/test_keyboard_play_browser.py", "notify/test_notify_browser.py", "site/test_phone_width_browser.py",
    "live/test_live_browser.py", "gamepage/test_long_move_list_browser.py", "api/test_stream_answers.py",
    "engine/test_bots.py", "site/test_console_noise.py",
]
# Fixtures that start a server, a browser or a worker, or flush the database:
# files using them come next, the quick ones last, to fill in at the end.
HEAVY_FIXTURES = {"transactional_db", "daphne_server", "live_server", "browser", "chromium_browser"}


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow files first, then heavy ones, then the rest; within each, the order
    pytest-django made (database tests before transactional ones). A stable sort,
    the same in every xdist worker, as xdist requires."""
    tests = Path(__file__).parent
    slow = {tests / name: rank for rank, name in enumerate(SLOW_FILES)}
    heavy = {item.path for item in items if HEAVY_FIXTURES & set(getattr(item, "fixturenames", ()))}
    items.sort(key=lambda item: (slow.get(item.path, len(slow)), item.path not in heavy))


@pytest.fixture
def browser(live_server: LiveServer) -> Iterator[Browser]:
    """A headless Chromium for one test, against pytest-django's live server.

    Function-scoped and after live_server: Playwright's event loop must be gone
    before pytest-django flushes the database, or Django refuses (async-unsafe).
    """
    with chromium() as browser:
        yield browser


@pytest.fixture(autouse=True)
def db_pool_idle() -> Iterator[None]:
    """After each test, let the sockets' database threads finish and close
    their connections (games.sockets.drain_db_pool), while the test may still
    use the database."""
    yield
    from games.sockets import drain_db_pool

    drain_db_pool()


@pytest.fixture(autouse=True)
def quiet_heartbeat(settings: Any) -> None:
    """No ``beat`` frames amid what the in-process socket tests expect to
    receive; the tests of the heartbeat itself set their own period, and
    daphne under test keeps the real one."""
    settings.GAME_BEAT_SECONDS = 3600


@pytest.fixture(scope="session", autouse=True)
def clean_test_redis() -> Iterator[None]:
    """Flush the tests' own Redis database before and after the session.

    Never database 0: that is where a developer's `make run` keeps its data.
    """
    url = os.environ.get("REDIS_URL", "")
    if not url or redis_db_number(url) == 0:
        yield
        return
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield
    client.flushdb()
    client.close()


@pytest.fixture(scope="session", autouse=True)
def flush_by_delete() -> Iterator[None]:
    """Empty the tables after a transactional test with DELETE, not TRUNCATE.

    pytest-django empties every table after each transactional test with
    Django's flush, one TRUNCATE of all 44 tables: PostgreSQL makes new files
    for each table and index, about 0.15 s on an idle machine and over a second
    on a busy one. DELETE of the few rows a test made takes a few milliseconds.
    The tables end as empty either way (Django's foreign keys are checked at
    commit, so the order does not matter), sequences go on as before (flush
    does not reset them), and the permissions are made again as before. A
    second round of DELETEs empties what triggers wrote during the first
    (ladder_ratingcount, from the standings' delete triggers), as TRUNCATE's
    own trigger does. TRUNCATE stays for flushes that reset sequences or
    cascade (available_apps), which no test here asks for."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self: Any, style: Any, tables: Any, *, reset_sequences: bool = False,
                  allow_cascade: bool = False) -> list[str]:
        if reset_sequences or allow_cascade:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        delete = [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
                  for table in tables]
        return delete + delete

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]
    yield
    DatabaseOperations.sql_flush = truncate  # type: ignore[method-assign]


def make_user(django_user_model: Any, username: str) -> Any:
    return django_user_model.objects.create_user(username, f"{username}@example.org", "password")


@pytest.fixture
def alice(django_user_model: Any) -> Any:
    """A player."""
    return make_user(django_user_model, "alice")


@pytest.fixture
def bob(django_user_model: Any) -> Any:
    """Alice's opponent."""
    return make_user(django_user_model, "bob")


@pytest.fixture
def charlie(django_user_model: Any) -> Any:
    """Someone with no access to Alice and Bob's game."""
    return make_user(django_user_model, "charlie")


@pytest.fixture
def dave(django_user_model: Any) -> Any:
    """A fourth player, for team games (RH31)."""
    return make_user(django_user_model, "dave")


@pytest.fixture
def erin(django_user_model: Any) -> Any:
    """A fifth: one more than a table of four."""
    return make_user(django_user_model, "erin")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _database_url(settings_dict: dict[str, Any]) -> str:
    """A DATABASE_URL for the test database pytest-django created (PostgreSQL or SQLite)."""
    if settings_dict["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{settings_dict['NAME']}"
    user = quote(settings_dict.get("USER") or "")
    password = f":{quote(settings_dict['PASSWORD'])}" if settings_dict.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    host = settings_dict.get("HOST") or "localhost"
    port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{settings_dict['NAME']}"


# base URL -> [the log file of the daphne serving it, where the current test's part begins]
DAPHNE_LOGS: dict[str, list[Any]] = {}
SHARED_DAPHNES_USED: set[str] = set()  # the base URLs of module_daphne that a test has had


@pytest.fixture
def daphne_log(daphne_server: str) -> Callable[[], str]:
    """What the test's daphne has written so far (stdout and stderr): for
    tests that assert the server logged no error. A daphne shared by a
    file's tests (shared_daphne_server) gives each test its own part."""
    def read() -> str:
        log, start = DAPHNE_LOGS[daphne_server]
        fd = log.fileno()
        # pread, not seek: daphne writes at the file offset this process shares with it.
        return os.pread(fd, max(os.fstat(fd).st_size - start, 0), start).decode(errors="replace")

    return read


@contextmanager
def running_daphne(database_url: str) -> Iterator[str]:
    """A real daphne serving aceweb.asgi on DATABASE_URL, from start to stop;
    yields its base URL, e.g. ``http://127.0.0.1:41234``."""
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "DEBUG": "1"}
    daphne = Path(sys.executable).with_name("daphne")
    log = tempfile.TemporaryFile()  # a file, not a pipe: a full pipe would stall daphne
    proc = subprocess.Popen(
        [str(daphne), "-b", "127.0.0.1", "-p", str(port), "aceweb.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        # Starting takes a second or two; a machine as loaded as a 2-core one running
        # both test workers beside other work once needed over 20.
        deadline = time.monotonic() + 90
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    pytest.fail(f"daphne did not start on port {port}: {log.read().decode()[-2000:]}")
                time.sleep(0.1)
        url = f"http://127.0.0.1:{port}"
        DAPHNE_LOGS[url] = [log, 0]
        yield url
    finally:
        DAPHNE_LOGS.pop(f"http://127.0.0.1:{port}", None)
        proc.terminate()
        stop_within(proc, 10)
        log.close()


@pytest.fixture
def daphne_server(transactional_db: None) -> Iterator[str]:
    """A real daphne serving aceweb.asgi on the test database: HTTP and websockets.

    pytest-django's live_server speaks WSGI only. Tests using this need
    ``@pytest.mark.django_db(transaction=True)`` so that daphne sees their rows.
    Yields the base URL, e.g. ``http://127.0.0.1:41234``.
    """
    from django.db import connection

    require_service("DATABASE_URL", "the site under daphne (websockets)")
    try:
        with running_daphne(_database_url(connection.settings_dict)) as url:
            yield url
    finally:
        wait_for_other_sessions_to_end(connection)


@pytest.fixture(scope="module")
def module_daphne(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    """One daphne for the tests of a file (see shared_daphne_server)."""
    from django.db import connection

    require_service("DATABASE_URL", "the site under daphne (websockets)")
    with django_db_blocker.unblock():
        database_url = _database_url(connection.settings_dict)
    try:
        with running_daphne(database_url) as url:
            yield url
    finally:
        with django_db_blocker.unblock():
            wait_for_other_sessions_to_end(connection)


@pytest.fixture
def shared_daphne_server(transactional_db: None, module_daphne: str) -> Iterator[str]:
    """daphne_server for a file whose tests do not need a daphne of their own:
    one started for the file, so each test saves a start (a second or two of
    CPU, many on a loaded machine). Only where daphne keeps nothing in memory
    that a test counts on being new (no live-games hub, no heartbeat timing):
    each test's rows are flushed as usual, and ids are never reused.
    A file opts in by overriding daphne_server with a fixture that returns
    this one. Each test's daphne_log starts where the test does."""
    from django.db import connection

    if module_daphne in SHARED_DAPHNES_USED:  # the first test's part holds daphne's start too
        log = DAPHNE_LOGS[module_daphne][0]
        DAPHNE_LOGS[module_daphne][1] = os.fstat(log.fileno()).st_size
    SHARED_DAPHNES_USED.add(module_daphne)
    yield module_daphne
    # The test's sockets are closed: let daphne's database work for them end
    # before the flush, so that none of it lands in the next test's rows.
    wait_for_other_sessions_to_end(connection)


@pytest.fixture
def chromium_browser(daphne_server: str) -> Iterator[Browser]:
    """Chromium for one test, opened after daphne (and closed before it stops)."""
    with chromium() as browser:
        yield browser


@pytest.fixture
def orm() -> Iterator[Callable[..., Any]]:
    """``orm(fn, *args)`` runs database work in a thread of its own.

    While Playwright's loop runs in the test's thread, Django would refuse the
    ORM there (async-unsafe) and would hand out connections that are never
    closed, so the test database could not be dropped.
    """
    with ThreadPoolExecutor(max_workers=1) as pool:
        yield lambda fn, *args: pool.submit(fn, *args).result()
        pool.submit(connections.close_all).result()
