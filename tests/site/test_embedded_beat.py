"""The embedded run (no REDIS_URL, no worker): daphne runs the beat schedule
itself, so a tournament starts and pairs its first round on time."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from tournaments import entering
from tournaments.models import Round, Tournament
from tests.helpers import ROOT, require_service, wait_for_other_sessions_to_end, worker_database_url


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def get_when_up(url: str, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"{url} did not answer")


@pytest.mark.django_db(transaction=True)
def test_daphne_alone_starts_a_tournament_on_time(alice: Any, bob: Any, charlie: Any, tmp_path: Any) -> None:
    require_service("DATABASE_URL", "a daphne sharing the test database")
    t = Tournament.objects.create(name="Embedded", organizer=charlie, format=Tournament.Format.ROUND_ROBIN,
                                  starts_at=timezone.now() + timezone.timedelta(hours=1))
    entering.join(t.pk, alice)
    entering.join(t.pk, bob)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(DATABASE_URL=worker_database_url(connection), ACEWEB_EMBEDDED_BEAT="1")
    log = open(tmp_path / "daphne.log", "wb")
    daphne = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                               "aceweb.asgi:application"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        get_when_up(f"http://127.0.0.1:{port}/tournaments/", deadline)  # the first request starts the beat
        while time.monotonic() < deadline and not Round.objects.filter(tournament=t).exists():
            time.sleep(0.2)
    finally:
        daphne.terminate()
        daphne.wait(timeout=30)
        log.close()
        wait_for_other_sessions_to_end(connection)
    assert Round.objects.filter(tournament=t, number=1).exists(), (tmp_path / "daphne.log").read_text()
    assert Tournament.objects.get(pk=t.pk).status == "running"
