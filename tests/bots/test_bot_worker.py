"""Bot moves on real Celery workers and Redis: a whole game over sockets, a worker
killed mid-move, a stale task, and the page's "waiting for a bot worker"."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import botmoves, botwaits
from games.models import Game, Move
from games.tasks import play_bot_move
from games.timecontrols import TimeControl
from tests.bots.conftest import VISIBILITY_TIMEOUT, Worker, redis_client, wait_for, wait_state

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

Opener = Callable[..., Awaitable[tuple[Any, dict[str, Any]]]]
RAPID = TimeControl.parse("10+5")


def moves_of(game: Game) -> list[tuple[int, str]]:
    return list(Move.objects.filter(game=game).order_by("ply").values_list("ply", "seat"))


async def next_state(sock: Any, timeout: float = 15) -> dict[str, Any]:
    """The next sync or update on the socket (bot moves take a worker a moment)."""
    while True:
        message = await asyncio.wait_for(sock.comm.receive_json_from(timeout=timeout), timeout)
        if message["type"] in ("sync", "update"):
            return message
        assert message["type"] != "error", message


async def test_a_human_plays_a_bot_to_the_end_over_sockets(
        alice: Any, bot_accounts: dict[str, Any], cookies: dict[str, str], sockets: Opener,
        workers: Callable[..., Worker]) -> None:
    worker = await asyncio.to_thread(workers, "game")
    game = await database_sync_to_async(botmoves.play_computer)(alice, "greedy", RAPID, colour="red")
    sock, state = await sockets(game.pk, cookies["alice"])
    rng = random.Random(5)
    acted_at = None  # two updates may show the same ply (one per event): act once on it
    while state["game"]["status"] == "running":
        waiting = state["game"]["bot"]["waiting"]
        if state["to_move"] == "red":
            assert waiting is None
            if acted_at != state["ply"]:
                acted_at = state["ply"]
                await sock.send({"type": "act", "ply": state["ply"], "action": rng.choice(state["legal"])})
        else:
            assert waiting["ply"] == state["ply"] and not waiting["worker_late"]
        state = await next_state(sock)
    game = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    plies = await database_sync_to_async(moves_of)(game)
    assert game.status == "finished" and game.reason in ("aces", "points"), worker.log
    assert [ply for ply, _ in plies] == list(range(game.ply))  # every ply once, none lost
    assert all(seat == ("red" if ply % 2 == 0 else "black") for ply, seat in plies)
    assert state["game"]["seed"] is not None  # public once over (R19)


def test_a_worker_killed_mid_move_leaves_exactly_one_move_to_the_next_worker(
        alice: Any, bot_accounts: dict[str, Any], workers: Callable[..., Worker]) -> None:
    slow = workers("slow", slow_bot_seconds=60)  # the engine's choose sleeps: surely mid-move when killed
    game = botmoves.play_computer(alice, "greedy", RAPID, colour="black")  # the bot (Red) moves first
    wait_for(lambda: wait_state(game.pk).get("started"), 20, "the worker to start the bot's move")
    slow.kill()
    assert moves_of(game) == []
    fresh = workers("fresh")
    wait_for(lambda: Game.objects.get(pk=game.pk).ply == 1, 30, f"the move after the kill\n{fresh.log}")
    time.sleep(VISIBILITY_TIMEOUT + 2)  # time for any second copy to come back: none does
    game.refresh_from_db()
    assert (game.ply, game.to_move, moves_of(game)) == (1, "black", [(0, "red")])
    task_id = re.search(r"play_bot_move\[([0-9a-f-]+)\] received", slow.log)[1]
    assert int(redis_client().get(f"aceweb:bot-deliveries:{task_id}")) == 2
    assert re.search(rf"play_bot_move\[{task_id}\] succeeded in [0-9.]+s: 'played'", fresh.log), fresh.log


def test_a_stale_task_is_discarded_by_the_worker(
        alice: Any, bot_accounts: dict[str, Any], workers: Callable[..., Worker]) -> None:
    worker = workers("stale")
    game = botmoves.play_computer(alice, "random", RAPID, colour="black")
    wait_for(lambda: Game.objects.get(pk=game.pk).ply == 1, 30, f"the bot's first move\n{worker.log}")
    stale = play_bot_move.apply_async((game.pk, 0))  # ply 0 again: a late duplicate
    wait_for(lambda: f"play_bot_move[{stale.id}] succeeded" in worker.log, 30, "the stale task")
    assert re.search(rf"play_bot_move\[{stale.id}\] succeeded in [0-9.]+s: 'stale'", worker.log)
    game.refresh_from_db()
    assert (game.ply, moves_of(game)) == (1, [(0, "red")])


async def test_with_no_worker_the_game_says_it_waits_for_one_until_one_runs(
        alice: Any, bot_accounts: dict[str, Any], cookies: dict[str, str], sockets: Opener,
        workers: Callable[..., Worker]) -> None:
    game = await database_sync_to_async(botmoves.play_computer)(alice, "greedy", RAPID, colour="black")
    sock, state = await sockets(game.pk, cookies["alice"])
    waiting = state["game"]["bot"]["waiting"]
    assert (state["ply"], waiting["ply"], waiting["started_at"]) == (0, 0, None)
    assert waiting["queued_at"] is not None and not waiting["worker_late"]
    await asyncio.sleep(botwaits.WORKER_LATE_SECONDS + 0.5)
    _, later = await sockets(game.pk, cookies["alice"])  # e.g. the page reloaded
    assert later["ply"] == 0 and later["game"]["bot"]["waiting"]["worker_late"] is True

    await asyncio.to_thread(workers, "late", 1.0)  # its bot takes a second: "thinking" shows first
    state = await next_state(sock)
    assert state["ply"] == 0 and state["game"]["bot"]["waiting"]["started_at"] is not None  # thinking
    while state["ply"] == 0:
        state = await next_state(sock)
    assert state["ply"] == 1 and state["to_move"] == "black" and state["game"]["bot"]["waiting"] is None
