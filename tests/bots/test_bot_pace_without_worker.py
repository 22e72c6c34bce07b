"""Without a worker (no REDIS_URL: Celery runs tasks in the caller), a bot still
answers at the worker's pace, after the player's request has returned, and a
move this process did not set off (it restarted) is played once the game is shown."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import botmoves, payloads
from games.models import Game, Move
from games.tasks import play_bot_move
from games.timecontrols import TimeControl
from tests.bots.conftest import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

Opener = Callable[..., Awaitable[tuple[Any, dict[str, Any]]]]
RAPID = TimeControl.parse("10+5")
PACE = botmoves.MIN_DELAY_SECONDS  # 0.6 s: a 10+5 clock is far from making it shorter
TIMER_SLACK = 0.05  # clocks of the database and of this process


@pytest.fixture
def no_worker() -> Iterator[None]:
    """Celery as settings.py sets it up without REDIS_URL: every task runs in the caller."""
    conf = play_bot_move.app.conf
    before = conf.task_always_eager
    conf.task_always_eager = True
    yield
    conf.task_always_eager = before
    wait_for(lambda: not botmoves._in_process, 15, "this process's bot moves to end")


def ply_of(game: Game) -> int:
    return Game.objects.values_list("ply", flat=True).get(pk=game.pk)


def seconds_between(first: Any, then: Any) -> float:
    return float((then - first).total_seconds())


@pytest.mark.usefixtures("no_worker")
def test_the_bot_moves_first_after_the_pace_not_inside_the_request(
        alice: Any, bot_accounts: dict[str, Any]) -> None:
    game = botmoves.play_computer(alice, "greedy", RAPID, colour="black")  # the bot (Red) moves first
    assert ply_of(game) == 0  # the page that follows has loaded before the bot moves
    wait_for(lambda: ply_of(game) == 1, 10, "the bot's first move")
    move = Move.objects.get(game=game, ply=0)
    assert move.seat == "red"
    assert seconds_between(game.created, move.created) >= PACE - TIMER_SLACK


@pytest.mark.usefixtures("no_worker")
async def test_over_a_socket_the_answer_comes_at_the_pace_after_the_players_move(
        alice: Any, bot_accounts: dict[str, Any], cookies: dict[str, str], sockets: Opener) -> None:
    game = await database_sync_to_async(botmoves.play_computer)(alice, "greedy", RAPID, colour="red")
    sock, state = await sockets(game.pk, cookies["alice"])
    await sock.send({"type": "act", "ply": 0, "action": state["legal"][0]})
    seen: dict[int, float] = {}
    while 2 not in seen:  # the update for the player's move, then the bot's
        message = await sock.comm.receive_json_from(timeout=10)
        assert message["type"] != "error", message
        if message["type"] in ("sync", "update"):
            seen.setdefault(message["ply"], time.monotonic())
    assert 1 in seen
    assert seen[2] - seen[1] >= PACE - TIMER_SLACK
    moves = await database_sync_to_async(lambda: list(Move.objects.filter(game=game).order_by("ply")))()
    assert [(m.ply, m.seat) for m in moves] == [(0, "red"), (1, "black")]
    assert seconds_between(moves[0].created, moves[1].created) >= PACE - TIMER_SLACK


def test_a_move_this_process_never_set_off_is_played_once_the_game_is_shown(
        alice: Any, bot_accounts: dict[str, Any], no_worker: None) -> None:
    conf = play_bot_move.app.conf
    conf.task_always_eager = False  # started as if by another process, since gone
    game = botmoves.play_computer(alice, "greedy", RAPID, colour="black")
    conf.task_always_eager = True
    time.sleep(PACE + 0.5)
    assert ply_of(game) == 0  # nobody is going to play it...
    shown = Game.objects.get(pk=game.pk)
    # Building the payload plays nothing...
    assert payloads.view_for(shown, alice)["game"]["bot"]["waiting"]["ply"] == 0
    time.sleep(PACE + 0.5)
    assert ply_of(game) == 0
    botmoves.resume_waiting_move(shown)  # ...what shows the game sets it off (the socket, the API, the live list)
    wait_for(lambda: ply_of(game) == 1, 10, "the bot's move after the game was shown")
    time.sleep(PACE + 0.5)
    assert list(Move.objects.filter(game=game).values_list("ply", "seat")) == [(0, "red")]
