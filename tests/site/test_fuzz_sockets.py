"""Malformed frames on the game and lobby sockets of a real daphne (issue 10).

Every frame a client can send gets an answer or a proper close, never a
server error: within daphne's limits each bad frame is answered with an
``error`` and the socket stays open; beyond them (not UTF-8, over 1 MiB) the
socket is closed with a code and a reason (docs/protocol.md). And nothing
changes: no game moves, no row appears.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games import starting
from games.models import Game
from ladder import challenges, seeks
from ladder.models import Challenge, PoolEntry, Seek
from tests.games.conftest import cookies, fast_password_hashing, services, session_cookie  # noqa: F401
from tests.raw_websocket import BINARY, TEXT, RawSocket, Refused
from tests.site.fuzz_inputs import frames, message, value

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

MiB = 1 << 20
FUZZ = settings(max_examples=200, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory."""
    return shared_daphne_server


def server_errors(log: str) -> list[str]:
    """Lines of daphne's log (its own ERRORs, Django's 500s) that say the server failed."""
    return [line for line in log.splitlines()
            if " ERROR " in line or "Traceback" in line or "Internal Server Error" in line]


def answer(sock: RawSocket, ply: int | None = None) -> dict[str, Any]:
    """The reply to one frame: the next ``error`` or ``pong``. Anything else on the
    way (a heartbeat, a presence update) must still be at PLY: nothing moved."""
    while True:
        message = sock.receive()
        assert message is not None, f"closed with {sock.close_code} {sock.close_reason!r}"
        if message["type"] in ("error", "pong"):
            return message
        assert ply is not None, f"the lobby changed: {message}"
        assert message.get("ply") == ply, message


def lobby_socket(base_url: str, cookie: str, logged_in: bool = True) -> RawSocket:
    """A lobby socket, past what connecting sends (the seeks, and a user's challenges)."""
    sock = RawSocket(base_url, "/ws/lobby/", cookie)
    assert sock.receive()["type"] == "seeks"  # type: ignore[index]
    if logged_in:
        assert sock.receive()["type"] == "challenges"  # type: ignore[index]
    return sock


def exchange(sock: RawSocket, frame: tuple[str, bytes], ply: int | None = None) -> list[dict[str, Any]]:
    """Send FRAME, then a ping; what came back for FRAME (its error, if any) before the pong."""
    kind, payload = frame
    sock.send_frame(TEXT if kind == "text" else BINARY, payload)
    sock.send_json({"type": "ping"})
    replies = []
    for _ in range(2 if kind == "text" and is_a_ping(payload) else 1):
        while (reply := answer(sock, ply))["type"] != "pong":
            replies.append(reply)
    return replies


def is_a_ping(payload: bytes) -> bool:
    """Whether the server will take this frame for a ping, extra fields and all."""
    try:
        content = json.loads(payload)
    except (ValueError, RecursionError):
        return False
    return len(payload) <= 4096 and isinstance(content, dict) and content.get("type") == "ping"


def state() -> tuple[Any, ...]:
    games = tuple(Game.objects.order_by("pk").values_list("pk", "ply", "status", "position"))
    return games, Seek.objects.filter(status="open").count(), Challenge.objects.filter(status="pending").count(), \
        Seek.objects.count(), Challenge.objects.count(), PoolEntry.objects.count()


def test_a_text_frame_that_is_not_utf8_is_closed_with_1007_and_a_reason(
        daphne_server: str, daphne_log: Callable[[], str], cookies: dict[str, str]) -> None:
    for path in ("/ws/lobby/", "/ws/lobby/?personal=1"):
        sock = RawSocket(daphne_server, path, cookies["alice"])
        sock.send_frame(TEXT, b'{"type":"ping","x":"\xff\xfe"}')
        while sock.receive() is not None:  # what connecting sent, then the close
            pass
        assert sock.close_code == 1007
        assert "invalid UTF-8" in sock.close_reason
        sock.close()
    assert server_errors(daphne_log()) == []


