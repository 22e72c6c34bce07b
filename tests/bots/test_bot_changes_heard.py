"""Who is a bot costs no Redis round trip per question (issue 24): each process
hears changes to the bot accounts announced on Redis, and reads the bots
again when it does (games.bots._ChangeListener)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.conf import settings

from games import bots
from ladder.models import Player
from tests.conftest import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


def wait_until(condition: Any, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


@pytest.fixture
def listening() -> None:
    bots.bot_levels()  # starts this process's listener
    assert wait_until(lambda: bots._changes.changes() is not None), "never subscribed"


@pytest.fixture
def redis_commands(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The commands redis-py sends from this process (the library, not our code, is wrapped)."""
    sent: list[str] = []
    original = redis.Redis.execute_command

    def counted(client: Any, *args: Any, **options: Any) -> Any:
        sent.append(str(args[0]))
        return original(client, *args, **options)

    monkeypatch.setattr(redis.Redis, "execute_command", counted)
    yield sent


def test_asking_who_is_a_bot_sends_nothing_to_redis_while_listening(
        listening: None, redis_commands: list[str], django_user_model: Any) -> None:
    bots.bot_levels()
    redis_commands.clear()
    for _ in range(20):
        bots.bot_levels()
        bots.level_of(1)
    assert redis_commands == []


def test_a_bot_account_another_process_announces_is_known_here_at_once(
        listening: None, django_user_model: Any) -> None:
    robot = make_user(django_user_model, "robot")
    assert robot.pk not in bots.bot_levels()
    # Another process makes the account a bot and announces it: here, only the
    # announcement arrives (this process's own cache is not cleared).
    Player.objects.update_or_create(user=robot, defaults={"is_bot": True, "bot_level": "greedy"})
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        client.publish(bots._changes_channel(), b"1")
    finally:
        client.close()
    assert wait_until(lambda: bots.bot_levels().get(robot.pk) == "greedy", 5)


def test_without_the_announcement_the_cached_bots_are_kept(listening: None, django_user_model: Any) -> None:
    """The converse, so that the test above is about the announcement: the
    cache is not simply re-read on every question."""
    robot = make_user(django_user_model, "robot")
    assert robot.pk not in bots.bot_levels()
    Player.objects.update_or_create(user=robot, defaults={"is_bot": True, "bot_level": "greedy"})
    time.sleep(0.3)
    assert robot.pk not in bots.bot_levels()
