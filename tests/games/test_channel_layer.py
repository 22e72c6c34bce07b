"""The Redis channel layer takes a burst of hundreds of sockets in one process.

Two limits of channels-redis's defaults showed under the 200-game benchmark:

- redis-py's asyncio pool allows 100 connections and then raises
  MaxConnectionsError: when 200 games' sockets closed at once, some "left"
  updates were lost (REDIS_MAX_CONNECTIONS);
- every socket of a process receives through ONE Redis queue per process, and
  ``capacity`` (100 by default) bounds that whole queue, not one socket's: a
  burst of moves overflowed it and group_send dropped updates, logging only
  "channels over capacity" (CHANNEL_CAPACITY).

This is such a burst, on the real Redis.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer

from tests.games.conftest import fresh_channel_layer

pytestmark = pytest.mark.usefixtures("services")

SOCKETS, GROUPS = 400, 200  # 200 games' players in one daphne process
SENDS_PER_GROUP = 2


@pytest.mark.django_db
async def test_a_burst_of_group_messages_to_hundreds_of_sockets_loses_nothing() -> None:
    layer = get_channel_layer()
    channels = [await layer.new_channel() for _ in range(SOCKETS)]
    try:
        await asyncio.gather(*(layer.group_add(f"burst-{i % GROUPS}", c) for i, c in enumerate(channels)))
        # Every game announces moves at once; nobody has read anything yet.
        await asyncio.gather(*(layer.group_send(f"burst-{g}", {"type": "game.changed", "ply": ply})
                               for g in range(GROUPS) for ply in range(SENDS_PER_GROUP)))
        received = await asyncio.wait_for(
            asyncio.gather(*(_take(layer, c, SENDS_PER_GROUP) for c in channels)), 10)
        assert all(plies == list(range(SENDS_PER_GROUP)) for plies in received)
        await asyncio.gather(*(layer.group_discard(f"burst-{i % GROUPS}", c) for i, c in enumerate(channels)))
    finally:
        await layer.flush()
        await fresh_channel_layer()


async def _take(layer: object, channel: str, count: int) -> list[int]:
    plies = [(await layer.receive(channel))["ply"] for _ in range(count)]  # type: ignore[attr-defined]
    return sorted(plies)
