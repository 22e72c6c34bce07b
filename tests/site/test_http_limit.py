"""aceweb/http_limit.py: no more than the limit of HTTP requests in Django at
once (each holds a thread and a database connection under ASGI); streams and
websockets pass by."""

from __future__ import annotations

import asyncio
from typing import Any

from aceweb.http_limit import HttpConcurrencyLimit


class Counting:
    """An ASGI app that takes a while and records how many run at once."""

    def __init__(self) -> None:
        self.now = self.most = self.done = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.now += 1
        self.most = max(self.most, self.now)
        await asyncio.sleep(0.01)
        self.now -= 1
        self.done += 1


async def test_requests_past_the_limit_wait_their_turn() -> None:
    app = Counting()
    limited = HttpConcurrencyLimit(app, 3)
    await asyncio.gather(*(limited({"type": "http", "path": f"/api/games/{n}"}, None, None) for n in range(20)))
    assert (app.done, app.most) == (20, 3)


async def test_streams_and_websockets_are_not_counted() -> None:
    app = Counting()
    limited = HttpConcurrencyLimit(app, 1)
    scopes = [{"type": "http", "path": "/api/stream/event"}] * 5 + [{"type": "websocket", "path": "/ws/game/1/"}] * 5
    await asyncio.gather(*(limited(scope, None, None) for scope in scopes))
    assert (app.done, app.most) == (10, 10)
