"""The reminders as Celery beat runs them: the tasks of the beat schedule, on a
real worker, sending through real SMTP (the tests' own sink, set by EMAIL_URL)."""

from __future__ import annotations

import queue
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.utils import timezone

from games import tasks
from tests.helpers import celery_worker, require_service, wait_for_other_sessions_to_end, worker_database_url
from tests.notify.mails import choose, correspondence
from tests.notify.smtp_sink import smtp_sink

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_beat_schedule_runs_the_digest_and_the_clock_warnings() -> None:
    tasks_run = {entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert tasks_run["games.tasks.send_turn_digests"] == 3600.0  # hourly: once a day per player, from its hour
    assert tasks_run["games.tasks.send_clock_warnings"] <= 600.0  # the 1-hour warning must come in time


def test_the_worker_mails_the_digest_and_the_warning_through_smtp(alice: Any, bob: Any, tmp_path: Path) -> None:
    redis_url = require_service("REDIS_URL", "a Celery worker")
    choose(alice, "turn", email=True)
    choose(alice, "clock", email=True)
    game = correspondence(alice, bob, turn_started=timezone.now() - timedelta(days=2, minutes=5))
    log = tmp_path / "worker.log"
    with smtp_sink() as sink:
        env = {"REDIS_URL": redis_url, "DATABASE_URL": worker_database_url(connection), "EMAIL_URL": sink.url,
               "TURN_DIGEST_HOUR": "0", "SITE_URL": "https://aceweb.example",
               "DEFAULT_FROM_EMAIL": "aceweb <noreply@aceweb.example>"}
        try:
            with celery_worker(log, "reminders", **env):
                assert tasks.send_turn_digests.delay().get(timeout=90) == 1, log.read_text()[-3000:]
                assert tasks.send_clock_warnings.delay().get(timeout=90) == 1, log.read_text()[-3000:]
                assert tasks.send_turn_digests.delay().get(timeout=90) == 0  # once a day
                assert tasks.send_clock_warnings.delay().get(timeout=90) == 0  # once per threshold
        finally:
            wait_for_other_sessions_to_end(connection)
        digest, warning = sink.messages.get(timeout=5), sink.messages.get(timeout=5)
        with pytest.raises(queue.Empty):
            sink.messages.get_nowait()
    assert (digest["To"], digest["From"]) == ("alice@example.org", "aceweb <noreply@aceweb.example>")
    assert digest["Subject"] == "It's your turn in 1 game"
    link = f"https://aceweb.example/games/{game.pk}/"
    assert link in digest.get_body(("plain",)).get_content()
    assert f'href="{link}"' in digest.get_body(("html",)).get_content()
    assert warning["Subject"] == "Less than a day left on your clock"
    unsubscribe = str(warning["List-Unsubscribe"]).strip().strip("<>")
    assert warning["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert Client().post(unsubscribe.removeprefix("https://aceweb.example")).status_code == 200