def test_a_message_over_a_mebibyte_is_closed_with_1009_and_a_reason(
        daphne_server: str, daphne_log: Callable[[], str], cookies: dict[str, str]) -> None:
    sock = RawSocket(daphne_server, "/ws/lobby/", cookies["alice"])
    sock.send_frame(TEXT, b'"' + b"x" * MiB + b'"')
    while sock.receive() is not None:
        pass
    assert sock.close_code == 1009
    assert "exceeds payload limit of 1048576" in sock.close_reason
    sock.close()
    again = lobby_socket(daphne_server, cookies["alice"])  # the server carries on
    again.send_json({"type": "ping"})
    assert answer(again) == {"type": "pong"}
    again.close()
    assert server_errors(daphne_log()) == []


def test_a_frame_that_breaks_the_framing_is_closed_with_1002(
        daphne_server: str, daphne_log: Callable[[], str], cookies: dict[str, str]) -> None:
    sock = lobby_socket(daphne_server, cookies["alice"])
    sock.send_frame(0x3, b"{}")  # a reserved opcode
    while sock.receive() is not None:
        pass
    assert sock.close_code == 1002
    sock.close()
    assert server_errors(daphne_log()) == []


def test_a_frame_up_to_a_mebibyte_is_answered_and_the_socket_stays_open(
        daphne_server: str, cookies: dict[str, str]) -> None:
    sock = lobby_socket(daphne_server, cookies["alice"])
    sock.send_frame(TEXT, b'"' + b"x" * (MiB - 2) + b'"')
    assert answer(sock) == {"type": "error", "message": "frame too large (over 4096 bytes)"}
    sock.send_json({"type": "ping"})
    assert answer(sock) == {"type": "pong"}
    sock.close()


def test_a_socket_path_that_leads_nowhere_is_refused_with_403(
        daphne_server: str, daphne_log: Callable[[], str], cookies: dict[str, str]) -> None:
    for path in ("/ws/games/abc/", "/ws/nothing/", "/ws/games/99999999999999999999999/x/", "/ws/lobby/%00/"):
        with pytest.raises(Refused) as refused:
            RawSocket(daphne_server, path, cookies["alice"])
        assert refused.value.status == 403
    assert server_errors(daphne_log()) == []


@pytest.mark.parametrize("value", ["9223372036854775808", "99999999999999999999999"])
def test_a_socket_whose_id_is_past_bigint_closes_as_for_a_missing_row(
        value: str, daphne_server: str, daphne_log: Callable[[], str], cookies: dict[str, str]) -> None:
    """Issue 35, 11: once a traceback ("bigint out of range") and a dropped socket."""
    for game_id in ("999999", value):  # a game that does not exist, then digits no game can have
        sock = RawSocket(daphne_server, f"/ws/games/{game_id}/", cookies["alice"])
        assert sock.receive() == {"type": "error", "ply": None, "message": f"there is no game {game_id}"}
        assert sock.receive() is None and sock.close_code == 4404
        sock.close()
    for tournament_id in ("999999", value):  # refused at the handshake either way
        with pytest.raises(Refused) as refused:
            RawSocket(daphne_server, f"/ws/tournaments/{tournament_id}/", cookies["alice"])
        assert refused.value.status == 403
    assert server_errors(daphne_log()) == []


def test_a_session_cookie_spelling_nul_opens_an_anonymous_socket(
        daphne_server: str, daphne_log: Callable[[], str]) -> None:
    sock = lobby_socket(daphne_server, '"abcdefghij\\000"', logged_in=False)  # Django reads \\000 as NUL
    sock.send_json({"type": "seek", "time_control": "5+3"})
    assert answer(sock) == {"type": "error", "message": "log in to create a game"}
    sock.close()
    assert server_errors(daphne_log()) == []


