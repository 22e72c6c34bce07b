"""An external BOT account plays a whole rated game against a built-in bot
through the API's streams, end to end: the example client of docs/api.md
(docs/examples/random_bot.py) run as its own process against real daphne,
PostgreSQL, Redis and a Celery worker playing the computer's moves."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from games.models import Game, Move
from ladder.api import tokens
from ladder.models import Player, RatingChange
from tests.bots.conftest import Worker, bot_accounts, fresh_bot_cache, workers  # noqa: F401
from tests.games.conftest import services  # noqa: F401
from tests.helpers import ROOT

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

CLIENT = ROOT / "docs" / "examples" / "random_bot.py"


def test_the_example_bot_plays_a_rated_game_against_a_built_in_bot(
        daphne_server: str, workers: Callable[..., Worker], bot_accounts: dict[str, Any],
        django_user_model: Any, tmp_path: Path) -> None:
    worker = workers("bots")
    robo = django_user_model.objects.create_user("robo", password=None)
    _, token = tokens.make(robo, "random bot", ["bot:play"])
    run = subprocess.run(
        [sys.executable, str(CLIENT), "--server", daphne_server, "--token", token, "--upgrade",
         "--play-computer", "greedy", "--rated", "--time-control", "10+5", "--games", "1"],
        capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"{run.stdout}\n{run.stderr}\n{worker.log[-3000:]}"
    assert "playing as robo (BOT: True)" in run.stdout and "played 1 game(s): done" in run.stdout

    game = Game.objects.get(seats__user=robo)
    assert game.status == "finished" and game.rated and game.reason in ("aces", "points", "resignation")
    plies = list(Move.objects.filter(game=game).order_by("ply").values_list("ply", flat=True))
    assert plies == list(range(game.ply))  # every ply stored once, none lost
    bot_seat = next(seat.name for seat in game.table if seat.user_id == bot_accounts["greedy"].pk)
    assert Move.objects.filter(game=game, seat=bot_seat).count() >= game.ply // 2  # the worker played
    rated = RatingChange.objects.filter(game=game)
    assert {change.user_id for change in rated} == {robo.pk, bot_accounts["greedy"].pk}
    player = Player.objects.get(user=robo)
    assert player.is_bot and player.bot_level == "" and player.rated_games == 1
