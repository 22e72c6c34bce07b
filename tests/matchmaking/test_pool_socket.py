"""The pool over the lobby socket (docs/protocol.md, "The rated pool"), through aceweb.asgi
on PostgreSQL and the Redis channel layer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from ladder import matchmaking
from games.models import Game
from ladder.models import Player, PoolEntry, Rating
from tests.games.conftest import fresh_channel_layer
from tests.lobby.conftest import LobbySocket, services, session_cookie  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

match = database_sync_to_async(matchmaking.match)
statuses = database_sync_to_async(lambda user: list(PoolEntry.objects.filter(user=user)
                                                    .order_by("pk").values_list("status", flat=True)))


@pytest.fixture
async def connect() -> AsyncIterator[Any]:
    """``sock = await connect(user)``: a logged-in lobby socket, its seeks and challenges read."""
    opened: list[LobbySocket] = []

    async def open_socket(user: Any) -> LobbySocket:
        sock = LobbySocket(await database_sync_to_async(session_cookie)(user))
        opened.append(sock)
        assert (await sock.open())["type"] == "seeks"
        assert (await sock.receive())["type"] == "challenges"
        return sock

    yield open_socket
    for sock in opened:
        await sock.close()
    await fresh_channel_layer()


async def test_joining_shows_the_wait_on_every_socket_of_the_player(alice: Any, connect: Any) -> None:
    await database_sync_to_async(Player.objects.create)(user=alice, rating=1620)
    tab, other_tab = await connect(alice), await connect(alice)
    await tab.send({"type": "pool_join", "time_control": "5+3"})
    for sock in (tab, other_tab):
        shown = (await sock.receive_type("pool"))["pool"]
        assert shown["time_control"]["key"] == "5+3" and shown["rating"] == 1620
        assert shown["window"] == {"low": 1520, "high": 1720, "width": 100}
        assert 0 <= shown["waited_ms"] < 5000 and shown["waited_ms"] + shown["widens_in_ms"] in range(10000, 10003)
    assert await statuses(alice) == ["waiting"]


async def test_a_refused_join_is_answered_and_changes_nothing(alice: Any, connect: Any) -> None:
    tab = await connect(alice)
    answer = await tab.request({"type": "pool_join", "time_control": "3d"})
    assert answer == {"type": "error", "message": "the rated pool is for real-time games only: choose one "
                                                  "of 1+0, 3+2, 5+3, 10+5, or create a correspondence seek"}
    assert await statuses(alice) == []


async def test_a_visitor_is_told_to_log_in(alice: Any) -> None:
    sock = LobbySocket()
    try:
        await sock.open()
        answer = await sock.request({"type": "pool_join", "time_control": "5+3"})
        assert answer == {"type": "error", "message": "log in to play rated games"}
    finally:
        await sock.close()
        await fresh_channel_layer()


async def test_leaving_clears_the_wait_everywhere(alice: Any, connect: Any) -> None:
    tab, other_tab = await connect(alice), await connect(alice)
    await tab.send({"type": "pool_join", "time_control": "3+2"})
    await tab.receive_type("pool")
    await other_tab.receive_type("pool")
    await other_tab.send({"type": "pool_leave"})
    assert (await tab.receive_type("pool"))["pool"] is None
    assert (await other_tab.receive_type("pool"))["pool"] is None
    assert await statuses(alice) == ["left"]


async def test_closing_the_socket_that_joined_leaves_the_pool(alice: Any, connect: Any) -> None:
    joiner, watcher = await connect(alice), await connect(alice)
    await joiner.send({"type": "pool_join", "time_control": "5+3"})
    await watcher.receive_type("pool")
    await joiner.close()
    assert (await watcher.receive_type("pool"))["pool"] is None
    assert await statuses(alice) == ["left"]


async def test_closing_another_socket_keeps_the_wait(alice: Any, connect: Any) -> None:
    joiner, watcher = await connect(alice), await connect(alice)
    await joiner.send({"type": "pool_join", "time_control": "5+3"})
    await joiner.receive_type("pool")
    await watcher.close()
    assert await joiner.silent()
    assert await statuses(alice) == ["waiting"]


async def test_a_socket_opened_while_waiting_is_told_at_once(alice: Any, connect: Any) -> None:
    await database_sync_to_async(matchmaking.join)(alice, "10+5")
    sock = await connect(alice)
    assert (await sock.receive())["pool"]["time_control"]["key"] == "10+5"


async def test_the_server_pushes_the_window_when_it_widens(alice: Any, connect: Any) -> None:
    sock = await connect(alice)
    # A wait that began 8 s ago (joining from elsewhere tells this socket too).
    await database_sync_to_async(matchmaking.join)(alice, "5+3", timezone.now() - timedelta(seconds=8))
    first = (await sock.receive())["pool"]
    assert first["window"]["width"] == 100 and first["widens_in_ms"] <= 2001
    pushed = (await sock.receive())["pool"]  # about two seconds later, unasked
    assert pushed["window"] == {"low": 1350, "high": 1650, "width": 150}
    assert pushed["waited_ms"] >= 10000 and pushed["widens_in_ms"] > 8000


async def test_paired_players_are_both_sent_to_the_game(alice: Any, bob: Any, connect: Any) -> None:
    alice_tab, bob_tab = await connect(alice), await connect(bob)
    for sock in (alice_tab, bob_tab):
        await sock.send({"type": "pool_join", "time_control": "5+3"})
        await sock.receive_type("pool")
    [game_id] = await match()
    for sock in (alice_tab, bob_tab):
        started = await sock.receive_type("game_started")
        assert started == {"type": "game_started", "game": game_id, "url": f"/games/{game_id}/"}
    assert await statuses(alice) == await statuses(bob) == ["paired"]


async def test_a_rhombus_join_waits_on_the_rhombus_ladder_and_pairs_a_rhombus_game(
        alice: Any, bob: Any, connect: Any) -> None:
    for user, ace, rhombus in ((alice, 1500, 1700), (bob, 1900, 1710)):
        await database_sync_to_async(Player.objects.create)(user=user, rating=ace)
        await database_sync_to_async(Rating.objects.create)(user=user, ladder="rhombus", rating=rhombus)
    alice_tab, bob_tab = await connect(alice), await connect(bob)
    for sock in (alice_tab, bob_tab):
        await sock.send({"type": "pool_join", "time_control": "3+2", "rules": "rhombus-formation"})
    shown = (await alice_tab.receive_type("pool"))["pool"]
    assert shown["rules"] == {"key": "rhombus-formation", "title": "Rhombus Formation"}
    assert (shown["rating"], shown["window"]["low"]) == (1700, 1600)
    await bob_tab.receive_type("pool")
    [game_id] = await match()
    assert (await alice_tab.receive_type("game_started"))["game"] == game_id
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    assert (game.kind, game.variant, game.players) == ("rhombus", "formation", 2)


async def test_an_unknown_game_is_answered_and_changes_nothing(alice: Any, connect: Any) -> None:
    tab = await connect(alice)
    answer = await tab.request({"type": "pool_join", "time_control": "5+3", "rules": "chess"})
    assert answer == {"type": "error", "message": "'chess' is not a game here: choose one of ace-in-the-hole, "
                                                  "rhombus, rhombus-formation"}
    assert await statuses(alice) == []
