"""A Rhombus view's ``seed_hex`` is the game's seed once the game is over,
whatever ended it, and null while it runs (RH30, R19; issue 22, 7: it stayed
null after a resignation, though ``game.seed`` showed the seed)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from hashlib import sha256
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

import engine
from games import finishing, moving, payloads, starting
from games.models import Game
from games.timecontrols import TimeControl

pytestmark = pytest.mark.django_db

RHOMBUS = engine.GAMES["rhombus"]
SEED = "revealed-at-the-end"


def play_first_legal(game_id: int) -> None:
    game = Game.objects.get(pk=game_id)
    action = RHOMBUS.legal_actions(RHOMBUS.from_json(game.position))[0]
    moving.submit(game_id, game.seat(game.to_move).user, game.ply, str(action))


def resign(game: Game, alice: Any) -> None:
    finishing.resign(game.pk, alice)


def abort(game: Game, alice: Any) -> None:
    finishing.abort(game.pk, alice)


def run_out_of_time(game: Game, alice: Any) -> None:
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(hours=1))
    finishing.claim_time(game.pk)


def adjudicate(game: Game, alice: Any) -> None:
    finishing.adjudicate(game.pk, None, "the organizer stopped the round")


@pytest.mark.parametrize("end", [resign, abort, run_out_of_time, adjudicate])
def test_a_game_ended_off_the_board_shows_its_seed_to_everyone(
        alice: Any, bob: Any, end: Callable[[Game, Any], None]) -> None:
    game = starting.start_game(alice, bob, seed=SEED, time_control=TimeControl.parse("3+2"),
                               setup=starting.Setup("rhombus"))
    if end is not abort:
        for _ in range(2):
            play_first_legal(game.pk)
    end(game, alice)
    game = Game.objects.get(pk=game.pk)
    assert not game.running and game.position["seed_hex"] == SEED.encode().hex()
    for seat in (None, *game.seat_names):
        frame = payloads.seat_view(game, seat)
        assert (frame["seed_hex"], frame["game"]["seed"]) == (SEED.encode().hex(), SEED), (end.__name__, seat)
        assert frame["commitment"] == frame["game"]["commitment"] == sha256(SEED.encode()).hexdigest()
    public = Client(HTTP_HOST="localhost").get(f"/api/games/{game.pk}").json()
    assert public["seed_hex"] == SEED.encode().hex()


def test_a_running_game_shows_its_seed_to_nobody(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED, setup=starting.Setup("rhombus"))
    play_first_legal(game.pk)
    game = Game.objects.get(pk=game.pk)
    for seat in (None, *game.seat_names):
        frame = payloads.seat_view(game, seat)
        assert (frame["seed_hex"], frame["game"]["seed"]) == (None, None)
        assert SEED.encode().hex() not in str(frame) and SEED not in str(frame)
    public = Client(HTTP_HOST="localhost").get(f"/api/games/{game.pk}").json()
    assert public["seed_hex"] is None and SEED.encode().hex() not in str(public)
