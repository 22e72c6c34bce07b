"""The ladder tests reuse the games tests' sockets and fixtures (tests/games/conftest.py)."""

from __future__ import annotations

from typing import Any

from tests.games.conftest import cookies, fast_password_hashing, services, sockets  # noqa: F401
from ladder.models import Player


def set_player(user: Any, rating: int, games: int, **fields: Any) -> Player:
    """Give USER a standing on the ladder, as if they had played GAMES rated games."""
    player, _ = Player.objects.update_or_create(user=user, defaults={"rating": rating, "rated_games": games,
                                                                     **fields})
    return player
