"""Fixtures for the pool tests: rated players, and real Celery workers on the test database."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from aceweb.celery import app as celery_app
from games.models import Game
from ladder.models import Player, PoolEntry
from tests.helpers import ROOT, require_service, stop_within, wait_for_other_sessions_to_end, worker_database_url


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def rated(django_user_model: Any) -> Callable[[str, int], Any]:
    """``rated("dora", 1620)``: a user whose ladder rating is 1620."""
    def make(name: str, rating: int) -> Any:
        user = django_user_model.objects.create_user(name, f"{name}@example.org", "password")
        Player.objects.update_or_create(user=user, defaults={"rating": rating})
        return user
    return make


def wait_longer(user: Any, seconds: float) -> None:
    """As if ``user``'s current wait had begun ``seconds`` earlier."""
    PoolEntry.objects.filter(user=user, status=PoolEntry.Status.WAITING).update(
        joined=timezone.now() - timedelta(seconds=seconds))


def games_of(user: Any) -> list[Game]:
    return list(Game.objects.filter(seats__user=user))


def status_of(user: Any) -> str:
    return PoolEntry.objects.filter(user=user).order_by("-pk").values_list("status", flat=True)[0]


def poll(condition: Callable[[], Any], seconds: float = 30) -> Any:
    """The first true value of ``condition()``, retried until ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.1)


@pytest.fixture
def workers(transactional_db: None, tmp_path: Path) -> Iterator[Callable[[int], list[Path]]]:
    """``start(n)``: n real Celery worker processes (solo pool) on Redis and the test
    database; they are stopped at the end of the test. Returns their log files."""
    redis_url = require_service("REDIS_URL", "a Celery worker")
    require_service("DATABASE_URL", "workers sharing the test database")
    assert connection.settings_dict["NAME"].startswith("test_")
    procs: list[subprocess.Popen[bytes]] = []
    logs: list[Path] = []

    def start(n: int) -> list[Path]:
        # Runs queued by earlier tests' joins would pair this test's players behind its back.
        celery_app.control.purge()
        env = dict(os.environ, REDIS_URL=redis_url, DATABASE_URL=worker_database_url(connection))
        for i in range(n):
            log = tmp_path / f"worker-{len(procs)}.log"
            command = [sys.executable, "-m", "celery", "-A", "aceweb", "worker", "--pool=solo",
                       "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO",
                       "--prefetch-multiplier=1",
                       "--hostname", f"pool-{os.getpid()}-{len(procs)}@%h"]
            with open(log, "wb") as out:
                procs.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT))
            logs.append(log)
        for log in logs[-n:]:
            if not poll(lambda: "ready." in log.read_text(), 60):
                pytest.fail(f"a Celery worker did not start: {log.read_text()[-2000:]}")
        return logs

    yield start
    for proc in procs:
        proc.terminate()
    for proc in procs:
        stop_within(proc, 30)
    wait_for_other_sessions_to_end(connection)
