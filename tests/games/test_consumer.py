"""The game websocket (docs/protocol.md) through aceweb.asgi.application, on PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from aceweb.asgi import application
from games.models import Game
from tests.games.conftest import Socket, load_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

Opener = Any


async def test_each_seat_gets_its_own_sync_on_connect(game: Game, cookies: dict[str, str], sockets: Opener) -> None:
    _, red = await sockets(game.pk, cookies["alice"])
    _, black = await sockets(game.pk, cookies["bob"])
    _, watcher = await sockets(game.pk)
    assert [m["type"] for m in (red, black, watcher)] == ["sync"] * 3
    assert (red["seat"], red["hand"], red["ply"]) == ("red", ["JH", "AH", "5H"], 0)
    assert (black["seat"], black["hand"], black["legal"]) == ("black", ["8S", "10C", "QC"], [])
    assert "5H e1-e6" in red["legal"]
    assert (watcher["seat"], watcher["hand"], watcher["legal"]) == (None, None, [])
    assert watcher["game"]["players"]["red"] == "alice" and watcher["game"]["seed"] is None


async def test_charlie_is_a_spectator(game: Game, cookies: dict[str, str], sockets: Opener) -> None:
    _, sync = await sockets(game.pk, cookies["charlie"])
    assert (sync["seat"], sync["hand"]) == (None, None)


async def test_a_players_watching_socket_is_a_spectators(game: Game, cookies: dict[str, str]) -> None:
    """The replay page's socket (?watch=1) shows Alice no hand and does not make her present."""
    watch = Socket(game.pk, cookies["alice"], query="?watch=1")
    try:
        sync = await watch.open()
        assert (sync["seat"], sync["hand"], sync["game"]["presence"]) == (None, None, {"red": False, "black": False})
        assert (await load_game(game.pk)).seat("red").seen_at is None
        refused = await watch.request({"type": "act", "ply": 0, "action": "5H e1-e6"})
        assert (refused["type"], refused["message"]) == ("error", "unknown message type: use sync, ping")
        assert (await watch.request({"type": "ping"}))["type"] == "pong"
        assert (await load_game(game.pk)).ply == 0
    finally:
        await watch.close()
    assert (await load_game(game.pk)).seat("red").left_at is None


async def test_a_move_reaches_both_players_and_a_spectator(
        game: Game, cookies: dict[str, str], sockets: Opener) -> None:
    red, _ = await sockets(game.pk, cookies["alice"])
    black, _ = await sockets(game.pk, cookies["bob"])
    watcher, _ = await sockets(game.pk)
    await red.send({"type": "act", "ply": 0, "action": "5H e1-e6"})
    mine, theirs, public = await red.receive(), await black.receive(), await watcher.receive()
    assert [m["type"] for m in (mine, theirs, public)] == ["update"] * 3
    assert all(m["ply"] == 1 and m["board"]["e6"] == "AH" for m in (mine, theirs, public))
    assert all(m["discards"]["red"] == ["5H e1-e6"] for m in (mine, theirs, public))
    drawn = (await load_game(game.pk)).position["hands"]["red"]
    assert mine["hand"] == drawn and mine["legal"] == []
    assert theirs["hand"] == ["8S", "10C", "QC"] and theirs["legal"]
    assert public["hand"] is None and public["hand_counts"] == {"red": 3, "black": 3}


async def test_a_stale_ply_gets_an_error_on_that_socket_only(
        game: Game, cookies: dict[str, str], sockets: Opener) -> None:
    red, _ = await sockets(game.pk, cookies["alice"])
    black, _ = await sockets(game.pk, cookies["bob"])
    await red.send({"type": "act", "ply": 0, "action": "5H e1-e6"})
    await red.receive(), await black.receive()
    error = await black.request({"type": "act", "ply": 0, "action": "8S e8-f6"})
    assert error == {"type": "error", "ply": 1, "message": "stale ply 0: the game is at ply 1; resync and try again"}
    assert await red.silent()


