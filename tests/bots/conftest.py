"""Fixtures for the bot tests: bot accounts, and real Celery workers on the test database."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.db import connection

from games import bots
from ladder import bot_accounts as accounts
from tests.games.conftest import cookies, fast_password_hashing, services, sockets  # noqa: F401
from tests.helpers import ROOT, require_service, stop_within, wait_for_other_sessions_to_end, worker_database_url

# Short, so that a killed worker's move comes back within seconds (settings.py).
VISIBILITY_TIMEOUT = 2


@pytest.fixture(autouse=True)
def fresh_bot_cache() -> Iterator[None]:
    """Bot ids are cached per process; each test has its own users."""
    bots._bot_cache.pop("at", None)
    yield
    bots._bot_cache.pop("at", None)


@pytest.fixture
def bot_accounts(db: None) -> dict[str, Any]:
    """{level: user} for every engine level (manage.py seed_bots)."""
    return {user.player.bot_level: user for user, _ in accounts.ensure_bot_accounts()}


def redis_client() -> redis.Redis:
    return redis.Redis.from_url(require_service("REDIS_URL", "bot move state in Redis"))


def wait_state(game_id: int) -> dict[str, Any]:
    """What games.bots keeps in Redis about the bot move a game waits on."""
    raw = redis_client().get(f"aceweb:bot-wait:{game_id}")
    return json.loads(raw) if raw else {}


class Worker:
    """One real `celery worker` process (solo pool) on the test database and Redis."""

    def __init__(self, log_path: Path, name: str, slow_bot_seconds: float = 0) -> None:
        env = dict(os.environ, DATABASE_URL=worker_database_url(connection),
                   CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT))
        if slow_bot_seconds:
            env["ACEWEB_TEST_SLOW_BOT"] = str(slow_bot_seconds)
        command = [sys.executable, str(Path(__file__).with_name("worker.py")), "worker", "--pool=solo",
                   "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO",
                   "--hostname", f"{name}-{os.getpid()}@%h"]
        self.log_path = log_path
        self._log = open(log_path, "ab")
        self.proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT)

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while " ready." not in self.log:
            assert self.proc.poll() is None, self.log
            assert time.monotonic() < deadline, f"worker did not start:\n{self.log}"
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no warm shutdown, nothing acknowledged or handed back."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            stop_within(self.proc, 30)
        self._log.close()


@pytest.fixture
def workers(transactional_db: None, tmp_path: Path) -> Iterator[Callable[..., Worker]]:
    """Start workers (``start(name, slow_bot_seconds=0)``); all stopped at the end."""
    require_service("REDIS_URL", "a Celery worker")
    require_service("DATABASE_URL", "a worker sharing the test database")
    assert connection.settings_dict["NAME"].startswith("test_")
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    started: list[Worker] = []

    def start(name: str = "bots", slow_bot_seconds: float = 0) -> Worker:
        worker = Worker(tmp_path / f"{name}.log", name, slow_bot_seconds)
        started.append(worker)
        worker.wait_ready()
        return worker

    yield start
    for worker in started:
        worker.stop()
    wait_for_other_sessions_to_end(connection, timeout=10)


def wait_for(check: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)
