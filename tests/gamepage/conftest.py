"""Fixtures for the game page: a game with known cards, and users logged in by cookie."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client
from playwright.sync_api import Browser

from games import play
from games.models import Game
from tests.helpers import chromium

SEED = "gamepage-seed"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """Creating alice, bob and charlie with the real hasher costs a second a test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def game(alice: Any, bob: Any) -> Game:
    """Alice (Red) against Bob (Black), with a fixed seed so the tests know the cards."""
    return play.start_game(alice, bob, seed=SEED)


def session_cookie(user: Any) -> str:
    """A real session for USER, as the browser would hold after logging in."""
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


@pytest.fixture
def chromium_browser(daphne_server: str) -> Iterator[Browser]:
    """Chromium for one test, opened after daphne (and closed before it stops)."""
    with chromium() as browser:
        yield browser


@pytest.fixture
def orm() -> Iterator[Callable[..., Any]]:
    """``orm(fn, *args)`` runs database work in a thread of its own.

    While Playwright's loop runs in the test's thread, Django would refuse the
    ORM there (async-unsafe) and would hand out connections that are never
    closed, so the test database could not be dropped.
    """
    with ThreadPoolExecutor(max_workers=1) as pool:
        yield lambda fn, *args: pool.submit(fn, *args).result()
        pool.submit(connections.close_all).result()
