"""Fixtures for the lobby tests: logged-in lobby sockets on the real ASGI app."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings

from aceweb.asgi import application
# The shared ones: a real session per user, fast hashing, real PostgreSQL and Redis.
from tests.games.conftest import cookies, fast_password_hashing, services, session_cookie  # noqa: F401

TIMEOUT = 5  # seconds: a reply goes through the thread pool, PostgreSQL and Redis


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


@pytest.fixture
def dave_cookie(dave: Any) -> str:
    """Dave's session, for a fourth browser or socket."""
    return session_cookie(dave)
