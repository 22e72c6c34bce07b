"""A game's chat over real game sockets on daphne (issue 25): the players'
room reaches the players only; the spectators' room reaches the spectators,
and the players only once the game is over; a running team game takes presets
only (RH36); muting hides a player's lines; nothing else goes anywhere."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from chat import lines
from chat.models import Line
from games import finishing, starting
from games.starting import Setup
from tests.games.conftest import session_cookie
from tests.raw_websocket import RawSocket

pytestmark = pytest.mark.django_db(transaction=True)
NAMES = ("alice", "bob", "charlie", "dave", "erin", "frank")


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory."""
    return shared_daphne_server


@pytest.fixture
def people() -> dict[str, Any]:
    make = get_user_model().objects.create_user
    return {name: make(name, f"{name}@example.org") for name in NAMES}


@pytest.fixture
def sockets(daphne_server: str, people: dict[str, Any]) -> Iterator[Any]:
    opened: list[RawSocket] = []

    def open_for(name: str, game_id: int) -> RawSocket:
        sock = RawSocket(daphne_server, f"/ws/games/{game_id}/", session_cookie(people[name]))
        while (message := sock.receive()) is not None and message["type"] != "sync":
            pass
        opened.append(sock)
        return sock

    yield open_for
    for sock in opened:
        sock.close()


def heard(sock: RawSocket) -> tuple[str, str, str]:
    """The next chat line this socket gets: (room, author, words)."""
    while (message := sock.receive()) is not None:
        if message["type"] == "chatLine":
            return message["room"], message["line"]["user"], message["line"]["said"]
    raise AssertionError(f"the socket closed ({sock.close_code})")


def chat_until_pong(sock: RawSocket) -> list[dict[str, Any]]:
    """The chat messages this socket got before the answer to a ping sent now
    (group messages reach one daphne's sockets in order, tests/chat/test_tournament_chat.py)."""
    sock.send_json({"type": "ping"})
    got = []
    while (message := sock.receive()) is not None and message["type"] != "pong":
        got.append(message)
    return [message for message in got if message["type"].startswith("chat")]


def test_players_and_spectators_talk_apart_until_the_end(people: dict[str, Any], sockets: Any) -> None:
    game = starting.start_game(people["alice"], people["bob"], seed="chat")
    alice, bob, charlie, dave = (sockets(name, game.pk) for name in ("alice", "bob", "charlie", "dave"))
    alice.send_json({"type": "chat", "room": "player", "text": "good luck!"})
    assert heard(bob) == ("player", "alice", "good luck!")
    assert heard(alice) == ("player", "alice", "good luck!")
    assert chat_until_pong(charlie) == [] and chat_until_pong(dave) == []

    charlie.send_json({"type": "chat", "room": "spectator", "text": "red is ahead"})
    assert heard(dave) == ("spectator", "charlie", "red is ahead")
    assert heard(charlie) == ("spectator", "charlie", "red is ahead")
    assert chat_until_pong(alice) == [] and chat_until_pong(bob) == []
    alice.send_json({"type": "chat", "room": "spectator", "text": "thanks"})
    [refused] = chat_until_pong(alice)
    assert refused["type"] == "chatRefused" and "when the game is over" in refused["message"]
    charlie.send_json({"type": "chat", "room": "player", "text": "hi players"})
    assert [m["type"] for m in chat_until_pong(charlie)] == ["chatRefused"]

    finishing.resign(game.pk, people["bob"])
    while (message := alice.receive()) is not None and message.get("game", {}).get("status") != "finished":
        pass
    alice.send_json({"type": "chat", "room": "spectator", "text": "thanks for watching"})
    assert heard(charlie) == ("spectator", "alice", "thanks for watching")
    assert heard(alice) == ("spectator", "alice", "thanks for watching")
    assert sorted(Line.objects.values_list("room", "text")) == [
        (f"game:{game.pk}", "good luck!"), (f"game:{game.pk}/w", "red is ahead"),
        (f"game:{game.pk}/w", "thanks for watching")]


