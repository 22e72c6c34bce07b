"""The personal socket's notify frames (docs/protocol.md, "Notifications and
your turn"): a new notice arrives worded in the reader's language with the
unread count, every move tells the players whose turn list changed, and a
page back from a break can ask for both again. No frame carries a position."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import finishing, moving
from notify import notices
from preferences.languages import save_language
from tests.lobby.test_personal_socket import personal  # noqa: F401
# A real session per user (fast hashing), real PostgreSQL and Redis.
from tests.games.conftest import cookies, fast_password_hashing, services  # noqa: F401
from tests.notify.playing import any_action, correspondence

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


async def test_a_notice_arrives_in_the_reader_s_language_with_the_unread_count(
        alice: Any, bob: Any, cookies: dict[str, str], personal: Any) -> None:
    await database_sync_to_async(save_language)(bob, "de")
    bob_page, _ = await personal(cookies["bob"])
    await database_sync_to_async(notices.send)(bob.pk, "follower", "user:1", {"username": "alice"}, "/@/alice/")
    frame = await bob_page.receive()
    assert frame["type"] == "notification"
    assert (frame["kind"], frame["url"], frame["unread"]) == ("follower", "/@/alice/", 1)
    assert frame["body"] == "alice folgt dir jetzt."


async def test_a_move_tells_both_players_their_turns_and_nobody_else(
        alice: Any, bob: Any, charlie: Any, cookies: dict[str, str], personal: Any) -> None:
    game = await database_sync_to_async(correspondence)(alice, bob)
    alice_page, _ = await personal(cookies["alice"])
    bob_page, _ = await personal(cookies["bob"])
    charlie_page, _ = await personal(cookies["charlie"])
    action = await database_sync_to_async(any_action)(game.pk)
    await database_sync_to_async(moving.submit)(game.pk, alice, 0, action)
    assert await alice_page.receive() == {"type": "turns", "count": 0, "games": []}
    bobs = await bob_page.receive()
    assert (bobs["type"], bobs["count"], [g["id"] for g in bobs["games"]]) == ("turns", 1, [game.pk])
    assert bobs["games"][0]["opponents"] == ["alice"]
    assert action.split()[0] not in json.dumps(bobs)  # no card of any hand
    assert await charlie_page.silent()


async def test_resigning_out_of_turn_takes_the_game_off_the_mover_s_list(
        alice: Any, bob: Any, cookies: dict[str, str], personal: Any) -> None:
    game = await database_sync_to_async(correspondence)(alice, bob)
    alice_page, _ = await personal(cookies["alice"])
    await database_sync_to_async(finishing.resign)(game.pk, bob)
    frame = await alice_page.receive()
    while frame["type"] != "turns":  # the game-end notice comes too (alice is not on the game's page)
        frame = await alice_page.receive()
    assert frame == {"type": "turns", "count": 0, "games": []}


async def test_a_page_back_from_a_break_asks_for_the_bell_and_its_turns(
        alice: Any, bob: Any, cookies: dict[str, str], personal: Any) -> None:
    game = await database_sync_to_async(correspondence)(alice, bob)
    await database_sync_to_async(notices.send)(alice.pk, "follower", "user:2", {"username": "bob"})
    alice_page, _ = await personal(cookies["alice"])
    await alice_page.send({"type": "notify_sync"})
    assert await alice_page.receive() == {"type": "bell", "unread": 1}
    turns = await alice_page.receive()
    assert (turns["type"], turns["count"], turns["games"][0]["id"]) == ("turns", 1, game.pk)
