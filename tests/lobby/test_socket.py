"""The lobby websocket (docs/protocol.md, "The lobby socket") through aceweb.asgi, on PostgreSQL and Redis."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import Game
from ladder import challenges, seeks
from ladder.models import Seek
from tests.lobby.conftest import LobbySocket, Opener
from tests.seats import seated

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

create_seek = database_sync_to_async(seeks.create_seek)
expire_challenges = database_sync_to_async(challenges.expire_challenges)
seek_count = database_sync_to_async(lambda: Seek.objects.filter(status="open").count())
only_game = database_sync_to_async(lambda: seated(Game.objects.get()))


async def test_anyone_gets_the_open_seeks_on_connect(alice: Any, lobby_sockets: Opener) -> None:
    await create_seek(alice, "5+3", rated=False, colour="red")
    _, hello = await lobby_sockets()
    assert hello["type"] == "seeks"
    [seek] = hello["seeks"]
    assert (seek["creator"], seek["rating"], seek["rated"], seek["colour"], seek["mine"]) == (
        "alice", "1500?", False, "red", False)
    assert seek["time_control"] == {"key": "5+3", "label": "5+3", "speed": "blitz"}


async def test_a_logged_in_user_also_gets_their_challenges(
        alice: Any, bob: Any, cookies: dict[str, str], lobby_sockets: Opener) -> None:
    await database_sync_to_async(challenges.create_challenge)(alice, "bob", "10+5")
    sock, _ = await lobby_sockets(cookies["bob"])
    theirs = sock.challenges  # type: ignore[attr-defined]
    assert theirs["type"] == "challenges"
    assert [(c["challenger"], c["direction"]) for c in theirs["challenges"]] == [("alice", "incoming")]


async def test_a_new_seek_appears_live_on_every_socket(
        cookies: dict[str, str], lobby_sockets: Opener) -> None:
    alice, _ = await lobby_sockets(cookies["alice"])
    bob, _ = await lobby_sockets(cookies["bob"])
    watcher, first = await lobby_sockets()
    assert first["seeks"] == []
    await alice.send({"type": "seek", "time_control": "5+3", "rated": True, "colour": "random"})
    mine, theirs, public = await alice.receive(), await bob.receive(), await watcher.receive()
    assert [m["type"] for m in (mine, theirs, public)] == ["seeks"] * 3
    assert [s["creator"] for s in public["seeks"]] == ["alice"]
    assert (mine["seeks"][0]["mine"], theirs["seeks"][0]["mine"]) == (True, False)


async def test_a_cancelled_seek_disappears_live(cookies: dict[str, str], lobby_sockets: Opener) -> None:
    alice, _ = await lobby_sockets(cookies["alice"])
    watcher, _ = await lobby_sockets()
    await alice.send({"type": "seek", "time_control": "1d"})
    seek_id = (await watcher.receive())["seeks"][0]["id"]
    await alice.receive()
    await alice.send({"type": "cancel", "seek": seek_id})
    assert (await watcher.receive())["seeks"] == []


async def test_accepting_sends_both_players_to_the_new_game(
        cookies: dict[str, str], lobby_sockets: Opener) -> None:
    alice, _ = await lobby_sockets(cookies["alice"])
    bob, _ = await lobby_sockets(cookies["bob"])
    charlie, _ = await lobby_sockets(cookies["charlie"])
    await alice.send({"type": "seek", "time_control": "5+3", "colour": "red"})
    seek_id = (await bob.receive())["seeks"][0]["id"]
    await bob.send({"type": "accept", "seek": seek_id})
    started_a, started_b = await alice.receive_type("game_started"), await bob.receive_type("game_started")
    game = await only_game()
    assert started_a == started_b == {"type": "game_started", "game": game.pk, "url": f"/games/{game.pk}/"}
    assert (game.seat("red").user.username, game.seat("black").user.username, game.time_control.key) == ("alice", "bob", "5+3")
    assert await seek_count() == 0
    seen_by_charlie = await drain(charlie)
    assert seen_by_charlie[-1] == {"type": "seeks", "seeks": []}  # the accepted seek left the list
    assert all(m["type"] != "game_started" for m in seen_by_charlie)


async def drain(sock: LobbySocket) -> list[dict[str, Any]]:
    """Whatever the socket still has queued (charlie's list refreshes), until it falls silent."""
    messages = []
    while not await sock.silent():
        messages.append(await sock.receive())
    return messages


async def test_a_challenge_reaches_the_challenged_player_live(cookies: dict[str, str],
                                                              lobby_sockets: Opener) -> None:
    alice, _ = await lobby_sockets(cookies["alice"])
    bob, _ = await lobby_sockets(cookies["bob"])
    charlie, _ = await lobby_sockets(cookies["charlie"])
    await alice.send({"type": "challenge", "username": "bob", "time_control": "3+2", "rated": False,
                      "colour": "black"})
    incoming, outgoing = await bob.receive(), await alice.receive()
    assert incoming["type"] == outgoing["type"] == "challenge"
    c = incoming["challenge"]
    assert (c["challenger"], c["challenged"], c["direction"], c["status"], c["rated"], c["colour"]) == (
        "alice", "bob", "incoming", "pending", False, "black")
    assert outgoing["challenge"]["direction"] == "outgoing"
    assert await charlie.silent()  # nobody else hears of it

    await bob.send({"type": "accept_challenge", "challenge": c["id"]})
    for sock in (alice, bob):
        got = await sock.receive_type("game_started")
        game = await only_game()
        assert got["url"] == f"/games/{game.pk}/"
    assert (game.seat("red").user.username, game.seat("black").user.username, game.rated) == ("bob", "alice", False)


async def test_the_challenger_sees_a_decline_live(cookies: dict[str, str], lobby_sockets: Opener) -> None:
    alice, _ = await lobby_sockets(cookies["alice"])
    bob, _ = await lobby_sockets(cookies["bob"])
    await alice.send({"type": "challenge", "username": "bob", "time_control": "5+3"})
    challenge_id = (await bob.receive())["challenge"]["id"]
    await alice.receive()
    await bob.send({"type": "decline_challenge", "challenge": challenge_id})
    seen = (await alice.receive())["challenge"]
    assert (seen["id"], seen["status"], seen["direction"]) == (challenge_id, "declined", "outgoing")


async def test_both_players_see_a_challenge_expire(alice: Any, bob: Any, cookies: dict[str, str],
                                                   lobby_sockets: Opener) -> None:
    challenge = await database_sync_to_async(challenges.create_challenge)(alice, "bob", "5+3")
    a, _ = await lobby_sockets(cookies["alice"])
    b, _ = await lobby_sockets(cookies["bob"])
    assert await expire_challenges(timezone.now() + timedelta(minutes=11)) == 1
    for sock in (a, b):
        seen = (await sock.receive())["challenge"]
        assert (seen["id"], seen["status"]) == (challenge.pk, "expired")


async def test_an_anonymous_watcher_cannot_act(alice: Any, lobby_sockets: Opener) -> None:
    seek = await create_seek(alice, "5+3")
    watcher, _ = await lobby_sockets()
    for frame in ({"type": "seek", "time_control": "5+3"}, {"type": "accept", "seek": seek.pk},
                  {"type": "challenge", "username": "alice", "time_control": "5+3"}):
        reply = await watcher.request(frame)
        assert reply["type"] == "error" and reply["message"].startswith("log in to")
    assert await seek_count() == 1 and not await database_sync_to_async(Game.objects.exists)()


@pytest.mark.parametrize("frame, message", [
    ("not json", "not valid JSON"),
    ("[1, 2]", 'a message is a JSON object with a "type"'),
    ('{"type": "dance"}', "unknown message type: use seek, cancel, accept"),
    ('{"time_control": "5+3"}', "unknown message type"),
    ('{"type": "seek", "time_control": "2+1"}', "not an offered time control"),
    ('{"type": "seek", "time_control": "5+3", "rated": "yes"}', '"rated" must be true or false'),
    ('{"type": "accept", "seek": "one"}', '"seek" must be a seek id'),
    ('{"type": "accept", "seek": 424242}', "there is no seek 424242"),
    ('{"type": "challenge", "username": "alice", "time_control": "5+3"}', "cannot challenge yourself"),
    ('{"type": "accept_challenge", "challenge": 7}', "there is no challenge 7"),
    ("x" * 5000, "frame too large"),
])
async def test_bad_frames_get_an_error_and_the_socket_stays_open(
        cookies: dict[str, str], lobby_sockets: Opener, frame: str, message: str) -> None:
    alice, _ = await lobby_sockets(cookies["alice"])
    other, _ = await lobby_sockets(cookies["bob"])
    await alice.send_text(frame)
    reply = await alice.receive()
    assert reply["type"] == "error" and message in reply["message"]
    assert await other.silent()  # errors go to the sender only
    assert await alice.request({"type": "ping"}) == {"type": "pong"}


async def test_accepting_your_own_seek_is_refused_on_the_socket(cookies: dict[str, str],
                                                                lobby_sockets: Opener) -> None:
    alice, _ = await lobby_sockets(cookies["alice"])
    await alice.send({"type": "seek", "time_control": "5+3"})
    seek_id = (await alice.receive())["seeks"][0]["id"]
    reply = await alice.request({"type": "accept", "seek": seek_id})
    assert reply == {"type": "error", "message": "that is your own seek: wait for someone to accept it"}
    assert await seek_count() == 1


async def test_a_foreign_origin_is_rejected(alice: Any) -> None:
    from channels.testing import WebsocketCommunicator
    from aceweb.asgi import application
    comm = WebsocketCommunicator(application, "/ws/lobby/",
                                 headers=[(b"host", b"localhost"), (b"origin", b"http://evil.example")])
    connected, _ = await comm.connect(timeout=5)
    assert not connected
