"""Every group message reaches a stream, however often its keep-alive fires:
on the real Redis channel layer (aceweb/layers.py), whose receive, once
cancelled, drops what its channel's buffer holds. bench/api_streams.py found
moves whose line never came when each keep-alive cancelled a receive."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from channels.layers import get_channel_layer

from api import streams
from tests.games.conftest import services  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

MESSAGES = 1500  # sent at random gaps of up to 4 ms: about 3 s


class Recorder:
    """A watcher (streams._Watcher) that turns each message into one line."""

    done = False

    async def opening(self) -> list[dict[str, Any]]:
        return []

    async def after(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"n": message["n"]}]

    async def idle(self) -> None:
        pass

    async def closing(self) -> None:
        pass


async def test_no_message_is_lost_between_keep_alives(settings: Any) -> None:
    settings.API_STREAM_KEEPALIVE = 0.002  # a keep-alive between most two messages
    lines = streams._lines(("stream-delivery-test",), Recorder())
    assert await anext(lines) == b"\n"  # listening

    async def send() -> None:
        layer, gaps = get_channel_layer(), random.Random(15)
        for n in range(MESSAGES):
            await layer.group_send("stream-delivery-test", {"type": "game.changed", "n": n})
            await asyncio.sleep(gaps.uniform(0, 0.004))  # keep-alives fall between, and across, messages

    sender = asyncio.create_task(send())
    seen: list[int] = []
    keepalives = 0
    async with asyncio.timeout(30):
        while len(seen) < MESSAGES:
            line = await anext(lines)
            if line == b"\n":
                keepalives += 1
            else:
                seen.append(int(line.decode().split(":")[1].rstrip("}\n")))
    await sender
    await lines.aclose()
    assert seen == list(range(MESSAGES))
    assert keepalives > MESSAGES // 10  # the keep-alives really came between the messages


class Silent(Recorder):
    """A watcher whose messages make no line, as most of a player's group messages do
    on the event stream (every turn of every game reaches it)."""

    async def after(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        return []


async def test_messages_that_make_no_line_do_not_stop_the_keep_alives(settings: Any) -> None:
    """The example bot's event stream went silent for a whole Rhombus game (a turn
    message every half second, none a line) and its client timed out after 60 s."""
    settings.API_STREAM_KEEPALIVE = 0.05
    lines = streams._lines(("stream-silent-test",), Silent())
    assert await anext(lines) == b"\n"  # listening

    async def send() -> None:
        layer = get_channel_layer()
        for n in range(400):  # one message every 2.5 ms, for 1 s: always within a keep-alive
            await layer.group_send("stream-silent-test", {"type": "game.changed", "n": n})
            await asyncio.sleep(0.0025)

    sender = asyncio.create_task(send())
    keepalives = 0
    async with asyncio.timeout(30):
        while not sender.done():
            assert await anext(lines) == b"\n"
            keepalives += 1
    await lines.aclose()
    assert keepalives >= 10  # about one each 0.05 s of the second the messages came
