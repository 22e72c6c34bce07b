"""Over real sockets and streams on daphne (issue 35): a player of a running team
game is refused on every socket that offers a chat (another game's spectators'
room, a tournament's), and nobody hears the line; and a mute or an unmute reaches
the muter's sockets and API streams that were open before it.

alice (SW) and charlie (NE) are partners against bob (SE) and dave (NW); erin and
frank play a game of their own that the others watch.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from chat.models import Line
from games import finishing, starting
from games.models import Game
from games.starting import Setup
from api import tokens
from tournaments import entering
from tournaments.models import Tournament
from tests.api.streams import StreamReader
from tests.chat.test_game_chat import chat_until_pong, heard
from tests.games.conftest import services, session_cookie  # noqa: F401
from tests.helpers import staff_group
from tests.raw_websocket import RawSocket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]
NAMES = ("alice", "bob", "charlie", "dave", "erin", "frank", "olga")


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory."""
    return shared_daphne_server


@pytest.fixture
def people() -> dict[str, Any]:
    make = get_user_model().objects.create_user
    return {name: make(name, f"{name}@example.org") for name in NAMES}


@pytest.fixture
def team(people: dict[str, Any]) -> Game:
    return starting.start_game(*(people[name] for name in ("alice", "bob", "charlie", "dave")), setup=Setup("rhombus"),
                               seed="team")


@pytest.fixture
def sockets(daphne_server: str, people: dict[str, Any]) -> Iterator[Any]:
    opened: list[RawSocket] = []

    def open_for(name: str, path: str, first: str) -> RawSocket:
        sock = RawSocket(daphne_server, path, session_cookie(people[name]))
        while (message := sock.receive()) is not None and message["type"] != first:
            pass
        opened.append(sock)
        return sock

    yield open_for
    for sock in opened:
        sock.close()


def refused(sock: RawSocket) -> dict[str, Any]:
    """The one chat message a socket got before its pong: a refusal."""
    [refusal] = chat_until_pong(sock)
    assert refusal["type"] == "chatRefused"
    return refusal


def test_another_games_spectators_room_refuses_a_seated_player_and_nobody_hears(
        team: Game, people: dict[str, Any], sockets: Any) -> None:
    other = starting.start_game(people["erin"], people["frank"], seed="other")
    alice, charlie = (sockets(name, f"/ws/games/{other.pk}/", "sync") for name in ("alice", "charlie"))
    alice.send_json({"type": "chat", "room": "spectator", "text": "partner: I hold 10C"})
    refusal = refused(alice)
    assert refusal["code"] == "team-game" and "RH36" in refusal["message"]
    assert chat_until_pong(charlie) == []
    assert not Line.objects.exists()
    finishing.resign(team.pk, people["bob"])
    alice.send_json({"type": "chat", "room": "spectator", "text": "well played, everyone"})
    assert heard(charlie) == ("spectator", "alice", "well played, everyone")


def test_a_tournaments_socket_refuses_a_seated_player(team: Game, people: dict[str, Any], sockets: Any) -> None:
    people["olga"].groups.add(staff_group("Organizers"))
    cup = Tournament.objects.create(name="Cup", organizer=people["olga"], time_control="5+3",
                                    starts_at=timezone.now() + timedelta(hours=1))
    for name in ("alice", "charlie"):
        entering.join(cup.pk, people[name])
    alice, charlie = (sockets(name, f"/ws/tournaments/{cup.pk}/", "version") for name in ("alice", "charlie"))
    alice.send_json({"type": "chat", "text": "partner: I hold 10C"})
    assert "RH36" in refused(alice)["message"]
    assert chat_until_pong(charlie) == []
    assert not Line.objects.exists()


# --- Mutes reach open pages ------------------------------------------------------


def mute(muter: Any, name: str, *, on: bool = True) -> None:
    """As the profile's button does it."""
    client = Client()
    client.force_login(muter)
    response = client.post(f"/chat/mute/{name}/", {} if on else {"mute": "off"})
    assert response.status_code == 302


def test_a_mute_reaches_a_game_socket_opened_before_it(people: dict[str, Any], sockets: Any) -> None:
    game = starting.start_game(people["alice"], people["bob"], seed="mute")
    alice, bob = (sockets(name, f"/ws/games/{game.pk}/", "sync") for name in ("alice", "bob"))
    alice.send_json({"type": "chat", "room": "player", "text": "hello bob"})
    assert heard(bob) == heard(alice) == ("player", "alice", "hello bob")  # bob's socket has read its mutes: none
    mute(people["bob"], "alice")
    alice.send_json({"type": "chat", "room": "player", "text": "you will lose"})
    assert heard(alice) == ("player", "alice", "you will lose")
    assert chat_until_pong(bob) == []
    bob.send_json({"type": "chat", "room": "player", "text": "still here"})
    assert heard(bob) == ("player", "bob", "still here")  # the socket is open, and only the muted went


def test_an_unmute_reaches_an_api_stream_opened_before_it(people: dict[str, Any], sockets: Any,
                                                          daphne_server: str) -> None:
    game = starting.start_game(people["alice"], people["bob"], seed="unmute")
    mute(people["bob"], "alice")
    token = tokens.make(people["bob"], "stream", ["play"])[1]
    stream = StreamReader(f"{daphne_server}/api/stream/game/{game.pk}", token).wait_listening()
    try:
        alice, bob = (sockets(name, f"/ws/games/{game.pk}/", "sync") for name in ("alice", "bob"))
        alice.send_json({"type": "chat", "room": "player", "text": "muted words"})
        bob.send_json({"type": "chat", "room": "player", "text": "anyone there?"})
        line = stream.until(lambda line: line["type"] == "chatLine")  # the stream has read bob's mutes
        assert (line["username"], line["text"]) == ("bob", "anyone there?")
        mute(people["bob"], "alice", on=False)
        alice.send_json({"type": "chat", "room": "player", "text": "heard again"})
        line = stream.until(lambda line: line["type"] == "chatLine")
        assert (line["username"], line["text"]) == ("alice", "heard again")
    finally:
        stream.close()
