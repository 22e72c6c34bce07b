"""A socket that missed an update catches up (docs/protocol.md, "Staying in step").

Issue 10: a lost group message left Red and a spectator at ply 35 for minutes
while the game went on. The loss itself is fixed (aceweb/layers.py,
test_channel_layer.py); these check that a socket recovers from one anyway:
``beat`` frames tell every socket the game's ply, ``pong`` does too, a ``sync``
request is answered with the whole state, and a socket still behind a whole
beat later is sent the state unasked.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from django.utils import timezone

from games import broadcast, finishing, moving, pulse
from games.consumers import GameConsumer
from games.models import Game
from tests.games.conftest import load_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

Opener = Any
BEAT = 0.3  # seconds: short, so that the tests wait little


@database_sync_to_async
def move_unannounced(game: Game, user: Any, ply: int, action: str) -> None:
    """Play a move whose group message is lost on its way (as the layer once lost them)."""
    with broadcast.held_notifications():  # collected here, and then never sent
        moving.submit(game.pk, user, ply, action)


@database_sync_to_async
def resign_unannounced(game: Game, user: Any) -> None:
    with broadcast.held_notifications():
        finishing.resign(game.pk, user)


async def test_a_socket_whose_update_was_lost_is_sent_the_state_a_beat_later(
        game: Game, alice: Any, cookies: dict[str, str], sockets: Opener, settings: Any) -> None:
    settings.GAME_BEAT_SECONDS = BEAT
    red, _ = await sockets(game.pk, cookies["alice"])
    watcher, _ = await sockets(game.pk)
    await move_unannounced(game, alice, 0, "5H e1-e6")
    for sock in (red, watcher):
        frames = [await sock.receive() for _ in range(3)]
        beat = next(f for f in frames if f["type"] == "beat")
        assert (beat["ply"], beat["status"]) == (1, "running")
        caught_up = next(f for f in frames if f["type"] == "sync")
        assert caught_up["ply"] == 1 and caught_up["discards"]["red"] == ["5H e1-e6"]
        assert frames.index(caught_up) > frames.index(beat)  # it was behind for a whole beat first


async def test_a_resignation_that_was_not_announced_reaches_the_socket_too(
        game: Game, bob: Any, cookies: dict[str, str], sockets: Opener, settings: Any) -> None:
    settings.GAME_BEAT_SECONDS = BEAT
    watcher, _ = await sockets(game.pk)
    await resign_unannounced(game, bob)
    frames = [await watcher.receive() for _ in range(3)]
    caught_up = next(f for f in frames if f["type"] == "sync")
    assert caught_up["game"]["status"] == "finished" and caught_up["game"]["winner"] == "red"


async def test_a_socket_in_step_gets_beats_and_nothing_else(
        game: Game, cookies: dict[str, str], sockets: Opener, settings: Any) -> None:
    settings.GAME_BEAT_SECONDS = BEAT
    red, _ = await sockets(game.pk, cookies["alice"])
    update = await red.request({"type": "act", "ply": 0, "action": "5H e1-e6"})
    assert update["type"] == "update" and update["ply"] == 1
    frames = [await red.receive() for _ in range(3)]
    assert frames == [{"type": "beat", "ply": 1, "status": "running"}] * 3


async def test_pong_tells_the_games_ply_and_sync_sends_the_whole_state(
        game: Game, alice: Any, cookies: dict[str, str], sockets: Opener) -> None:
    watcher, _ = await sockets(game.pk, cookies["charlie"])
    await move_unannounced(game, alice, 0, "5H e1-e6")
    assert await watcher.request({"type": "ping"}) == {"type": "pong", "ply": 1, "status": "running"}
    sync = await watcher.request({"type": "sync"})
    assert sync["type"] == "sync" and sync["ply"] == 1 and sync["hand"] is None


async def test_a_watching_socket_may_ask_for_a_sync(game: Game, alice: Any, sockets: Opener) -> None:
    from tests.games.conftest import Socket

    watch = Socket(game.pk, query="?watch=1")
    await watch.open()
    try:
        await move_unannounced(game, alice, 0, "5H e1-e6")
        assert (await watch.request({"type": "sync"}))["ply"] == 1
    finally:
        await watch.close()


async def test_a_socket_closing_while_a_message_is_on_its_way_still_records_the_departure(
        game: Game, alice: Any, cookies: dict[str, str], sockets: Opener) -> None:
    """daphne raises autobahn's Disconnected from a send after the client closed;
    that used to end the consumer before its disconnect() recorded the leaving."""
    consumer = GameConsumer()
    consumer.scope = {"user": alice, "url_route": {"kwargs": {"game_id": game.pk}}, "query_string": b""}
    consumer.channel_layer, consumer.channel_name = None, "test!closed"
    consumer.game_id, consumer.group, consumer.seat = game.pk, broadcast.group_name(game.pk), "red"
    consumer.sending = asyncio.Lock()

    async def closed(message: dict[str, Any]) -> None:
        raise Disconnected("Attempt to send on a closed protocol")

    consumer.base_send = closed
    await consumer.game_changed({"type": "game.changed", "ply": 0})  # raised before
    await consumer._depart()
    assert (await load_game(game.pk)).seat("red").left_at is not None


async def test_each_beat_records_the_sites_pulse(game: Game, cookies: dict[str, str], sockets: Opener,
                                                 settings: Any) -> None:
    """What penalties ask before blaming a player (games/pulse.py, issue 14)."""
    settings.GAME_BEAT_SECONDS = BEAT
    await database_sync_to_async(pulse.forget)()
    red, _ = await sockets(game.pk, cookies["alice"])
    assert (await red.receive())["type"] == "beat"
    now = timezone.now()
    assert await database_sync_to_async(pulse.served)(now - timedelta(seconds=5), now, now)
    await database_sync_to_async(pulse.forget)()
