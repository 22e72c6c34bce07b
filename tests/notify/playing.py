"""Games for the site notification tests (not a conftest: the push and e-mail
tests have their own; the modules that need sessions, PostgreSQL and Redis
import those fixtures from tests.games.conftest themselves)."""

from __future__ import annotations

from typing import Any

import engine
from games import moving, presence, starting
from games.models import Game, Seat
from games.timecontrols import TimeControl


def correspondence(*users: Any) -> Game:
    """A 3-days-per-move game of Ace in the Hole between ``users`` (Red first)."""
    return starting.start_game(*users, time_control=TimeControl.parse("3d"), seed="tests-notify-seed")


def any_action(game_id: int) -> str:
    """The first legal action of the game as it stands."""
    game = Game.objects.get(pk=game_id)
    return str(engine.legal_actions(engine.from_json(game.position))[0])


def move(game_id: int, user: Any) -> Game:
    """``user`` plays the first legal action."""
    return moving.submit(game_id, user, Game.objects.get(pk=game_id).ply, any_action(game_id))


def present(game_id: int, user: Any) -> None:
    """``user`` has the game's page open (their socket's stamp, games.presence.arrive)."""
    presence.arrive(game_id, user)


def seat_of(game_id: int, user: Any) -> Seat:
    return Seat.objects.get(game_id=game_id, user=user)
