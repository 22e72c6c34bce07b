"""The lobby socket with ?personal=1, as every page of a signed-in player opens it
(static/js/notify.js): the player's own challenges and game starts, never the seek list."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from aceweb.asgi import application
from ladder import challenges, seeks
from ladder.models import Challenge
from tests.lobby.conftest import LobbySocket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


class PersonalSocket(LobbySocket):
    def __init__(self, cookie: str | None = None) -> None:
        super().__init__(cookie)
        headers = [(b"host", b"localhost"), (b"origin", b"http://localhost")]
        if cookie:
            headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
        self.comm = WebsocketCommunicator(application, "/ws/lobby/?personal=1", headers=headers)


@pytest.fixture
async def personal() -> AsyncIterator[Callable[[str], Awaitable[tuple[PersonalSocket, dict[str, Any]]]]]:
    """``sock, first = await personal(cookie)``: a personal socket and its first message."""
    opened: list[PersonalSocket] = []

    async def open_socket(cookie: str) -> tuple[PersonalSocket, dict[str, Any]]:
        sock = PersonalSocket(cookie)
        opened.append(sock)
        return sock, await sock.open()

    yield open_socket
    for sock in opened:
        await sock.close()


async def test_it_starts_with_the_player_s_challenges_and_no_seek_list(
        alice: Any, bob: Any, cookies: dict[str, str], personal: Any) -> None:
    challenge = await database_sync_to_async(challenges.create_challenge)(alice, "bob", "5+3")
    await database_sync_to_async(seeks.create_seek)(alice, "3+2")
    sock, first = await personal(cookies["bob"])
    assert first["type"] == "challenges"
    assert [(c["id"], c["direction"]) for c in first["challenges"]] == [(challenge.pk, "incoming")]
    assert await sock.silent()  # no "seeks", although a seek is open


async def test_it_hears_no_seek_changes_but_the_player_s_own_challenge_and_game(
        alice: Any, bob: Any, cookies: dict[str, str], personal: Any, lobby_sockets: Any) -> None:
    bob_everywhere, _ = await personal(cookies["bob"])
    alice_in_lobby, _ = await lobby_sockets(cookies["alice"])

    await alice_in_lobby.send({"type": "seek", "time_control": "5+3"})
    assert (await alice_in_lobby.receive_type("seeks"))["seeks"]  # the lobby hears of it...
    assert await bob_everywhere.silent()  # ...the personal socket does not

    await alice_in_lobby.send({"type": "challenge", "username": "bob", "time_control": "10+5",
                               "rated": False, "colour": "red"})
    incoming = (await bob_everywhere.receive())["challenge"]
    assert (incoming["challenger"], incoming["direction"], incoming["status"]) == ("alice", "incoming", "pending")

    await bob_everywhere.send({"type": "accept_challenge", "challenge": incoming["id"]})
    # Besides, the bell's notice of the challenge and the new game's "Your turn"
    # list (docs/protocol.md, "Notifications and your turn").
    heard = {m["type"]: m for m in [await bob_everywhere.receive() for _ in range(4)]}
    assert set(heard) == {"notification", "challenge", "game_started", "turns"}
    assert heard["notification"]["kind"] == "challenge"
    assert heard["challenge"]["challenge"]["status"] == "accepted"
    started = heard["game_started"]
    game_id = (await database_sync_to_async(Challenge.objects.get)(pk=incoming["id"])).game_id
    assert started == {"type": "game_started", "game": game_id, "url": f"/games/{game_id}/"}
    assert (await alice_in_lobby.receive_type("game_started"))["game"] == game_id


async def test_a_refusal_on_it_is_answered_and_changes_nothing(
        alice: Any, bob: Any, charlie: Any, cookies: dict[str, str], personal: Any) -> None:
    challenge = await database_sync_to_async(challenges.create_challenge)(alice, "bob", "5+3")
    charlie_sock, _ = await personal(cookies["charlie"])
    error = await charlie_sock.request({"type": "accept_challenge", "challenge": challenge.pk})
    assert error == {"type": "error", "message": "only the challenged player can accept a challenge"}
    status = await database_sync_to_async(lambda: Challenge.objects.get(pk=challenge.pk).status)()
    assert status == "pending"
