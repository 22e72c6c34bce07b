"""A 4-player seek over the lobby socket (issue 13): every socket sees the
seats fill, and the fourth join sends all four players to the game."""

from __future__ import annotations


import pytest
from channels.db import database_sync_to_async

from games.models import Game
from tests.lobby.conftest import Opener

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


@database_sync_to_async
def only_game() -> Game:
    return Game.objects.get()


@database_sync_to_async
def seated(game: Game) -> list[str]:
    return [seat.user.username for seat in game.seats.select_related("user").order_by("number")]


async def test_a_four_player_seek_fills_live_and_sends_all_four_to_the_game(
        cookies: dict[str, str], dave_cookie: str, lobby_sockets: Opener) -> None:
    names = ("alice", "bob", "charlie", "dave")
    socks = [(await lobby_sockets({**cookies, "dave": dave_cookie}[name]))[0] for name in names]
    watcher, _ = await lobby_sockets()  # anyone may watch the seats fill
    await socks[0].send({"type": "seek", "rules": "rhombus", "time_control": "5+3", "players": 4})
    [seek] = (await watcher.receive_type("seeks"))["seeks"]
    assert (seek["players"], seek["joined"], seek["held"]) == (4, ["alice"], False)
    for count, sock in enumerate(socks[1:3], start=2):
        await sock.send({"type": "join", "seek": seek["id"]})
        [shown] = (await watcher.receive_type("seeks"))["seeks"]
        assert shown["joined"] == list(names[:count])
    mine = {"joined": []}
    while mine["joined"] != list(names[:3]):  # bob's own view of it, once charlie sat down
        [mine] = (await socks[1].receive_type("seeks"))["seeks"]
    assert (mine["joined_me"], mine["mine"]) == (True, False)

    await socks[3].send({"type": "join", "seek": seek["id"]})
    started = [await sock.receive_type("game_started") for sock in socks]
    game = await only_game()
    assert all(message["game"] == game.pk and message["url"] == f"/games/{game.pk}/" for message in started)
    assert sorted(await seated(game)) == sorted(names)
    seen = []
    while not await watcher.silent():
        seen.append(await watcher.receive())
    assert seen[-1] == {"type": "seeks", "seeks": []}  # the full seek left the list
    assert all(message["type"] != "game_started" for message in seen)  # watchers stay in the lobby


async def test_refusals_reach_the_socket_as_errors(cookies: dict[str, str], lobby_sockets: Opener) -> None:
    alice, _ = await lobby_sockets(cookies["alice"])
    await alice.send({"type": "seek", "time_control": "5+3", "players": 4})
    error = await alice.receive_type("error")
    assert error["message"] == "Ace in the Hole is played by 2 players, not 4"
    await alice.send({"type": "seek", "rules": "rhombus", "time_control": "5+3", "players": 4})
    [seek] = (await alice.receive_type("seeks"))["seeks"]
    await alice.send({"type": "join", "seek": seek["id"]})
    assert "your own seek" in (await alice.receive_type("error"))["message"]


# --- A 4-player challenge over the socket ------------------------------------------


async def test_a_four_player_challenge_reaches_all_three_and_the_third_accept_starts_it(
        cookies: dict[str, str], dave_cookie: str, lobby_sockets: Opener) -> None:
    names = ("alice", "bob", "charlie", "dave")
    socks = [(await lobby_sockets({**cookies, "dave": dave_cookie}[name]))[0] for name in names]
    await socks[0].send({"type": "challenge", "players": 4, "partner": "bob", "opponents": ["charlie", "dave"],
                         "rules": "rhombus", "time_control": "5+3", "colour": "red"})
    shown = [(await sock.receive_type("challenge"))["challenge"] for sock in socks]
    assert [c["direction"] for c in shown] == ["outgoing", "incoming", "incoming", "incoming"]
    assert all((c["players"], c["partner"], c["opponents"]) == (4, "bob", ["charlie", "dave"]) for c in shown)
    challenge = shown[0]["id"]

    await socks[2].send({"type": "accept_challenge", "challenge": challenge})
    after = [(await sock.receive_type("challenge"))["challenge"] for sock in socks]
    assert all(c["accepted"] == ["charlie"] and c["status"] == "pending" for c in after)
    assert [c["answered"] for c in after] == [False, False, True, False]
    await socks[2].send({"type": "accept_challenge", "challenge": challenge})
    assert (await socks[2].receive_type("error"))["message"] == (
        "you have already accepted that challenge: wait for the others")

    await socks[1].send({"type": "accept_challenge", "challenge": challenge})
    await socks[3].send({"type": "accept_challenge", "challenge": challenge})
    started = [await sock.receive_type("game_started") for sock in socks]
    game = await only_game()
    assert all(message["game"] == game.pk for message in started)
    assert await seated(game) == ["alice", "charlie", "bob", "dave"]  # SW, SE, NE, NW: red is alice's team


async def test_a_four_player_challenge_refused_over_the_socket_stores_nothing(
        cookies: dict[str, str], lobby_sockets: Opener) -> None:
    sock, _ = await lobby_sockets(cookies["alice"])
    await sock.send({"type": "challenge", "players": 4, "partner": "bob", "opponents": ["charlie", "bob"],
                     "rules": "rhombus", "time_control": "5+3"})
    assert (await sock.receive_type("error"))["message"] == "name three different players: a partner and two opponents"
    await sock.send({"type": "challenge", "players": 4, "partner": "bob", "opponents": ["charlie", "alice"],
                     "time_control": "5+3"})  # no rules: Ace in the Hole
    assert (await sock.receive_type("error"))["message"] == "Ace in the Hole is played by 2 players, not 4"
    assert await sock.silent()
