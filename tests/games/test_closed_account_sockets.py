"""A closed account's sockets close at once (issue 37): unticking "Active" in
the admin, or any save closing the account (games.signals.account_closed),
signs out its game and lobby sockets with 4401, not at their next action or
session check; the other player's socket stays."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.models import Game
from tests.games.conftest import Socket
from tests.games.test_signing_out import closed_for_signing_out
from tests.lobby.conftest import LobbySocket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


def close_account(user: Any) -> None:
    user.is_active = False
    user.save(update_fields=["is_active"])


async def test_closing_the_account_closes_its_game_and_lobby_sockets(game: Game, cookies: dict[str, str],
                                                                     alice: Any) -> None:
    red, lobby = Socket(game.pk, cookies["alice"]), LobbySocket(cookies["alice"])
    black = Socket(game.pk, cookies["bob"])
    try:
        await red.open()
        await lobby.open()
        await black.open()
        await black.drain()
        await red.drain()
        while not await lobby.comm.receive_nothing(timeout=0.2):
            await lobby.receive()
        await database_sync_to_async(close_account)(alice)
        await closed_for_signing_out(red.comm)
        await closed_for_signing_out(lobby.comm)
        red.closed = lobby.closed = True
        assert await black.request({"type": "ping"}) == {"type": "pong", "ply": 0, "status": "running"}
    finally:
        for sock in (red, lobby, black):
            await sock.close()