async def test_an_illegal_action_gets_the_engines_reason(game: Game, cookies: dict[str, str], sockets: Opener) -> None:
    red, _ = await sockets(game.pk, cookies["alice"])
    error = await red.request({"type": "act", "ply": 0, "action": "5H e1-e5"})
    assert error["type"] == "error" and error["ply"] == 0 and "(R1" in error["message"]


@pytest.mark.parametrize("frame, says", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    ('"act"', "JSON object"),
    ("{}", "unknown message type"),
    ('{"type": "castle"}', "unknown message type"),
    ('{"type": "update"}', "unknown message type"),
    ('{"type": ["act"]}', "unknown message type"),
    ('{"type": "act", "ply": "0", "action": "5H e1-e6"}', '"ply" must be an integer'),
    ('{"type": "act", "ply": true, "action": "5H e1-e6"}', '"ply" must be an integer'),
    ('{"type": "act", "ply": 0.5, "action": "5H e1-e6"}', '"ply" must be an integer'),
    ('{"type": "act", "ply": 0, "action": 7}', '"action" must be'),
    ('{"type": "act", "ply": 0}', '"action" must be'),
    ('{"type": "act", "ply": 0, "action": "' + "x" * 5000 + '"}', "too large"),
    ("[" * 3000 + "]" * 3000, "too large"),
    ("[" * 2000 + "]" * 2000, "not valid JSON"),
])
async def test_a_malformed_frame_gets_an_error_and_the_socket_keeps_working(
        game: Game, cookies: dict[str, str], sockets: Opener, frame: str, says: str) -> None:
    red, _ = await sockets(game.pk, cookies["alice"])
    await red.send_text(frame)
    error = await red.receive()
    assert error["type"] == "error" and error["ply"] == 0 and says in error["message"]
    assert await red.request({"type": "ping"}) == {"type": "pong", "ply": 0, "status": "running"}
    update = await red.request({"type": "act", "ply": 0, "action": "5H e1-e6"})
    assert update["type"] == "update" and update["ply"] == 1


async def test_a_binary_frame_gets_an_error(game: Game, cookies: dict[str, str], sockets: Opener) -> None:
    red, _ = await sockets(game.pk, cookies["alice"])
    await red.comm.send_to(bytes_data=b"\x00\x01")
    assert "text frames" in (await red.receive())["message"]
    assert (await red.request({"type": "ping"}))["type"] == "pong"


@pytest.mark.parametrize("frame", [
    {"type": "act", "ply": 0, "action": "5H e1-e6"}, {"type": "resign"}, {"type": "abort"},
])
async def test_charlie_and_anonymous_spectators_cannot_act(
        game: Game, cookies: dict[str, str], sockets: Opener, frame: dict[str, Any]) -> None:
    charlie, _ = await sockets(game.pk, cookies["charlie"])
    anonymous, _ = await sockets(game.pk)
    assert (await charlie.request(frame))["message"] == "you are not playing in this game"
    assert (await anonymous.request(frame))["message"] == "log in to play"
    assert (await load_game(game.pk)).ply == 0 and (await load_game(game.pk)).running


async def test_resigning_reaches_everyone_with_the_seed(game: Game, cookies: dict[str, str], sockets: Opener) -> None:
    red, _ = await sockets(game.pk, cookies["alice"])
    watcher, _ = await sockets(game.pk)
    await red.send({"type": "resign"})
    for message in (await red.receive(), await watcher.receive()):
        assert message["type"] == "update" and message["ply"] == 0
        assert message["game"]["status"] == "finished" and message["game"]["reason"] == "resignation"
        assert message["game"]["winner"] == "black" and message["game"]["seed"] == "tests-game-seed"
        assert message["legal"] == []


async def test_abort_over_the_socket_and_its_refusal(game: Game, cookies: dict[str, str], sockets: Opener) -> None:
    red, _ = await sockets(game.pk, cookies["alice"])
    black, _ = await sockets(game.pk, cookies["bob"])
    await red.request({"type": "act", "ply": 0, "action": "5H e1-e6"})
    update = await black.receive()
    await black.request({"type": "act", "ply": 1, "action": update["legal"][0]})
    await red.receive()
    assert "too late to abort" in (await red.request({"type": "abort"}))["message"]


