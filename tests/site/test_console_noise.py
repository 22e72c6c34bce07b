"""What `make run` prints (issue 22, finding 22): the embedded run (no
DATABASE_URL, no REDIS_URL) says once that it runs on SQLite and in memory,
keeps the beat's routine tasks to their errors as a worker with beat does, and
logs a refused request (403) once, with its traceback once."""

from __future__ import annotations

import http.cookiejar
import logging
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from tests.helpers import ROOT

BEAT_SECONDS = 8  # match_pool runs every 3 s, claim_timeouts and advance_due every 5 s


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_up(base: str, deadline: float) -> None:
    while True:
        try:
            urllib.request.urlopen(base + "/", timeout=3).read()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def sign_in_and_open_a_forbidden_page(base: str, username: str, password: str) -> int:
    """Sign in as a demo player (not an organizer) and ask for the organizers' form."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    login = base + "/accounts/login/"
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', opener.open(login).read().decode())
    assert token is not None
    form = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1), "login": username,
                                   "password": password}).encode()
    opener.open(urllib.request.Request(login, data=form, headers={"Referer": login}))
    try:
        return int(opener.open(base + "/tournaments/new/").status)
    except urllib.error.HTTPError as error:
        return int(error.code)


@pytest.fixture(scope="module")
def embedded_run_output(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Everything `python scripts/dev.py run` prints with neither service set, on
    its own SQLite file: start, a page, a 403, a few beats, stop."""
    where = tmp_path_factory.mktemp("embedded")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(SQLITE_PATH=str(where / "db.sqlite3"), PORT=str(port), PYTHONUNBUFFERED="1")
    log_path = where / "run.log"
    with open(log_path, "wb") as log:
        run = subprocess.Popen([sys.executable, "scripts/dev.py", "run"], cwd=ROOT, env=env,
                               stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            base = f"http://127.0.0.1:{port}"
            wait_until_up(base, time.monotonic() + 180)  # migrations on a new SQLite file first
            assert sign_in_and_open_a_forbidden_page(base, "ada", "ace-demo-1") == 403
            time.sleep(BEAT_SECONDS)
        finally:
            run.terminate()
            run.wait(timeout=60)
    return log_path.read_text(errors="replace")


def test_the_embedded_run_says_once_that_no_service_is_set(embedded_run_output: str) -> None:
    lines = embedded_run_output.splitlines()
    assert len([line for line in lines if "DATABASE_URL not set" in line]) == 1, embedded_run_output
    assert len([line for line in lines if "REDIS_URL not set" in line]) == 1, embedded_run_output
    assert "the beat schedule runs inside daphne" in embedded_run_output  # the beat did run


def test_the_embedded_run_logs_no_routine_beat_task(embedded_run_output: str) -> None:
    routine = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    chatter = [line for line in embedded_run_output.splitlines() if any(f"{task}[" in line for task in routine)]
    assert chatter == []


def test_the_embedded_run_logs_a_403_once_with_one_traceback(embedded_run_output: str) -> None:
    lines = embedded_run_output.splitlines()
    assert len([line for line in lines if "Forbidden (Permission denied): /tournaments/new/" in line]) == 1, \
        embedded_run_output
    assert embedded_run_output.count("PermissionDenied: only organizers create tournaments") == 1
    assert len([line for line in lines if '"GET /tournaments/new/" 403' in line]) == 1  # daphne's access line


class Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.mark.django_db
def test_a_403_is_one_log_record_that_stops_at_our_handler(client: Client, alice: Any) -> None:
    """In-process: django.request's record is handled by our console handler and does
    not go on to the root logger, where daphne (and any runner) puts a handler of its own."""
    client.force_login(alice)
    at_django, at_root = Kept(), Kept()
    logging.getLogger("django.request").addHandler(at_django)
    logging.getLogger().addHandler(at_root)
    try:
        assert client.get("/tournaments/new/").status_code == 403
    finally:
        logging.getLogger("django.request").removeHandler(at_django)
        logging.getLogger().removeHandler(at_root)
    assert [r.status_code for r in at_django.records] == [403]  # type: ignore[attr-defined]
    assert [r for r in at_root.records if r.name.startswith("django")] == []
