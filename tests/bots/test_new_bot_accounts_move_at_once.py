"""A bot account made after a worker has read the bots plays at once (issue 22, 1):
the 4-player "Play the computer" game makes its seat-mates (``bot-<level>+2``,
``+3``) in the web process, and the worker must not decide "not-a-bot" for them;
and a bot move whose task ended without a move is queued again."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model

import engine
from engine import bots as engine_bots
from games import botmoves, bots, moving
from games.models import Game
from games.timecontrols import TimeControl
from ladder.seating import play_computer_team
from tests.bots.conftest import Worker, wait_for, wait_state

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

RAPID = TimeControl.parse("10+5")
RHOMBUS = engine.GAMES["rhombus"]
# Three bot moves (SE, NE, NW) after the person's first: pace 0.6 s and at most
# botmoves.MAX_THINK_SECONDS each, with room for a loaded machine.
THREE_BOT_MOVES_SECONDS = 25


def first_move(game: Game, user: Any) -> None:
    """The person at SW moves first (RH9, RH31)."""
    game.refresh_from_db()
    moving.submit(game.pk, user, 0, str(RHOMBUS.legal_actions(RHOMBUS.from_json(game.position))[0]))


def warm(worker: Worker, alice: Any) -> None:
    """Have the worker read the bots (it plays a bot's move) before new ones exist."""
    game = botmoves.play_computer(alice, "random", RAPID, colour="black")  # the bot (Red) moves first
    wait_for(lambda: Game.objects.get(pk=game.pk).ply == 1, 30, f"the warm-up move\n{worker.log}")


def retire_team_mates(level: str, round_number: int) -> None:
    """Rename the level's seat-mates, so that the next team game makes new accounts."""
    for user in get_user_model().objects.filter(username__startswith=bots.bot_username(level) + "+"):
        user.username = f"r{round_number}-{user.username}"
        user.save(update_fields=["username"])


def test_a_team_game_whose_bot_accounts_are_new_to_a_warm_worker_moves_at_once(
        alice: Any, bob: Any, bot_accounts: dict[str, Any], workers: Callable[..., Worker]) -> None:
    worker = workers("warm")
    warm(worker, alice)
    game = play_computer_team(bob, "greedy", RAPID)  # makes bot-greedy+2 (SE) and +3 (NW) here
    first_move(game, bob)
    wait_for(lambda: Game.objects.get(pk=game.pk).ply >= 4, THREE_BOT_MOVES_SECONDS,
             f"the three bots' first moves\n{worker.log}")


def test_ten_new_players_computer_games_with_new_bot_accounts_each_move_at_once(
        alice: Any, bot_accounts: dict[str, Any], workers: Callable[..., Worker]) -> None:
    """The issue's "done when": ten times in a row, new levels' accounts each time."""
    worker = workers("ten")
    warm(worker, alice)
    waits = []
    for round_number in range(10):
        level = engine_bots.LEVELS[round_number % len(engine_bots.LEVELS)]
        retire_team_mates(level, round_number)
        player = get_user_model().objects.create_user(f"newcomer{round_number}", "", "password")
        game = play_computer_team(player, level, RAPID)
        first_move(game, player)
        started = time.monotonic()
        wait_for(lambda: Game.objects.get(pk=game.pk).ply >= 4, THREE_BOT_MOVES_SECONDS,
                 f"round {round_number} ({level}): the three bots' first moves\n{worker.log}")
        waits.append(time.monotonic() - started)
    assert max(waits) < THREE_BOT_MOVES_SECONDS, waits


def illegal_choice(view: Any, level: str, *, seed: Any, seconds: Any = None) -> str:
    return "not-a-move"


def broken_choice(view: Any, level: str, *, seed: Any, seconds: Any = None) -> str:
    raise RuntimeError("the engine bot broke")


@pytest.mark.parametrize("choose", [illegal_choice, broken_choice], ids=["refused", "raised"])
def test_a_bot_move_whose_task_ended_without_a_move_is_queued_again(
        alice: Any, bot_accounts: dict[str, Any], choose: Callable[..., str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = botmoves.play_computer(alice, "greedy", RAPID, colour="black")  # the bot (Red) is to move
    assert wait_state(game.pk)["ply"] == 0  # queued (no worker runs here)
    monkeypatch.setattr(engine_bots, "choose", choose)
    if choose is broken_choice:
        with pytest.raises(RuntimeError):
            botmoves.play_move(game.pk, 0, task_id="ended-without-a-move")
    else:
        assert botmoves.play_move(game.pk, 0, task_id="ended-without-a-move") == "refused"
    game.refresh_from_db()
    assert (game.ply, game.running) == (0, True)
    assert game.pk in botmoves.requeue_lost_moves()  # not left "started" for a day
    state = wait_state(game.pk)
    assert (state["ply"], state["started"]) == (0, None)  # queued again, for a worker to take
