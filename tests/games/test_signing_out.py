"""Sockets follow the login (issue 10): logging out, changing the password or the
session expiring closes the sockets opened with that login (code 4401), and every
action checks the session again. Before, a socket stayed signed in: an ``act``
sent 25 s after logging out was played, and a seek was created."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from games import signins
from games.models import Game
from games.sockets import SIGNED_OUT
from ladder.models import Seek
from tests.games.conftest import Socket, load_game, session_cookie
from tests.lobby.conftest import LobbySocket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

SECOND = 1.0


async def closed_for_signing_out(comm: Any) -> None:
    """The socket says why, then closes with 4401, within a second (after any
    update that was already on its way)."""
    error = await comm.receive_json_from(timeout=SECOND)
    while error["type"] == "update":
        error = await comm.receive_json_from(timeout=SECOND)
    assert error["type"] == "error" and "signed out" in error["message"]
    assert await comm.receive_output(timeout=SECOND) == {"type": "websocket.close", "code": SIGNED_OUT}


@database_sync_to_async
def post_as(cookie: str, path: str, data: dict[str, str] | None = None) -> int:
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = cookie
    return client.post(path, data or {}).status_code


async def test_logging_out_closes_the_game_and_lobby_sockets_of_that_login(
        game: Game, cookies: dict[str, str]) -> None:
    red, lobby = Socket(game.pk, cookies["alice"]), LobbySocket(cookies["alice"])
    black = Socket(game.pk, cookies["bob"])
    try:
        await red.open()
        await lobby.open()
        await black.open()
        await black.drain()
        while not await lobby.comm.receive_nothing(timeout=0.2):
            await lobby.receive()
        assert await post_as(cookies["alice"], "/accounts/logout/") == 302
        await closed_for_signing_out(red.comm)
        await closed_for_signing_out(lobby.comm)
        red.closed = lobby.closed = True
        assert await black.request({"type": "ping"}) == {"type": "pong", "ply": 0, "status": "running"}
        again = Socket(game.pk, cookies["alice"])  # the same cookie, now signed out
        assert (await again.open())["seat"] is None
        await again.close()
    finally:
        for sock in (red, lobby, black):
            await sock.close()


async def test_a_password_change_closes_the_sockets_of_every_login(game: Game, alice: Any) -> None:
    here, there = await database_sync_to_async(session_cookie)(alice), await database_sync_to_async(
        session_cookie)(alice)
    sockets = [Socket(game.pk, here), Socket(game.pk, there)]
    try:
        for sock in sockets:
            await sock.open()
        await sockets[0].drain()
        change = {"oldpassword": "password", "password1": "a-new-password-42", "password2": "a-new-password-42"}
        assert await post_as(here, "/accounts/password/change/", change) == 302
        for sock in sockets:
            await closed_for_signing_out(sock.comm)
            sock.closed = True
    finally:
        for sock in sockets:
            await sock.close()


async def test_a_session_that_expires_closes_its_socket(game: Game, alice: Any) -> None:
    cookie = await database_sync_to_async(session_cookie)(alice)
    await database_sync_to_async(Session.objects.filter(session_key=cookie).update)(
        expire_date=timezone.now() + timedelta(seconds=1))
    red = Socket(game.pk, cookie)
    try:
        await red.open()
        error = await red.comm.receive_json_from(timeout=3)
        assert "signed out" in error["message"]
        assert await red.comm.receive_output(timeout=SECOND) == {"type": "websocket.close", "code": SIGNED_OUT}
        red.closed = True
    finally:
        await red.close()


async def test_an_action_after_the_session_ended_is_refused_and_changes_nothing(
        game: Game, cookies: dict[str, str]) -> None:
    red, lobby = Socket(game.pk, cookies["alice"]), LobbySocket(cookies["alice"])
    try:
        await red.open()
        await lobby.open()
        while not await lobby.comm.receive_nothing(timeout=0.2):
            await lobby.receive()
        # Ended without a word to the sockets (as by the session store's own cleanup).
        await database_sync_to_async(Session.objects.filter(session_key=cookies["alice"]).delete)()
        await red.send({"type": "act", "ply": 0, "action": "2H e1-c3"})
        await closed_for_signing_out(red.comm)
        await lobby.send({"type": "seek", "time_control": "10+5"})
        await closed_for_signing_out(lobby.comm)
        red.closed = lobby.closed = True
        assert (await load_game(game.pk)).ply == 0
        assert await database_sync_to_async(Seek.objects.count)() == 0
    finally:
        for sock in (red, lobby):
            await sock.close()


async def test_a_spectators_socket_is_untouched_by_someone_elses_logout(
        game: Game, cookies: dict[str, str]) -> None:
    watcher = Socket(game.pk, cookies["charlie"])
    try:
        await watcher.open()
        assert await post_as(cookies["alice"], "/accounts/logout/") == 302
        assert await watcher.comm.receive_nothing(timeout=0.5)
        assert (await watcher.request({"type": "ping"}))["type"] == "pong"
    finally:
        await watcher.close()


async def test_a_login_ended_quietly_after_an_accepted_action_stops_the_next(
        game: Game, cookies: dict[str, str], alice: Any) -> None:
    """The check after a good one: the account is deactivated by a direct
    update (no signal, so no socket is told) between two seeks."""
    lobby = LobbySocket(cookies["alice"])
    try:
        await lobby.open()
        await lobby.send({"type": "seek", "time_control": "10+5"})
        while await database_sync_to_async(Seek.objects.count)() == 0:
            await lobby.receive()
        await database_sync_to_async(type(alice).objects.filter(pk=alice.pk).update)(is_active=False)
        await lobby.send({"type": "seek", "time_control": "3+2"})
        while True:
            message = await lobby.comm.receive_json_from(timeout=SECOND)
            if message["type"] == "error":
                break
        assert "signed out" in message["message"]
        assert await lobby.comm.receive_output(timeout=SECOND) == {"type": "websocket.close", "code": SIGNED_OUT}
        lobby.closed = True
        assert await database_sync_to_async(Seek.objects.count)() == 1
    finally:
        await lobby.close()


def test_the_sockets_are_told_of_a_new_password_only_once_it_is_stored(alice: Any, monkeypatch: Any) -> None:
    """Outside a transaction, as allauth changes a password: when the sockets are
    told to check, a check already reads the new hash (told earlier, a socket of
    an ended session judged the old hash good and stayed signed in)."""
    told: list[tuple[str, str]] = []
    monkeypatch.setattr(signins, "_tell", lambda user_id, message: told.append(
        (message["type"], type(alice).objects.get(pk=user_id).password)))
    alice.set_password("a-new-password-42")
    alice.save()
    assert told == [("session.check", alice.password)]
