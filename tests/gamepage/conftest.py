"""Fixtures for the game page: a game with known cards, and users logged in by cookie."""

from __future__ import annotations

from typing import Any

import pytest

from games import starting
from games.models import Game
from tests.games.conftest import fast_password_hashing, session_cookie  # noqa: F401 (shared)

SEED = "gamepage-seed"


@pytest.fixture
def game(alice: Any, bob: Any) -> Game:
    """Alice (Red) against Bob (Black), with a fixed seed so the tests know the cards."""
    return starting.start_game(alice, bob, seed=SEED)