def test_a_running_team_game_takes_presets_only(people: dict[str, Any], sockets: Any) -> None:
    four = [people[name] for name in ("alice", "bob", "charlie", "dave")]
    game = starting.start_game(*four, seed="chat-teams", setup=Setup("rhombus"))
    seated = [sockets(name, game.pk) for name in ("alice", "bob", "charlie", "dave")]
    erin = sockets("erin", game.pk)
    seated[0].send_json({"type": "chat", "room": "player", "text": "I hold the jack of hearts"})
    [refused] = chat_until_pong(seated[0])
    assert refused["code"] == "presets-only" and "RH36" in refused["message"]
    seated[0].send_json({"type": "chat", "room": "player", "preset": "goodluck"})
    for sock in seated:
        assert heard(sock) == ("player", "alice", "Good luck")
    assert chat_until_pong(erin) == []
    assert list(Line.objects.values_list("text", "preset")) == [("", "goodluck")]


def test_a_muted_players_lines_do_not_reach_the_muter(people: dict[str, Any], sockets: Any) -> None:
    lines.mute(people["bob"], people["alice"])
    game = starting.start_game(people["alice"], people["bob"], seed="chat-mute")
    alice, bob = sockets("alice", game.pk), sockets("bob", game.pk)
    alice.send_json({"type": "chat", "room": "player", "text": "you will lose"})
    assert heard(alice) == ("player", "alice", "you will lose")
    assert chat_until_pong(bob) == []


def test_a_bad_room_is_answered(people: dict[str, Any], sockets: Any) -> None:
    game = starting.start_game(people["alice"], people["bob"], seed="chat-bad")
    alice = sockets("alice", game.pk)
    alice.send_json({"type": "chat", "room": "partner", "text": "psst"})
    alice.send_json({"type": "ping"})
    while (message := alice.receive()) is not None and message["type"] != "error":
        assert message["type"] != "pong"
    assert '"room" must be "player" or "spectator"' in message["message"]  # type: ignore[index]
    assert not Line.objects.exists()


def test_a_removed_line_is_shown_removed_on_open_pages(people: dict[str, Any], sockets: Any) -> None:
    game = starting.start_game(people["alice"], people["bob"], seed="chat-removed")
    alice, bob = sockets("alice", game.pk), sockets("bob", game.pk)
    alice.send_json({"type": "chat", "room": "player", "text": "something rude"})
    assert heard(bob) == ("player", "alice", "something rude")
    line = Line.objects.get()
    lines.remove([line.pk])
    while (message := bob.receive()) is not None and message["type"] != "chatLine":
        pass
    assert message is not None and message["line"]["id"] == line.pk
    assert (message["line"]["removed"], message["line"]["text"], message["line"]["said"]) == (
        True, "", "removed by a moderator")


def test_german_and_russian_insults_each_lead_to_an_automatic_report(people: dict[str, Any], sockets: Any) -> None:
    from moderation.models import Report

    game = starting.start_game(people["alice"], people["bob"], seed="chat-abuse")
    alice, bob = sockets("alice", game.pk), sockets("bob", game.pk)
    for text in ("Du Idiot", "du Depp", "Vollidiot!"):
        alice.send_json({"type": "chat", "room": "player", "text": text})
        assert heard(bob)[2] == text
    bob.send_json({"type": "chat", "room": "player", "text": "сам ты пидор"})
    assert [heard(alice)[2] for _ in range(4)][-1] == "сам ты пидор"  # her own three first
    reports = {report.reported.username: report for report in Report.objects.select_related("reported")}
    assert set(reports) == {"alice", "bob"}
    assert all(report.reporter is None and report.reason == Report.Reason.ABUSE for report in reports.values())
    assert "Vollidiot!" in reports["alice"].text and "пидор" in reports["bob"].text


def test_flood_and_length_are_refused_to_the_sender_only(people: dict[str, Any], sockets: Any) -> None:
    game = starting.start_game(people["alice"], people["bob"], seed="chat-flood")
    alice, bob = sockets("alice", game.pk), sockets("bob", game.pk)
    alice.send_json({"type": "chat", "room": "player", "text": "x" * 141})
    [too_long] = chat_until_pong(alice)
    assert (too_long["type"], too_long["code"]) == ("chatRefused", "too-long")
    for text in ("one", "two words", "three little words", "four is more", "five alive"):
        alice.send_json({"type": "chat", "room": "player", "text": text})
        assert heard(bob)[2] == text
    alice.send_json({"type": "chat", "room": "player", "text": "six is too many"})
    refused = [m for m in chat_until_pong(alice) if m["type"] == "chatRefused"]
    assert [m["code"] for m in refused] == ["flood"]
    assert chat_until_pong(bob) == []  # the room never heard it
    assert Line.objects.count() == 5
