"""The API's NDJSON streams over real daphne, PostgreSQL and Redis: a seat's
view after every change, ending with the game; keep-alive lines; the
account's events (challenges, game starts and ends, tournament rounds); and
the seat kept present while its stream is open (api/streams.py)."""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
import requests
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games import finishing, starting
from games.models import Seat
from ladder import challenges
from api import tokens
from tournaments import entering, organizing
from tournaments.models import Tournament
from tests.api.streams import StreamReader
from tests.games.conftest import services  # noqa: F401
from tests.tournaments.conftest import organizer  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


@pytest.fixture
def server(api_server: Callable[..., str]) -> str:
    """daphne with keep-alive lines every half second."""
    return api_server(API_STREAM_KEEPALIVE="0.5")


@pytest.fixture
def stream(server: str) -> Iterator[Callable[[str, str], StreamReader]]:
    opened: list[StreamReader] = []

    def open_stream(path: str, token: str) -> StreamReader:
        reader = StreamReader(server + path, token)
        opened.append(reader)
        return reader

    yield open_stream
    for reader in opened:
        reader.close()


def token(user: Any, *scopes: str) -> str:
    return tokens.make(user, "test", list(scopes))[1]


def post(server: str, path: str, token_: str, body: dict[str, Any] | None = None) -> requests.Response:
    return requests.post(server + path, json=body or {}, headers={"Authorization": f"Bearer {token_}"}, timeout=10)


def test_a_seat_stream_shows_each_change_and_ends_with_the_game(
        server: str, stream: Callable[..., StreamReader], alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed="stream-seed")
    alice_token, bob_token = token(alice, "play"), token(bob, "play")
    red, black = stream(f"/api/stream/game/{game.pk}", alice_token), stream(f"/api/stream/game/{game.pk}", bob_token)
    assert red.status == 200 and red.response.headers["Content-Type"] == "application/x-ndjson"
    first = red.next()
    assert first is not None and first["type"] == "sync" and first["seat"] == "red" and first["ply"] == 0
    assert black.next()["seat"] == "black"  # type: ignore[index]
    action = first["legal"][0]
    moved = post(server, f"/api/games/{game.pk}/actions", alice_token, {"ply": 0, "action": action})
    assert moved.status_code == 200 and moved.json()["ply"] == 1
    for reader in (red, black):
        update = reader.until(lambda line: line["ply"] == 1)
        assert update["type"] == "update" and update["discards"]["red"][-1] == action
    assert post(server, f"/api/games/{game.pk}/resign", bob_token).status_code == 200
    for reader in (red, black):
        last = reader.until(lambda line: line["game"]["status"] != "running")
        assert last["game"]["winner"] == "red" and last["game"]["seed"] == "stream-seed"  # public once over (R19)
        assert reader.next() is None  # and the stream has ended


def test_a_quiet_stream_sends_keep_alive_lines(
        stream: Callable[..., StreamReader], alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob)
    reader = stream(f"/api/stream/game/{game.pk}", token(alice, "play"))
    reader.next()
    with pytest.raises(queue.Empty):  # nothing happens in the game: no JSON line for 2 s
        reader.next(timeout=2)
    assert reader.keepalives >= 3  # the first line, then one each half second
    assert all(line == b"" or line.startswith(b"{") for line in reader.raw)


def test_an_open_stream_keeps_its_seat_present_and_closing_it_leaves(
        stream: Callable[..., StreamReader], alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob)
    reader = stream(f"/api/stream/game/{game.pk}", token(alice, "play"))
    assert reader.next()["game"]["presence"]["red"] is True  # type: ignore[index]
    seat = Seat.objects.get(game=game, user=alice)
    assert seat.present(timezone.now())
    reader.close()
    deadline = timezone.now() + timedelta(seconds=10)
    while Seat.objects.get(pk=seat.pk).left_at is None:
        assert timezone.now() < deadline, "closing the stream did not mark the seat as left"
    assert not Seat.objects.get(pk=seat.pk).present(timezone.now())


