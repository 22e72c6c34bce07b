from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from notify.keys import new_pair
from tests.helpers import celery_worker, require_service, wait_for_other_sessions_to_end, worker_database_url
from tests.notify.receiver import Receiver, receiving

VAPID = new_pair()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """The tests' own push service on 127.0.0.1."""
    with receiving() as receiver:
        yield receiver


@pytest.fixture
def push_settings(settings: Any) -> Any:
    """Push on, with a VAPID pair, and plain http let through to 127.0.0.1 (the receiver)."""
    settings.WEBPUSH_VAPID_PUBLIC_KEY = VAPID["WEBPUSH_VAPID_PUBLIC_KEY"]
    settings.WEBPUSH_VAPID_PRIVATE_KEY = VAPID["WEBPUSH_VAPID_PRIVATE_KEY"]
    settings.WEBPUSH_HTTP_HOSTS = ["127.0.0.1"]
    settings.WEBPUSH_SUBJECT = "mailto:push-tests@example.org"
    settings.SITE_URL = "https://aceweb.example"
    return settings


@pytest.fixture
def push_environment(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The same push settings for the processes a test starts (daphne, a
    Celery worker), through their environment; request it before them."""
    env = {**VAPID, "WEBPUSH_HTTP_HOSTS": "127.0.0.1", "WEBPUSH_SUBJECT": "mailto:push-tests@example.org"}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return env


@contextmanager
def pushing_worker(log: Path, **env: str) -> Iterator[None]:
    """A real Celery worker sending pushes, on the test database (transactional tests)."""
    from django.db import connection

    redis_url = require_service("REDIS_URL", "a Celery worker")
    try:
        with celery_worker(log, "push", REDIS_URL=redis_url, DATABASE_URL=worker_database_url(connection),
                           **env) as worker:
            yield
            assert worker.poll() is None, log.read_text()
    finally:
        wait_for_other_sessions_to_end(connection)


@pytest.fixture
def push_worker(push_environment: dict[str, str], tmp_path: Path) -> Iterator[Path]:
    with pushing_worker(tmp_path / "worker.log", **push_environment):
        yield tmp_path / "worker.log"


@pytest.fixture
def mail_sink(settings: Any) -> Iterator[Any]:
    """Mail from this process (the tests' own calls of the reminders) through
    real SMTP to the tests' sink (tests/notify/smtp_sink.py)."""
    from tests.notify.smtp_sink import smtp_sink

    with smtp_sink() as sink:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = sink.server_address
        settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
        settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
        settings.SITE_URL = "https://aceweb.example"
        yield sink
