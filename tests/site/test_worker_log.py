"""`make run`'s Celery worker (scripts/dev.py): no superuser warning, and no line
for each routine task beat sends every few seconds, while other tasks' lines and
every error still show."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connection

from aceweb.celery import RoutineTasksFilter
from tests.helpers import (ROOT, empty_redis_database, load_dev, require_service,
                           wait_for_other_sessions_to_end, worker_database_url)


def trace_record(level: int, task: str) -> logging.LogRecord:
    return logging.LogRecord("celery.app.trace", level, __file__, 1, "Task %(name)s[%(id)s] ...",
                             {"name": task, "id": "x"}, None)


def test_routine_task_lines_are_dropped_but_not_their_errors_nor_other_tasks() -> None:
    keep = RoutineTasksFilter().filter
    assert not keep(trace_record(logging.INFO, "ladder.tasks.match_pool"))
    assert keep(trace_record(logging.ERROR, "ladder.tasks.match_pool"))
    assert keep(trace_record(logging.INFO, "games.tasks.play_bot_move"))


def test_as_root_the_worker_runs_as_the_projects_owner(monkeypatch: pytest.MonkeyPatch) -> None:
    dev = load_dev()
    # As root, on a checkout owned by nobody (65534), whoever runs the tests.
    monkeypatch.setattr(dev.os, "geteuid", lambda: 0)
    monkeypatch.setattr(dev, "ROOT", SimpleNamespace(stat=lambda: SimpleNamespace(st_uid=65534, st_gid=65534)))
    env: dict[str, str] = {}
    assert dev.worker_user(env) == ["--uid", "65534", "--gid", "65534"]
    assert env == {}


@pytest.mark.django_db(transaction=True)
def test_the_make_run_worker_logs_no_superuser_warning_and_no_beat_chatter(tmp_path: Path) -> None:
    require_service("REDIS_URL", "a Celery worker")
    require_service("DATABASE_URL", "the worker's periodic tasks")
    # PYTHONFAULTHANDLER: a worker process sent SIGABRT writes every thread's
    # stack to the log first (stop_or_show below).
    env: dict[str, Any] = dict(os.environ, DATABASE_URL=worker_database_url(connection), PYTHONFAULTHANDLER="1")
    log_path = tmp_path / "worker.log"
    # CI once saw this worker take over 30 s to stop: a warm shutdown waits for
    # the task it is running, and earlier tests leave tasks queued here.
    empty_redis_database()
    command = [*load_dev().worker_command(env),  # as root, on a checkout root owns when the tests run as root
               "--schedule", str(tmp_path / "beat-schedule"), "--hostname", f"quiet-{os.getpid()}@%h"]
    with open(log_path, "wb") as log:
        worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            time.sleep(8)  # beat sends match_pool every 3 s and claim_timeouts every 5 s
            from games.tasks import ping

            assert ping.delay().get(timeout=10) == "pong"
        finally:
            worker.terminate()
            stuck = stop_or_show(worker, 30)
    wait_for_other_sessions_to_end(connection)
    text = log_path.read_text(errors="replace")
    assert not stuck, f"the worker did not stop within 30 s of SIGTERM ({stuck}); its log:\n{text[-12000:]}"
    assert " ready." in text
    assert "superuser privileges" not in text
    assert "Sending due task" not in text
    assert "match_pool[" not in text and "claim_timeouts[" not in text  # no "received", no "succeeded"
    assert "games.tasks.ping[" in text and "succeeded" in text  # other tasks still say so


def stop_or_show(worker: subprocess.Popen[bytes], seconds: float) -> str:
    """"" if the worker ended within SECONDS. Else its processes (the main one,
    the pool's and beat's) and their states, after each has written its
    threads' stacks to the log (SIGABRT with faulthandler on), then all are
    killed: a warm shutdown that hangs shows where it waits."""
    try:
        worker.wait(timeout=seconds)
        return ""
    except subprocess.TimeoutExpired:
        pass
    tree = [*descendants(worker.pid), worker.pid]
    states = ", ".join(f"{pid} {process_state(pid)}" for pid in tree)
    for pid in tree:
        signal_quietly(pid, signal.SIGABRT)
    time.sleep(2)
    for pid in tree:
        signal_quietly(pid, signal.SIGKILL)
    worker.wait()
    return states


def descendants(pid: int) -> list[int]:
    """Every process below PID, deepest first (Linux /proc)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        for child in (task / "children").read_text().split():
            found += [*descendants(int(child)), int(child)]
    return found


def process_state(pid: int) -> str:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        wchan = Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        return "gone"
    fields = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
    return f"{fields.get('Name', '?')} {fields.get('State', '?')} in {wchan or '?'}"


def signal_quietly(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass
