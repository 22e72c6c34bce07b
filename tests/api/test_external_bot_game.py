"""An external BOT account plays a whole rated game against a built-in bot
through the API's streams, end to end: the example client of docs/api.md
(docs/examples/random_bot.py) run as its own process against real daphne,
PostgreSQL, Redis and a Celery worker playing the computer's moves; and the
same client answers the challenges a person sends it."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import requests

from chat.models import Line
from games.models import Game, Move, Seat
from api import tokens
from ladder.models import Challenge, Player, RatingChange
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
    # Its last word: "Good game" in the players' chat (issue 25), through POST /api/games/{id}/chat.
    assert list(Line.objects.filter(author=robo).values_list("room", "preset")) == [(f"game:{game.pk}", "goodgame")]


def test_the_example_bot_plays_rhombus_a_use_at_a_time(
        daphne_server: str, workers: Callable[..., Worker], bot_accounts: dict[str, Any],
        django_user_model: Any) -> None:
    """A Rhombus view lists no actions: the example builds each from the view's card
    ``sets`` and ``firsts`` and the server's ``options`` (docs/api.md), to the game's end."""
    worker = workers("bots")
    robo = django_user_model.objects.create_user("robo", password=None)
    _, token = tokens.make(robo, "random bot", ["bot:play"])
    run = subprocess.run(
        [sys.executable, str(CLIENT), "--server", daphne_server, "--token", token, "--upgrade",
         "--play-computer", "random", "--rules", "rhombus", "--time-control", "10+5", "--games", "1"],
        capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"{run.stdout}\n{run.stderr}\n{worker.log[-3000:]}"
    assert "refused" not in run.stdout, run.stdout  # every action it built was legal
    game = Game.objects.get(seats__user=robo)
    assert game.kind == "rhombus" and game.status == "finished" and game.reason != "resignation", game.reason
    plies = list(Move.objects.filter(game=game).order_by("ply").values_list("ply", flat=True))
    assert plies == list(range(game.ply)) and game.ply > 10  # every ply stored once, none lost
    robo_seat = next(seat.name for seat in game.table if seat.user_id == robo.pk)
    assert Move.objects.filter(game=game, seat=robo_seat).count() >= game.ply // 2 - 1


def test_the_example_bot_declines_a_persons_four_player_challenge_and_plays_their_ace_challenge(
        daphne_server: str, django_user_model: Any, tmp_path: Path) -> None:
    """Issue 22, 2: the example read a challenge's rules as ``["kind"]`` and
    crashed (KeyError) on the first challenge anyone sent it."""
    robo = django_user_model.objects.create_user("robo", password=None)
    alice = django_user_model.objects.create_user("alice", password="password")
    for name in ("bob", "carol"):
        django_user_model.objects.create_user(name, password="password")
    _, robo_token = tokens.make(robo, "random bot", ["bot:play"])
    _, alice_token = tokens.make(alice, "alice's script", ["play"])
    out = tmp_path / "random_bot.out"
    with open(out, "w") as log:
        client = subprocess.Popen(
            [sys.executable, "-u", str(CLIENT), "--server", daphne_server, "--token", robo_token,
             "--upgrade", "--games", "1"], stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until(lambda: "playing as robo (BOT: True)" in out.read_text(), client, out)
        alice_api = requests.Session()
        alice_api.headers["Authorization"] = f"Bearer {alice_token}"

        def challenge(**body: Any) -> int:
            response = alice_api.post(f"{daphne_server}/api/challenges", timeout=10,
                                      json={"username": "robo", "time_control": "10+5", "rated": False, **body})
            assert response.status_code == 200, response.text
            return int(response.json()["id"])

        teams = challenge(rules="rhombus", players=4, username=None, partner="robo", opponents=["bob", "carol"])
        wait_until(lambda: Challenge.objects.get(pk=teams).status == "declined", client, out)
        ace = challenge()
        wait_until(lambda: Challenge.objects.get(pk=ace).game_id is not None, client, out)
        game_id = Challenge.objects.get(pk=ace).game_id
        # Its game stream is open once it has stamped its seat present (it joins the game's group first).
        wait_until(lambda: Seat.objects.filter(game_id=game_id, user=robo, seen_at__isnull=False).exists(),
                   client, out)
        said = alice_api.post(f"{daphne_server}/api/games/{game_id}/chat", timeout=10,
                              json={"room": "player", "text": "good luck, robo"})
        assert said.status_code == 200, said.text
        wait_until(lambda: "alice says 'good luck, robo'" in out.read_text(), client, out)  # its game stream
        resigned = alice_api.post(f"{daphne_server}/api/games/{game_id}/resign", timeout=10)
        assert resigned.status_code == 200, resigned.text
        assert client.wait(timeout=60) == 0, out.read_text()
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()
    said = out.read_text()
    assert f"challenge {teams} from alice: decline" in said and f"challenge {ace} from alice: accept" in said
    assert "played 1 game(s): done" in said, said
    game = Game.objects.get(pk=game_id)
    robo_seat = next(seat.name for seat in game.table if seat.user_id == robo.pk)
    assert (game.status, game.reason, game.winner) == ("finished", "resignation", robo_seat)


def wait_until(check: Callable[[], bool], client: subprocess.Popen[bytes], out: Path, timeout: float = 30) -> None:
    """Wait for ``check``, failing at once (with what it said) if the client has exited."""
    deadline = time.monotonic() + timeout
    while not check():
        assert client.poll() is None, f"the example bot exited:\n{out.read_text()}"
        assert time.monotonic() < deadline, f"timed out; the example bot said:\n{out.read_text()}"
        time.sleep(0.1)
