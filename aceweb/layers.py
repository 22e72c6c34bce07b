"""The Redis channel layer, without the message loss channels-redis has.

channels-redis delivers every message for the sockets of one process through a
single Redis queue. Whichever socket's ``receive()`` holds the layer's receive
lock pops that queue (BZPOPMIN) for all of them and hands each message to its
socket. When that socket closes, Channels cancels its ``receive()``; if Redis had
already popped a message but the busy event loop had not yet read the reply,
the message was gone, for every socket of the process it named: a game update
that Red and a spectator never got while Black, answered directly, moved on
(issue 10; the same as django/channels#1683). tests/games/test_channel_layer.py
shows it.

Here the pop is a task of its own that a cancelled caller leaves running: the
next socket to take the receive lock awaits that same pop instead of starting
another, and hands its message on as usual.
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels_redis.core import RedisChannelLayer as _RedisChannelLayer

Received = tuple[Any, dict[str, Any]]  # (channel name or names, message)


class RedisChannelLayer(_RedisChannelLayer):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pops: dict[str, asyncio.Future[Received]] = {}  # per process queue: the pop under way

    async def receive_single(self, channel: str) -> Received:
        if "!" not in channel:  # a plain channel: nobody else's messages are at stake
            return await super().receive_single(channel)  # type: ignore[no-any-return]
        pop = self._pops.get(channel)
        if pop is None or pop.get_loop() is not asyncio.get_running_loop():
            pop = self._pops[channel] = asyncio.ensure_future(super().receive_single(channel))
            pop.add_done_callback(_seen)  # a pop nobody awaits any more may end in an error
        try:
            received = await asyncio.shield(pop)
        except asyncio.CancelledError:
            raise  # our caller was cancelled: the pop, done or not, is the next caller's
        except BaseException:
            del self._pops[channel]
            raise
        del self._pops[channel]
        return received

    async def close_pools(self) -> None:
        """As channels-redis does (and ``flush``, through it), after ending the
        pops under way, whose connections are about to close."""
        for pop in self._pops.values():
            pop.cancel()
        self._pops.clear()
        await super().close_pools()


def _seen(pop: asyncio.Future[Received]) -> None:
    """Mark a finished pop's error as seen, so asyncio does not log it as
    never retrieved: whoever awaits the pop still gets the error."""
    if not pop.cancelled():
        pop.exception()
