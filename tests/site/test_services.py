"""With DATABASE_URL and REDIS_URL set (as `make test` does), the real services are used.

These fail, rather than skip, when the URLs are missing: see tests.helpers.require_service.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import redis
from celery.result import EagerResult
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from django.db import connection

from games.tasks import ping
from tests.helpers import celery_worker, empty_redis_database, require_service



@pytest.mark.django_db
def test_the_test_database_is_postgresql() -> None:
    url = require_service("DATABASE_URL", "PostgreSQL")
    assert url.startswith(("postgres://", "postgresql://")), f"DATABASE_URL is not PostgreSQL: {url}"
    assert connection.vendor == "postgresql"
    assert connection.settings_dict["NAME"].startswith("test_")  # pytest-django's own database
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        assert "PostgreSQL" in cursor.fetchone()[0]


async def test_a_group_message_crosses_redis_between_two_layers() -> None:
    url = require_service("REDIS_URL", "the Redis channel layer")
    receiver = get_channel_layer()
    assert isinstance(receiver, RedisChannelLayer)
    sender = RedisChannelLayer(hosts=[url])  # as if in another daphne process
    channel = await receiver.new_channel()
    await receiver.group_add("service-check", channel)
    try:
        assert redis.Redis.from_url(url).exists("asgi:group:service-check")
        await sender.group_send("service-check", {"type": "game.update", "ply": 7})
        message = await asyncio.wait_for(receiver.receive(channel), timeout=5)
    finally:
        await receiver.group_discard("service-check", channel)
        await receiver.close_pools()
        await sender.close_pools()
    assert message == {"type": "game.update", "ply": 7}


def test_a_celery_worker_answers_ping(tmp_path: Path) -> None:
    url = require_service("REDIS_URL", "a Celery worker")
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    log_path = tmp_path / "worker.log"
    empty_redis_database()  # tasks earlier tests left queued would run first (a full run once waited 30 s)
    with celery_worker(log_path, "tests", REDIS_URL=url):
        result = ping.delay()
        assert not isinstance(result, EagerResult)
        answer = result.get(timeout=30)
    worker_log = log_path.read_text()
    assert answer == "pong", worker_log
    assert f"Task games.tasks.ping[{result.id}] succeeded" in worker_log, worker_log