async def test_a_reconnect_gets_the_current_state(game: Game, cookies: dict[str, str], sockets: Opener) -> None:
    red, _ = await sockets(game.pk, cookies["alice"])
    black, _ = await sockets(game.pk, cookies["bob"])
    await red.request({"type": "act", "ply": 0, "action": "5H e1-e6"})
    await black.receive()
    await black.close()
    gone = await red.receive()
    assert gone["game"]["presence"] == {"red": True, "black": False}
    _, sync = await sockets(game.pk, cookies["bob"])  # red is told Bob is back (checked by sockets)
    assert sync["type"] == "sync" and sync["ply"] == 1 and sync["legal"] and sync["board"]["e6"] == "AH"
    assert sync["game"]["presence"] == {"red": True, "black": True}


async def test_a_socket_to_no_game_is_told_and_closed(cookies: dict[str, str], sockets: Opener) -> None:
    sock, error = await sockets(999999, cookies["alice"])
    assert error == {"type": "error", "ply": None, "message": "there is no game 999999"}
    assert (await sock.comm.receive_output(timeout=5))["code"] == 4404


async def test_a_whole_game_over_sockets_from_each_players_own_legal_list(
        game: Game, cookies: dict[str, str], sockets: Opener) -> None:
    red, red_sync = await sockets(game.pk, cookies["alice"])
    black, black_sync = await sockets(game.pk, cookies["bob"])
    watcher, public = await sockets(game.pk)
    players, latest = {"red": red, "black": black}, {"red": red_sync, "black": black_sync}
    rng = random.Random(3)
    while public["outcome"] is None:
        mover, waiter = public["to_move"], "black" if public["to_move"] == "red" else "red"
        assert latest[mover]["legal"] and latest[waiter]["legal"] == []
        action = rng.choice(latest[mover]["legal"])
        await players[mover].send({"type": "act", "ply": public["ply"], "action": action})
        latest = {seat: await sock.receive() for seat, sock in players.items()}
        public = await watcher.receive()
        assert latest["red"]["ply"] == latest["black"]["ply"] == public["ply"]
    final = await load_game(game.pk)
    assert final.status == "finished" and final.reason == public["outcome"]["reason"]
    assert final.ply == public["ply"] and public["game"]["seed"] == "tests-game-seed"
    assert public["game"]["score"] == public["outcome"]["score"]
    assert all(m["legal"] == [] for m in latest.values())


async def test_an_idle_socket_survives_past_the_redis_read_timeout(
        game: Game, cookies: dict[str, str], sockets: Opener) -> None:
    # redis-py 8 times reads out after 5 s by default, which used to kill every
    # consumer waiting on the Redis layer (settings: socket_timeout None).
    red, _ = await sockets(game.pk, cookies["alice"])
    watcher, _ = await sockets(game.pk)
    await asyncio.sleep(6)
    await red.send({"type": "act", "ply": 0, "action": "5H e1-e6"})
    assert (await watcher.receive())["ply"] == 1 and (await red.receive())["ply"] == 1
    assert (await red.request({"type": "ping"})) == {"type": "pong", "ply": 1, "status": "running"}


async def test_flagging_over_the_socket(game: Game, cookies: dict[str, str], sockets: Opener) -> None:
    black, _ = await sockets(game.pk, cookies["bob"])
    assert (await black.request({"type": "flag"}))["message"] == "Red still has time"
    await database_sync_to_async(Game.objects.filter(pk=game.pk).update)(
        turn_started_at=timezone.now() - timedelta(minutes=11))
    update = await black.request({"type": "flag"})
    assert update["type"] == "update" and update["game"]["reason"] == "time"
    assert update["game"]["winner"] == "black" and update["game"]["clock"]["ms"]["red"] == 0


async def test_a_handshake_without_an_allowed_origin_is_refused(game: Game) -> None:
    for headers in ([(b"host", b"localhost")], [(b"host", b"localhost"), (b"origin", b"http://evil.example")]):
        comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
        connected, _ = await comm.connect(timeout=5)
        assert not connected
