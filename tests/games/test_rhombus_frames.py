"""Rhombus frames carry the action list once: a sync has every action, an
update only those the socket has not been sent (docs/protocol.md, RH29)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import starting
from games.models import Game
from tests.games.conftest import session_cookie
from tests.rhombus_steps import legal_texts

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

SEED = "rhombus-frames"


async def first_legal(game_id: int) -> str:
    """A legal action of the player to move, from the rules (a view lists none, issue 24)."""
    return await database_sync_to_async(lambda: legal_texts(Game.objects.get(pk=game_id))[0])()


async def test_an_update_carries_only_the_new_action_and_a_sync_all_of_them(
        alice: Any, bob: Any, sockets: Any) -> None:
    game = await database_sync_to_async(starting.start_game)(alice, bob, seed=SEED, setup=starting.Setup("rhombus"))
    cookies = [await database_sync_to_async(session_cookie)(user) for user in (alice, bob)]
    socks = {}
    for seat, cookie in zip(game.seat_names, cookies):
        socks[seat], first = await sockets(game.pk, cookie)
        assert first["actions"] == [] and first["actions_from"] == 0
    watcher, latest = await sockets(game.pk, None)
    played = []
    for ply in range(6):
        mover = latest["to_move"]
        action = await first_legal(game.pk)
        await socks[mover].send({"type": "act", "ply": ply, "action": action})
        played.append({"seat": mover, "action": action})
        for sock in (*socks.values(), watcher):
            update = await sock.receive()
            assert update["type"] == "update" and update["ply"] == ply + 1
            assert (update["actions_from"], update["actions"]) == (ply, [played[-1]])
        latest = update
    sync = await watcher.request({"type": "sync"})
    assert (sync["actions_from"], sync["actions"]) == (0, played)


async def test_a_presence_change_sends_no_actions(alice: Any, bob: Any, sockets: Any) -> None:
    game = await database_sync_to_async(starting.start_game)(alice, bob, seed=SEED, setup=starting.Setup("rhombus"))
    socks, latest = {}, {}
    for user in (alice, bob):
        sock, sync = await sockets(game.pk, await database_sync_to_async(session_cookie)(user))
        socks[sync["seat"]] = sock
        latest = sync
    mover = latest["to_move"]
    action = await first_legal(game.pk)
    await socks[mover].send({"type": "act", "ply": 0, "action": action})
    for sock in socks.values():
        assert (await sock.receive())["actions"] == [{"seat": mover, "action": action}]
    (stayer, leaver) = (socks[mover], next(s for seat, s in socks.items() if seat != mover))
    await leaver.close()
    frames = [await stayer.receive()]
    while all(frames[-1]["game"]["presence"].values()):
        frames.append(await stayer.receive())
    assert [(frame["actions_from"], frame["actions"]) for frame in frames] == [(1, [])] * len(frames)
