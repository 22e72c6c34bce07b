"""An open API stream ends when its token is revoked or its account closed
(issue 37): a revoked token is refused from the next request on, and a stream
already open with it (a seat's view, the account's events) stops too, so a
leaked token revoked in the admin reads nothing more. A stream opened with
another token of the same account goes on."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from api import tokens
from api.models import ApiToken
from games import starting
from ladder import challenges
from tests.api.streams import StreamReader
from tests.games.conftest import services  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


@pytest.fixture
def stream(api_server: Callable[..., str]) -> Iterator[Callable[[str, str], StreamReader]]:
    server = api_server(API_STREAM_KEEPALIVE="0.5")
    opened: list[StreamReader] = []

    def open_stream(path: str, token: str) -> StreamReader:
        reader = StreamReader(server + path, token)
        opened.append(reader)
        return reader.wait_listening()

    yield open_stream
    for reader in opened:
        reader.close()


def ended(reader: StreamReader) -> bool:
    """Whether the server ends the stream within a few seconds (lines before the end are skipped)."""
    while True:
        line = reader.next(timeout=5)
        if line is None:
            return True


def test_revoking_a_token_in_the_admin_ends_its_open_streams_only(
        stream: Callable[..., StreamReader], alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob)
    leaked, token = tokens.make(alice, "leaked", ["play"])
    kept = tokens.make(alice, "kept", ["play"])[1]
    events, seat = stream("/api/stream/event", token), stream(f"/api/stream/game/{game.pk}", token)
    other = stream("/api/stream/event", kept)
    tokens.revoke_live(ApiToken.objects.filter(pk=leaked.pk), "posted in a public gist")
    assert ended(events) and ended(seat)
    challenge = challenges.create_challenge(bob, "alice", "5+3")  # the kept token's stream still hears
    line = other.until(lambda line: line["type"] == "challenge")
    assert line["challenge"]["id"] == challenge.pk


def test_closing_the_account_ends_its_streams(stream: Callable[..., StreamReader], alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob)
    token = tokens.make(alice, "bot", ["play"])[1]
    events, seat = stream("/api/stream/event", token), stream(f"/api/stream/game/{game.pk}", token)
    alice.is_active = False
    alice.save()
    assert ended(events) and ended(seat)
