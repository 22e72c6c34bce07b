"""Presence stamps are announced by the consumer, and daphne stops when told to.

Closing a player's socket records the departure (presence, R17). That used to
announce the change from the database thread, through async_to_sync, onto an
event loop that shutdown may already have stopped: the thread then waited
forever and daphne ignored SIGTERM (seen under the 200-game benchmark). Now
presence.arrive/depart only return the announcement and the consumer sends it from
its own loop. The SIGTERM test below did not reproduce the hang on the old code
at this size; it guards the promise itself (stopping `make run` or a deploy).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from bench.live_play import open_socket, start_servers, stop_servers
from games import broadcast, presence, starting
from tests.games.conftest import session_cookie
from tests.helpers import require_service

STOP_WITHIN = 8  # seconds; daphne's own graceful close takes about one
GAMES, TABS = 10, 2  # enough departures to still be running when the loop stops


def _test_database_url() -> str:
    parts = urlsplit(require_service("DATABASE_URL", "daphne on the test database"))
    return urlunsplit((parts.scheme, parts.netloc, "/" + connection.settings_dict["NAME"], parts.query, ""))


@pytest.mark.django_db(transaction=True)
def test_stamping_presence_sends_nothing_itself_and_returns_the_announcement(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed="tests-presence-contract")
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(broadcast.group_name(game.pk), channel)

    arrived = presence.arrive(game.pk, alice)
    assert arrived == ("red", {"type": "game.changed", "ply": 0, "seat": "red"})
    departed = presence.depart(game.pk, alice)
    assert departed == ("red", {"type": "game.left", "ply": 0, "seat": "red"})
    assert async_to_sync(_nothing_arrives)(layer, channel)  # committed, yet nothing sent


async def _nothing_arrives(layer: Any, channel: str) -> bool:
    try:
        await asyncio.wait_for(layer.receive(channel), 1)
    except asyncio.TimeoutError:
        return True
    return False


@pytest.mark.django_db(transaction=True)
def test_daphne_stops_promptly_while_players_are_connected(
        alice: Any, bob: Any, tmp_path: Path) -> None:
    games = [starting.start_game(alice, bob, seed=f"tests-shutdown-{i}").pk for i in range(GAMES)]
    cookies = [session_cookie(alice), session_cookie(bob)] * TABS
    env = {**os.environ, "DATABASE_URL": _test_database_url(), "DEBUG": "1"}
    (server,) = start_servers(1, env, tmp_path)
    try:
        elapsed = asyncio.run(_stop_with_sockets_open(server.process, server.port, games, cookies))
        assert elapsed is not None, f"daphne ignored SIGTERM for {STOP_WITHIN} s with players connected"
    finally:
        stop_servers([server])


async def _stop_with_sockets_open(process: subprocess.Popen[bytes], port: int, games: list[int],
                                  cookies: list[str]) -> float | None:
    sockets = [await open_socket(port, game, cookie, timeout=10) for game in games for cookie in cookies]
    for sock in sockets:
        await sock.next_state(0)  # the sync: the seat is now stamped present
    began = time.monotonic()
    process.send_signal(signal.SIGTERM)
    while time.monotonic() - began < STOP_WITHIN:
        if process.poll() is not None:
            return time.monotonic() - began
        await asyncio.sleep(0.1)
    return None
