"""Helpers for the site tests (imported as tests.helpers)."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import pytest
import redis
from django.test import Client
from playwright.sync_api import Browser, sync_playwright

ALLOW_NO_SERVICES = "ACEWEB_ALLOW_NO_SERVICES"
# The data migrations that make each staff group, in order: (module, function).
GROUP_MIGRATIONS = {
    "Moderators": [("moderation.migrations.0002_moderators_group", "create_group"),
                   ("ladder.migrations.0010_moderators_see_playbans", "allow"),
                   ("moderation.migrations.0006_moderators_moderate_chat", "allow"),
                   ("moderation.migrations.0008_moderators_abort_correct_lift", "allow"),
                   ("tournaments.migrations.0009_correction_rights", "allow"),
                   ("moderation.migrations.0011_moderators_see_the_new_lists", "allow")],
    "Organizers": [("tournaments.migrations.0002_organizers_group", "create_group"),
                   ("tournaments.migrations.0009_correction_rights", "allow")],
}
ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = Path("/usr/bin/chromium")
# Without the networking flags Chromium keeps calling out to Google's hosts,
# which this machine's closed network refuses.
CHROMIUM_ARGS = [
    "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]


def staff_group(name: str) -> Any:
    """The group NAME ("Moderators", "Organizers") with exactly what its data
    migrations give it. A transactional test's flush empties the auth tables, so
    a later test on the same database would find no group: pytest-django runs the
    other database tests first, but each xdist worker runs its own files in turn.
    The migrations' functions are idempotent (get_or_create), so replay them."""
    from django.apps import apps
    from django.contrib.auth.models import Group

    for module, function in GROUP_MIGRATIONS[name]:
        getattr(importlib.import_module(module), function)(apps, None)
    return Group.objects.get(name=name)


def shows_secret(text: str, secret: str) -> bool:
    """Whether TEXT holds SECRET (a game's seed) as a token of its own.

    Seeds in tests are short ("t4"), and a page's random CSRF token holds
    such a pair of letters now and then: a seed that leaks is quoted or
    stands apart, never inside a longer run of letters and digits."""
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(secret)}(?![A-Za-z0-9])", text) is not None


def redis_db_number(url: str) -> int:
    """The database number a Redis URL selects (0 when it names none)."""
    return int(redis.Redis.from_url(url).connection_pool.connection_kwargs.get("db", 0))


def empty_redis_database() -> None:
    """Drop what earlier tests of this xdist worker left in its own Redis
    database (tests/workers.py): tasks queued with no worker running, some with
    a countdown, which a worker started now would pick up and run first."""
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    client.flushdb()
    client.close()


def require_service(variable: str, what: str) -> str:
    """The URL in VARIABLE; fail loudly when unset, or skip when allowed to.

    Service tests must not pass silently without their service: `make test`
    sets the URLs, and ACEWEB_ALLOW_NO_SERVICES=1 turns the failure into a
    visible skip for machines that have neither PostgreSQL nor Redis.
    """
    url = os.environ.get(variable, "")
    if not url:
        missing(f"{variable} is not set, so {what} cannot be tested; run `make test`, "
                f"or set {ALLOW_NO_SERVICES}=1 to skip these tests")
    return url


def missing(message: str) -> NoReturn:
    """Fail: a test's service is absent. A visible skip only when explicitly allowed."""
    if os.environ.get(ALLOW_NO_SERVICES) == "1":
        pytest.skip(message)
    pytest.fail(message)


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium under Playwright, headless (browsers cannot be downloaded here)."""
    if not CHROMIUM.exists():
        missing(f"{CHROMIUM} is missing: apt-get install chromium chromium-driver (make test does, as root)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def worker_database_url(connection: Any) -> str:
    """The URL of the test database pytest-django created, for a worker process."""
    s = connection.settings_dict
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgres://{s['USER']}{password}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def wait_for_other_sessions_to_end(connection: Any, *, timeout: float = 5) -> None:
    """PostgreSQL drops a dead client's session a moment late; until then it may
    hold locks that the test database's flush would wait for. Only sessions inside
    a statement or transaction are waited for: idle ones hold no locks, and this
    process's own idle connections (its other threads', the sockets' database
    threads before drain_db_pool) never end here, so waiting for them cost the
    whole timeout, 5 s, in every daphne test's teardown."""
    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM pg_stat_activity "
                           "WHERE datname = current_database() AND pid <> pg_backend_pid() AND state IS DISTINCT FROM 'idle'")
            if cursor.fetchone()[0] == 0:
                return
            time.sleep(0.05)


def stop_within(process: subprocess.Popen[bytes], seconds: float) -> bool:
    """Whether PROCESS ended within SECONDS; killed if not, so nothing outlives the test."""
    try:
        process.wait(timeout=seconds)
        return True
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return False


@contextmanager
def celery_worker(log_path: Path, name: str, **env: str) -> Iterator[subprocess.Popen[bytes]]:
    """One real ``celery worker`` process (solo pool) for the block, logging to
    ``log_path``, with ``env`` over this process's environment (REDIS_URL, and
    DATABASE_URL from worker_database_url when it touches the test database).
    Tasks sent in the block reach it through Redis; it is stopped on leaving."""
    command = [sys.executable, "-m", "celery", "-A", "aceweb", "worker", "--pool=solo",
               "--without-gossip", "--without-mingle", "--without-heartbeat",
               "--loglevel=INFO", "--hostname", f"{name}-{os.getpid()}@%h"]
    with open(log_path, "wb") as log:
        worker = subprocess.Popen(command, cwd=ROOT, env=dict(os.environ, **env),
                                  stdout=log, stderr=subprocess.STDOUT)
        try:
            yield worker
        finally:
            worker.terminate()
            stop_within(worker, 30)


def load_dev() -> Any:
    """scripts/dev.py as a module (it is a script, not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("dev", ROOT / "scripts" / "dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def client_for(user: Any) -> Client:
    """A test client signed in as ``user``."""
    client = Client()
    client.force_login(user)
    return client
