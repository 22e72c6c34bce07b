"""A tournament's chat over real sockets (issue 25): entrants and the organizer
write, everyone reads; a refusal reaches its sender only; muting hides a
player's lines; the organizer's switch (players only, announcements, off) is
followed at once; presets reach each reader in their own language."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from chat import lines
from chat.models import Line
from tournaments import chat, entering, organizing
from tournaments.models import Entry, Tournament
from preferences.models import Preference
from tests.games.conftest import session_cookie
from tests.helpers import staff_group
from tests.raw_websocket import RawSocket

pytestmark = pytest.mark.django_db(transaction=True)
ChatFor = Tournament.ChatFor


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory."""
    return shared_daphne_server


@pytest.fixture
def cup() -> Tournament:
    """olga organizes it; alice and bob entered; charlie only watches."""
    make = get_user_model().objects.create_user
    olga = make("olga", "olga@example.org")
    olga.groups.add(staff_group("Organizers"))
    alice, bob = make("alice", "a@example.org"), make("bob", "b@example.org")
    make("charlie", "c@example.org")
    cup = Tournament.objects.create(name="Chat Cup", organizer=olga, time_control="5+3",
                                    starts_at=timezone.now() + timedelta(hours=1))
    for player in (alice, bob):
        entering.join(cup.pk, player)
    return cup


def user(name: str) -> Any:
    return get_user_model().objects.get(username=name)


@pytest.fixture
def sockets(daphne_server: str, cup: Tournament) -> Iterator[Any]:
    opened: list[RawSocket] = []

    def open_for(name: str) -> RawSocket:
        sock = RawSocket(daphne_server, f"/ws/tournaments/{cup.pk}/", session_cookie(user(name)))
        assert sock.receive()["type"] == "version"  # type: ignore[index]
        opened.append(sock)
        return sock

    yield open_for
    for sock in opened:
        sock.close()


def heard(sock: RawSocket) -> tuple[str, str]:
    """The next chat line this socket gets, as (author, words)."""
    while (message := sock.receive()) is not None:
        if message["type"] == "chatLine":
            return message["line"]["user"], message["line"]["said"]
    raise AssertionError(f"the socket closed ({sock.close_code})")


def until_pong(sock: RawSocket) -> list[dict[str, Any]]:
    """Everything this socket got before the answer to a ping sent now. Group
    messages reach a daphne process's sockets in order through one queue, so
    once another socket has heard a line, a socket that gets nothing before its
    pong was not sent that line."""
    sock.send_json({"type": "ping"})
    got = []
    while (message := sock.receive()) is not None and message["type"] != "pong":
        got.append(message)
    return got


def said(messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(m["line"]["user"], m["line"]["said"]) for m in messages if m["type"] == "chatLine"]


def test_entrants_write_and_everyone_reads(cup: Tournament, sockets: Any) -> None:
    alice, bob, charlie = sockets("alice"), sockets("bob"), sockets("charlie")
    alice.send_json({"type": "chat", "room": "tournament", "text": "good luck, everyone"})
    for sock in (alice, bob, charlie):
        assert heard(sock) == ("alice", "good luck, everyone")
    charlie.send_json({"type": "chat", "text": "may I play too?"})
    [refusal] = until_pong(charlie)
    assert (refusal["type"], refusal["code"]) == ("chatRefused", "room")
    assert "players write here" in refusal["message"]
    assert until_pong(alice) == [] and until_pong(bob) == []  # the room never heard it
    assert list(Line.objects.values_list("text", flat=True)) == ["good luck, everyone"]


def test_a_muted_players_lines_do_not_reach_the_muter(cup: Tournament, sockets: Any) -> None:
    lines.mute(user("bob"), user("alice"))
    alice, bob, charlie = sockets("alice"), sockets("bob"), sockets("charlie")
    alice.send_json({"type": "chat", "text": "bob plays badly"})
    assert heard(charlie) == ("alice", "bob plays badly")
    assert said(until_pong(bob)) == []


def test_the_organizers_switch_is_followed_at_once(cup: Tournament, sockets: Any) -> None:
    alice, olga, charlie = sockets("alice"), sockets("olga"), sockets("charlie")
    organizing.set_chat_for(cup.pk, user("olga"), ChatFor.ORGANIZER)
    alice.send_json({"type": "chat", "text": "why so quiet?"})
    refused = [m for m in until_pong(alice) if m["type"] == "chatRefused"]
    assert len(refused) == 1 and "announcements" in refused[0]["message"]
    olga.send_json({"type": "chat", "text": "Round 2 starts at 18:00"})
    assert heard(charlie) == ("olga", "Round 2 starts at 18:00")
    organizing.set_chat_for(cup.pk, user("olga"), ChatFor.PLAYERS)
    olga.send_json({"type": "chat", "text": "one more thing"})
    assert "players write here" in [m for m in until_pong(olga) if m["type"] == "chatRefused"][0]["message"]
    organizing.set_chat_for(cup.pk, user("olga"), ChatFor.OFF)
    alice.send_json({"type": "chat", "text": "hello?"})
    assert "switched this tournament's chat off" in [
        m for m in until_pong(alice) if m["type"] == "chatRefused"][0]["message"]
    assert chat.lines_for(Tournament.objects.get(pk=cup.pk), user("charlie")) == []


def test_a_preset_reaches_each_reader_in_their_language(cup: Tournament, sockets: Any) -> None:
    Preference.objects.create(user=user("charlie"), language="ru")
    Preference.objects.create(user=user("bob"), language="de")
    alice, bob, charlie = sockets("alice"), sockets("bob"), sockets("charlie")
    alice.send_json({"type": "chat", "preset": "goodluck"})
    assert [heard(alice), heard(bob), heard(charlie)] == [
        ("alice", "Good luck"), ("alice", "Viel Glück"), ("alice", "Удачи")]


def test_a_withdrawn_player_no_longer_writes(cup: Tournament, sockets: Any) -> None:
    Entry.objects.filter(user=user("bob")).update(withdrawn_at=timezone.now())
    bob = sockets("bob")
    bob.send_json({"type": "chat", "text": "bye all"})
    assert [m["type"] for m in until_pong(bob)] == ["chatRefused"]


def test_a_bad_chat_frame_is_answered(cup: Tournament, sockets: Any) -> None:
    alice = sockets("alice")
    alice.send_json({"type": "chat", "text": ["not", "a", "string"]})
    [error] = until_pong(alice)
    assert error["type"] == "error" and '"text" or a "preset"' in error["message"]
