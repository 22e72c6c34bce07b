"""Fixtures for the live list, TV and following: players with ratings, running games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games import moving, payloads, store
from games.models import Game
from ladder.models import Player
# The shared ones: a real session per user, fast hashing, real PostgreSQL and Redis.
from tests.games.conftest import cookies, fast_password_hashing, services, session_cookie  # noqa: F401
from tests.conftest import make_user


@pytest.fixture
def rated(django_user_model: Any) -> Callable[[str, int], Any]:
    """``rated("name", 1800)``: a user with that Ace in the Hole rating."""
    def make(name: str, rating: int) -> Any:
        user = make_user(django_user_model, name)
        Player.objects.create(user=user, rating=rating)
        return user

    return make


def legal_move(game_id: int) -> tuple[int, str]:
    """The ply and the first legal action of the seat to move (from the rules: a Rhombus
    view names only the card sets that have one, issue 24)."""
    game = store.load(game_id)
    assert game is not None
    return game.ply, str(game.rules.legal_actions(payloads.state_of(game))[0])


def move(game_id: int) -> Game:
    """Play the first legal action of the seat to move, as that player."""
    game = store.load(game_id)
    assert game is not None
    ply, action = legal_move(game_id)
    return moving.submit(game_id, game.seat(game.to_move).user, ply, action)
