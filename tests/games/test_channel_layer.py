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
import threading
import time
from typing import Any

import pytest
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer as StockRedisChannelLayer
from django.conf import settings

from aceweb.layers import RedisChannelLayer

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


LEAVERS = 10


@pytest.mark.django_db
async def test_a_socket_closing_as_a_message_arrives_does_not_take_the_message_with_it() -> None:
    """Issue 10's stalled games: one socket's ``receive()`` pops the process's
    queue for all of its sockets; that socket closing (its receive cancelled)
    just as Redis handed over a message for another socket lost the message.

    The loop is made busy (a blocking send from another process's layer, then
    a pause) so that Redis's reply is waiting unread when the cancel comes,
    as under load. channels-redis's own layer loses all ten messages here.
    """
    layer = get_channel_layer()
    try:
        for ply in range(LEAVERS):
            leaving, staying = await layer.new_channel(), await layer.new_channel()
            leaver = asyncio.ensure_future(layer.receive(leaving))
            await asyncio.sleep(0.05)  # the leaver now pops the process's queue for everyone
            stayer = asyncio.ensure_future(layer.receive(staying))
            await asyncio.sleep(0.01)
            _send_from_another_process(staying, {"type": "game.changed", "ply": ply})
            time.sleep(0.01)  # the reply arrives while this loop is busy
            leaver.cancel()  # ... and the leaving socket's receive is cancelled
            assert (await asyncio.wait_for(stayer, 3))["ply"] == ply
    finally:
        await layer.flush()
        await fresh_channel_layer()


def _send_from_another_process(channel: str, message: dict[str, Any]) -> None:
    """Send as a worker or another daphne would, blocking this event loop meanwhile."""
    other = RedisChannelLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])
    sender = threading.Thread(target=lambda: asyncio.run(other.send(channel, message)))
    sender.start()
    sender.join()


@pytest.mark.django_db
async def test_a_process_on_channels_redis_and_one_on_ours_talk_both_ways() -> None:
    """Ours stores groups and messages as channels-redis does: during an
    upgrade, processes on either layer still reach each other's sockets."""
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    ours, stock = RedisChannelLayer(**config), StockRedisChannelLayer(**config)
    try:
        mine, theirs = await ours.new_channel(), await stock.new_channel()
        await ours.group_add("mixed", mine)
        await stock.group_add("mixed", theirs)
        await stock.group_send("mixed", {"type": "game.changed", "ply": 1})
        await ours.group_send("mixed", {"type": "game.changed", "ply": 2})
        for layer, channel in ((ours, mine), (stock, theirs)):
            plies = [(await asyncio.wait_for(layer.receive(channel), 3))["ply"] for _ in range(2)]
            assert plies == [1, 2]
    finally:
        await ours.flush()
        await stock.close_pools()


@pytest.mark.django_db
async def test_messages_for_a_busy_socket_wait_for_it_in_order() -> None:
    """A socket not receiving (busy with the last message) misses nothing:
    the process's reader keeps its messages until it asks."""
    layer = RedisChannelLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])
    try:
        busy, other = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("busy", busy)
        await layer.group_add("busy", other)
        for ply in range(5):
            await layer.group_send("busy", {"type": "game.changed", "ply": ply})
        assert [(await asyncio.wait_for(layer.receive(other), 3))["ply"] for _ in range(5)] == list(range(5))
        assert [(await asyncio.wait_for(layer.receive(busy), 3))["ply"] for _ in range(5)] == list(range(5))
    finally:
        await layer.flush()


@pytest.mark.django_db
async def test_a_group_message_skipping_its_sender_reaches_everyone_else() -> None:
    """A mover's socket has its own update already: the group message skips it
    (games.consumers), and still reaches the other sockets, here two in the
    mover's own process and one alone."""
    layer = get_channel_layer()
    mover, neighbour, other = [await layer.new_channel() for _ in range(3)]
    try:
        for channel in (mover, neighbour, other):
            await layer.group_add("skipping", channel)
        await layer.group_send("skipping", {"type": "game.changed", "ply": 1, "moved": True}, skipping=mover)
        await layer.group_send("skipping", {"type": "game.changed", "ply": 2})
        assert [await _take(layer, c, 1) for c in (neighbour, other)] == [[1], [1]]
        assert await _take(layer, mover, 1) == [2]  # the next message, not the skipped one
        assert [await _take(layer, c, 1) for c in (neighbour, other)] == [[2], [2]]
    finally:
        await layer.flush()
        await fresh_channel_layer()


@pytest.mark.django_db
@pytest.mark.parametrize("capacities", [None, {"specific.*": 50}], ids=["one-script", "per-channel-capacity"])
async def test_several_groups_in_one_call_keep_their_order_and_each_its_skip(capacities: Any) -> None:
    """A move tells its game's group and the players' own groups in one call
    (group_send_many, one script): a channel in several of them gets each
    message once, in the order they were given, and only the game's message
    skips the mover; after Redis forgets the script, the next call still
    arrives (it is sent whole again). With capacities per channel the layer
    sends group by group, in two round trips each, with the same result."""
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    layer = RedisChannelLayer(**config, **({"channel_capacity": capacities} if capacities else {}))
    mover, player = [await layer.new_channel() for _ in range(2)]
    try:
        await layer.group_add("game-1", mover)
        await layer.group_add("game-1", player)
        await layer.group_add("user-2", player)
        await layer.group_send_many([("game-1", {"type": "game.changed", "ply": 1, "moved": True}, mover),
                                     ("user-2", {"type": "notify.turns", "ply": 2}, None),
                                     ("game-1", {"type": "game.changed", "ply": 3}, None)])
        assert [(await asyncio.wait_for(layer.receive(player), 3))["ply"] for _ in range(3)] == [1, 2, 3]
        assert await _take(layer, mover, 1) == [3]  # the next message, not the skipped one
        await layer.connection(0).script_flush()
        await layer.group_send_many([("user-2", {"type": "notify.turns", "ply": 4}, None)])
        assert await _take(layer, player, 1) == [4]
    finally:
        await layer.flush()
