"""Lobby messages holding text no account or control could have: refused as usual, nothing changed.

A lone surrogate (a JSON "\\ud800" escape) or a NUL cannot reach PostgreSQL; a
username holding one is simply nobody (issue 10: the socket used to close with 1011).
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from ladder import challenges, inputs
from ladder.models import Challenge, PoolEntry, Seek
from tests.lobby.conftest import Opener

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

counts = database_sync_to_async(lambda: (Challenge.objects.count(), Seek.objects.count(), PoolEntry.objects.count()))

# Frames as a client would send them: JSON escapes, which json.loads turns into
# a lone surrogate or a NUL inside a Python string.
NOBODY = [
    ("\\ud800", "'\\ud800'"),
    ("a\\u0000b", "'a\\x00b'"),
    ("bob\\udfff", "'bob\\udfff'"),
    ("b" * 151, repr("b" * 151)),  # longer than any username
]


@pytest.mark.parametrize(("escaped", "shown"), NOBODY)
async def test_a_challenge_to_a_name_no_account_can_have_is_to_nobody(
        escaped: str, shown: str, bob: Any, cookies: dict[str, str], lobby_sockets: Opener) -> None:
    alice, _ = await lobby_sockets(cookies["alice"])
    before = await counts()
    await alice.send_text(f'{{"type":"challenge","username":"{escaped}","time_control":"1d"}}')
    assert await alice.receive() == {"type": "error", "message": f"there is no player called {shown}"}
    assert await counts() == before
    assert await alice.request({"type": "ping"}) == {"type": "pong"}  # still open


@pytest.mark.parametrize("frame", [
    '{"type":"seek","time_control":"5+3\\u0000"}',
    '{"type":"seek","time_control":"\\ud800","colour":"red\\u0000"}',
    '{"type":"seek","time_control":"5+3","colour":"\\ud800"}',
    '{"type":"pool_join","time_control":"\\ud83d"}',
    '{"type":"pool_join","time_control":"3+2\\u0000"}',
    '{"type":"accept","seek":"1\\u0000"}',
    '{"type":"accept","seek":100000000000000000000000000000}',
    '{"type":"cancel_challenge","challenge":-100000000000000000000000000000}',
    '{"type":"challenge","username":"bob","time_control":"1d\\u0000"}',
])
async def test_other_fields_holding_what_postgresql_cannot_take_are_refused(
        frame: str, cookies: dict[str, str], lobby_sockets: Opener) -> None:
    alice, _ = await lobby_sockets(cookies["alice"])
    before = await counts()
    await alice.send_text(frame)
    assert (await alice.receive())["type"] == "error"
    assert await counts() == before
    assert await alice.request({"type": "ping"}) == {"type": "pong"}


def test_the_form_view_and_the_socket_share_the_check(alice: Any, bob: Any) -> None:
    with pytest.raises(inputs.LobbyRefusal, match="there is no player called 'bob\\\\x00'"):
        challenges.create_challenge(alice, "bob\x00", "1d")
    assert inputs.could_be_username("bob") and not inputs.could_be_username("bob\ud800")
