"""Fixtures shared by every test: the test Redis database, and the web users."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from tests.helpers import chromium, redis_db_number


@pytest.fixture
def browser(live_server: LiveServer) -> Iterator[Browser]:
    """A headless Chromium for one test, against pytest-django's live server.

    Function-scoped and after live_server: Playwright's event loop must be gone
    before pytest-django flushes the database, or Django refuses (async-unsafe).
    """
    with chromium() as browser:
        yield browser


@pytest.fixture(scope="session", autouse=True)
def clean_test_redis() -> Iterator[None]:
    """Flush the tests' own Redis database before and after the session.

    Never database 0: that is where a developer's `make run` keeps its data.
    """
    url = os.environ.get("REDIS_URL", "")
    if not url or redis_db_number(url) == 0:
        yield
        return
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield
    client.flushdb()
    client.close()


def make_user(django_user_model: Any, username: str) -> Any:
    return django_user_model.objects.create_user(username, f"{username}@example.org", "password")


@pytest.fixture
def alice(django_user_model: Any) -> Any:
    """A player."""
    return make_user(django_user_model, "alice")


@pytest.fixture
def bob(django_user_model: Any) -> Any:
    """Alice's opponent."""
    return make_user(django_user_model, "bob")


@pytest.fixture
def charlie(django_user_model: Any) -> Any:
    """Someone with no access to Alice and Bob's game."""
    return make_user(django_user_model, "charlie")

