"""Fixtures and helpers for the games tests: logged-in websockets on the real ASGI app."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Awaitable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from aceweb.asgi import application
from games import starting
from games.models import Game
from tests.helpers import require_service
from tests.seats import seated

TIMEOUT = 5  # seconds: a reply goes through the thread pool, PostgreSQL and Redis


def session_cookie(user: Any) -> str:
    """A real session for USER, as the browser would hold after logging in."""
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


class Socket:
    """A websocket to a game through aceweb.asgi.application (origin check, session auth)."""

    def __init__(self, game_id: int, cookie: str | None = None, query: str = "") -> None:
        headers = [(b"host", b"localhost"), (b"origin", b"http://localhost")]
        if cookie:
            headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
        self.comm = WebsocketCommunicator(application, f"/ws/games/{game_id}/{query}", headers=headers)
        self.game_id, self.cookie = game_id, cookie
        self.closed = False

    async def open(self) -> dict[str, Any]:
        connected, _ = await self.comm.connect(timeout=TIMEOUT)
        assert connected
        return await self.receive()

    async def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = await self.comm.receive_json_from(timeout=TIMEOUT)
        return message

    async def send(self, data: Any) -> None:
        await self.comm.send_json_to(data)

    async def send_text(self, text: str) -> None:
        await self.comm.send_to(text_data=text)

    async def request(self, data: Any) -> dict[str, Any]:
        await self.send(data)
        return await self.receive()

    async def silent(self) -> bool:
        return await self.comm.receive_nothing(timeout=0.2)

    async def drain(self) -> list[dict[str, Any]]:
        """Take every message waiting, e.g. the presence updates as players come and go."""
        taken = []
        while not await self.comm.receive_nothing(timeout=0.2):
            taken.append(await self.receive())
        return taken

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            await self.comm.disconnect(timeout=TIMEOUT)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """Creating alice, bob and charlie with the real hasher costs a second a test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def services() -> None:
    """Consumer tests run on the real PostgreSQL and Redis channel layer."""
    require_service("DATABASE_URL", "games over PostgreSQL")
    require_service("REDIS_URL", "the Redis channel layer")
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "aceweb.layers.RedisChannelLayer"
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


@pytest.fixture
def game(alice: Any, bob: Any) -> Game:
    """Alice (Red) against Bob (Black), with a fixed seed so the tests can know the cards."""
    return starting.start_game(alice, bob, seed="tests-game-seed")


@pytest.fixture
def cookies(alice: Any, bob: Any, charlie: Any) -> dict[str, str]:
    return {user.username: session_cookie(user) for user in (alice, bob, charlie)}


@pytest.fixture
async def sockets() -> AsyncIterator[Callable[..., Awaitable[tuple[Socket, dict[str, Any]]]]]:
    """Open sockets (closed at the end of the test): ``sock, sync = await open(game_id, cookie)``."""
    opened: list[Socket] = []

    async def open_socket(game_id: int, cookie: str | None = None) -> tuple[Socket, dict[str, Any]]:
        """Open one more socket; the presence updates its arrival causes are drained."""
        sock = Socket(game_id, cookie)
        sync = await sock.open()
        if sync.get("seat") is not None and not any(o.cookie == cookie and not o.closed for o in opened):
            for other in opened:  # the seat has just become present: one update each
                if not other.closed and other.game_id == game_id:
                    arrival = await other.receive()
                    assert arrival["game"]["presence"][sync["seat"]] is True
        opened.append(sock)
        return sock, sync

    yield open_socket
    for sock in opened:
        await sock.close()
    await fresh_channel_layer()


async def fresh_channel_layer() -> None:
    """Drop the process's channel layer so the next test builds one on its own loop.

    Closing a player's socket now sends ``game.left`` to the others, so a
    consumer may be mid-receive when the test's event loop ends; channels_redis
    would then carry a lock bound to the dead loop into the next test.
    """
    layer = channel_layers.backends.pop(DEFAULT_CHANNEL_LAYER, None)
    close = getattr(layer, "close_pools", None)
    if close is not None:
        await close()


load_game = database_sync_to_async(lambda game_id: seated(Game.objects.get(pk=game_id)))
