"""Fixtures for the lobby tests: logged-in lobby sockets on the real ASGI app."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from aceweb.asgi import application
from tests.helpers import require_service

TIMEOUT = 5  # seconds: a reply goes through the thread pool, PostgreSQL and Redis


def session_cookie(user: Any) -> str:
    """A real session for USER, as the browser would hold after logging in."""
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


class LobbySocket:
    """A websocket to /ws/lobby/ through aceweb.asgi.application (origin check, session auth)."""

    def __init__(self, cookie: str | None = None) -> None:
        headers = [(b"host", b"localhost"), (b"origin", b"http://localhost")]
        if cookie:
            headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
        self.comm = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
        self.closed = False

    async def open(self) -> dict[str, Any]:
        """Connect; the first message, the seek list."""
        connected, _ = await self.comm.connect(timeout=TIMEOUT)
        assert connected
        return await self.receive()

    async def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = await self.comm.receive_json_from(timeout=TIMEOUT)
        return message

    async def receive_type(self, kind: str) -> dict[str, Any]:
        """The next message of type KIND, skipping others (e.g. list refreshes)."""
        for _ in range(10):
            message = await self.receive()
            if message["type"] == kind:
                return message
        raise AssertionError(f"no {kind!r} message")

    async def send(self, data: Any) -> None:
        await self.comm.send_json_to(data)

    async def send_text(self, text: str) -> None:
        await self.comm.send_to(text_data=text)

    async def request(self, data: Any) -> dict[str, Any]:
        await self.send(data)
        return await self.receive()

    async def silent(self) -> bool:
        return await self.comm.receive_nothing(timeout=0.3)

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            await self.comm.disconnect(timeout=TIMEOUT)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def services() -> None:
    """Lobby tests run on the real PostgreSQL and Redis channel layer."""
    require_service("DATABASE_URL", "the lobby over PostgreSQL")
    require_service("REDIS_URL", "the Redis channel layer")
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


@pytest.fixture
def cookies(alice: Any, bob: Any, charlie: Any) -> dict[str, str]:
    return {user.username: session_cookie(user) for user in (alice, bob, charlie)}


Opener = Callable[..., Awaitable[tuple[LobbySocket, dict[str, Any]]]]


@pytest.fixture
async def lobby_sockets() -> AsyncIterator[Opener]:
    """``sock, seeks = await open(cookie)``; a logged-in socket's "challenges" message
    is read too and kept as ``sock.challenges``. Closed at the end of the test."""
    opened: list[LobbySocket] = []

    async def open_socket(cookie: str | None = None) -> tuple[LobbySocket, dict[str, Any]]:
        sock = LobbySocket(cookie)
        opened.append(sock)
        seeks = await sock.open()
        if cookie:
            sock.challenges = await sock.receive()  # type: ignore[attr-defined]
        return sock, seeks

    yield open_socket
    for sock in opened:
        await sock.close()
