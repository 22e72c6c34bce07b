"""The API's views are typed field by field (api/schemas.py, View): ninja
answers through those models and drops what they do not declare, so every
answer must still be exactly what the game socket sends (games.payloads.view_for)
in each game, with 2 and 4 players, running and finished: no key lost."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games import finishing, payloads, starting, store
from games.models import Game
from tests.games.test_records import play_moves
from tests.games.test_rhombus_records import play_random, seated

pytestmark = pytest.mark.django_db


def as_sent(payload: Any) -> Any:
    return json.loads(json.dumps(payload, default=str))


def ace(alice: Any, bob: Any, _: Any, __: Any) -> Game:
    game = starting.start_game(alice, bob, seed="typed-ace")
    return play_moves(game, {"red": alice, "black": bob}, 9, random.Random(3))


def rhombus(alice: Any, bob: Any, _: Any, __: Any) -> Game:
    game = starting.start_game(alice, bob, seed="typed-rh", setup=starting.Setup("rhombus"))
    return play_random(game, seated(game), 12, random.Random(3))


def rhombus_teams(alice: Any, bob: Any, charlie: Any, dave: Any) -> Game:
    game = starting.start_game(alice, bob, charlie, dave, seed="typed-4", setup=starting.Setup("rhombus"))
    return play_random(game, seated(game), 12, random.Random(3))


def formation_teams(alice: Any, bob: Any, charlie: Any, dave: Any) -> Game:
    game = starting.start_game(alice, bob, charlie, dave, seed="typed-f4", setup=starting.Setup("rhombus", "formation"))
    return play_random(game, seated(game), 8, random.Random(3))


GAMES = [ace, rhombus, rhombus_teams, formation_teams]


def assert_answers_are_the_socket_s(game: Game, users: list[Any], api_as: Any) -> None:
    spectator = api_as(None).get(f"/api/games/{game.pk}")
    assert spectator.status_code == 200, spectator.content
    assert spectator.json() == as_sent(payloads.view_for(store.load(game.pk), None))
    assert spectator.json()["kind"] == game.kind
    for user in users:
        own = api_as(user, "play").get(f"/api/games/{game.pk}/seat")
        assert own.status_code == 200, own.content
        assert own.json() == as_sent(payloads.view_for(store.load(game.pk), user))


@pytest.mark.parametrize("make", GAMES)
def test_a_running_game_s_answers_are_what_its_sockets_send(
        make: Any, alice: Any, bob: Any, charlie: Any, dave: Any, api_as: Any) -> None:
    game = make(alice, bob, charlie, dave)
    assert game.running
    assert_answers_are_the_socket_s(game, [seat.user for seat in game.table], api_as)


@pytest.mark.parametrize("make", GAMES)
def test_a_finished_game_s_answers_are_what_its_sockets_send(
        make: Any, alice: Any, bob: Any, charlie: Any, dave: Any, api_as: Any) -> None:
    game = make(alice, bob, charlie, dave)
    users = [seat.user for seat in game.table]
    finishing.resign(game.pk, users[1])
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    assert_answers_are_the_socket_s(game, users, api_as)