def test_the_event_stream_tells_challenges_and_games_starting_and_ending(
        stream: Callable[..., StreamReader], alice: Any, bob: Any) -> None:
    running_game = starting.start_game(alice, bob)
    events = stream("/api/stream/event", token(alice, "read"))
    assert events.next() == {"type": "game_started", "game": running_game.pk, "url": f"/games/{running_game.pk}/"}
    events.wait_listening()
    challenge = challenges.create_challenge(bob, "alice", "5+3")
    line = events.until(lambda line: line["type"] == "challenge")
    assert line["challenge"]["id"] == challenge.pk and line["challenge"]["direction"] == "incoming"
    assert line["challenge"]["status"] == "pending"
    game = challenges.accept_challenge(challenge.pk, alice)
    started = events.until(lambda line: line["type"] == "game_started")
    assert started["game"] == game.pk
    finishing.resign(game.pk, alice)
    finished = events.until(lambda line: line["type"] == "game_finished")
    assert finished["game"] == game.pk and finished["status"] == "finished" and finished["reason"] == "resignation"


def test_the_event_stream_tells_a_tournament_round_start(
        stream: Callable[..., StreamReader], organizer: Any, alice: Any, bob: Any, charlie: Any) -> None:
    tournament = Tournament.objects.create(name="Winter Cup", organizer=organizer, pause_seconds=0,
                                           starts_at=timezone.now() + timedelta(hours=1), time_control="5+3", rounds=2)
    for user in (alice, bob, charlie):
        entering.join(tournament.pk, user)
    readers = {user.username: stream("/api/stream/event", token(user, "read")).wait_listening()
               for user in (alice, bob, charlie)}
    organizing.start_early(tournament.pk, organizer)
    for name, reader in readers.items():
        line = reader.until(lambda line: line["type"] == "tournament_round_started")
        assert line == {"type": "tournament_round_started", "tournament": tournament.pk, "round": 1,
                        "url": f"/tournaments/{tournament.pk}/"}, name
    # Three players: one has the bye, and only the two others hear that a game started.
    started = [name for name, reader in readers.items() if _has_game_started(reader)]
    assert len(started) == 2


def _has_game_started(reader: StreamReader) -> bool:
    try:
        reader.until(lambda line: line["type"] == "game_started", timeout=3)
    except queue.Empty:
        return False
    return True


def test_open_streams_hold_no_database_connection_each(
        server: str, stream: Callable[..., StreamReader], django_user_model: Any) -> None:
    """Twenty open streams on one daphne use its few database threads' connections,
    not one each (api/auth.py, StreamToken)."""
    users = [django_user_model.objects.create_user(f"s{n:02d}") for n in range(20)]
    readers = [stream("/api/stream/event", token(user, "read")).wait_listening() for user in users]
    assert all(reader.status == 200 for reader in readers)
    # Not one a stream: at most the process's pool (DB_POOL_SIZE: the database and request threads').
    assert sessions() <= settings.DB_POOL_SIZE + 1


def sessions() -> int:
    """The test database's connections, this test's own apart."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND pid <> pg_backend_pid()")
        return int(cursor.fetchone()[0])


def test_requests_leave_no_connection_behind_when_connections_are_kept(
        api_server: Callable[..., str], alice: Any) -> None:
    """With DB_CONN_MAX_AGE set (production), each request's thread under
    daphne is new: its kept connection would never be used again
    (games.sockets.close_request_connections closes it)."""
    server = api_server(DB_CONN_MAX_AGE="600")
    headers = {"Authorization": f"Bearer {token(alice, 'read')}"}
    for _ in range(25):
        assert requests.get(server + "/api/account", headers=headers, timeout=10).status_code == 200
    assert sessions() <= settings.DB_POOL_SIZE + 1  # the pool's, not one a request
