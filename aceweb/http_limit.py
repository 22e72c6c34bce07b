"""At most HTTP_CONCURRENCY HTTP requests in Django at once, per daphne process.

Under ASGI Django runs each request's sync code (a view, the middleware) on a
thread of its own, with a database connection of its own, and starts as many
as requests arrive: a hundred API clients posting at once opened a hundred
PostgreSQL connections and the server refused the rest ("too many clients",
bench/api_streams.py). Requests past the limit wait their turn here instead.
The API's streams are not counted: each lives as long as its client, and
holds no connection (api/auth.py, StreamToken).
"""

from __future__ import annotations

import asyncio
from typing import Any

STREAMS = "/api/stream/"


class HttpConcurrencyLimit:
    def __init__(self, app: Any, limit: int) -> None:
        self.app, self.limit = app, limit
        self.slots: asyncio.Semaphore | None = None  # made in the serving loop

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"].startswith(STREAMS):
            await self.app(scope, receive, send)
            return
        if self.slots is None:
            self.slots = asyncio.Semaphore(self.limit)
        async with self.slots:
            await self.app(scope, receive, send)