def test_fuzzed_frames_on_a_game_socket_change_nothing(
        daphne_server: str, daphne_log: Callable[[], str], alice: Any, bob: Any,
        cookies: dict[str, str]) -> None:
    game = starting.start_game(alice, bob)
    before = state()
    player = RawSocket(daphne_server, f"/ws/games/{game.pk}/", cookies["alice"])  # red, to move
    spectator = RawSocket(daphne_server, f"/ws/games/{game.pk}/", cookies["charlie"])
    sync = player.receive()
    assert sync is not None and spectator.receive()["type"] == "sync"  # type: ignore[index]
    # Each act is one mistake away from a legal move at the right ply.
    act = {"act": ["ply", "action"]}
    valid = {"ply": st.just(0), "action": st.sampled_from(sync["legal"])}
    stale = {"ply": value.filter(lambda v: not (type(v) is int and v == 0))}
    # The player may not resign, abort or flag (those would be her right); a
    # spectator may try everything.
    player_types: dict[str, list[str]] = dict.fromkeys(["ping", "sync", "claim", "rematch"], []) | act
    everyone_types: dict[str, list[str]] = dict.fromkeys(
        ["ping", "sync", "claim", "rematch", "resign", "abort", "flag"], []) | act

    @FUZZ
    @given(st.one_of(frames(message(player_types, valid, stale)).map(lambda f: (player, f)),
                     frames(message(everyone_types, valid, stale)).map(lambda f: (spectator, f))))
    def each(frame: tuple[RawSocket, tuple[str, bytes]]) -> None:
        sock, raw = frame
        assert all(reply["type"] == "error" for reply in exchange(sock, raw, ply=0))

    each()
    for sock in (player, spectator):
        sock.send_json({"type": "ping"})
        assert answer(sock, ply=0)["type"] == "pong"  # still open
        sock.close()
    assert state() == before
    assert server_errors(daphne_log()) == []


def test_fuzzed_frames_on_a_lobby_socket_change_nothing(
        daphne_server: str, daphne_log: Callable[[], str], alice: Any, bob: Any,
        cookies: dict[str, str]) -> None:
    # Something to accept, cancel or decline, should a refusal fail to hold.
    seek = seeks.create_seek(bob, "5+3")
    challenge = challenges.create_challenge(bob, "alice", "1d")
    before = state()
    taken = {seek.pk, challenge.pk}
    sock = lobby_socket(daphne_server, cookies["alice"])
    required = {"seek": ["time_control"], "cancel": ["seek"], "accept": ["seek"],
                "challenge": ["username", "time_control"], "accept_challenge": ["challenge"],
                "decline_challenge": ["challenge"], "cancel_challenge": ["challenge"],
                "pool_join": ["time_control"], "pool_leave": [], "ping": []}
    valid = {"time_control": st.sampled_from(["5+3", "1d", "3+2"]), "rated": st.booleans(),
             "colour": st.sampled_from(["red", "black", "random"]), "username": st.sampled_from(["bob", "charlie"]),
             "seek": st.just(seek.pk), "challenge": st.just(challenge.pk)}
    not_taken = value.filter(lambda v: not (type(v) is int and v in taken))
    bad = {"seek": not_taken, "challenge": not_taken}

    @FUZZ
    @given(frames(message(required, valid, bad)))
    # The frames issue 10 found crashing the socket (1011) are always among them.
    @example(("text", b'{"type":"challenge","username":"\\ud800","time_control":"1d"}'))
    @example(("text", b'{"type":"challenge","username":"a\\u0000b","time_control":"1d"}'))
    def each(frame: tuple[str, bytes]) -> None:
        assert all(reply["type"] == "error" for reply in exchange(sock, frame))

    each()
    sock.send_json({"type": "ping"})
    assert answer(sock) == {"type": "pong"}
    sock.close()
    assert state() == before
    assert server_errors(daphne_log()) == []
