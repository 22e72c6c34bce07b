"""The live page's result line (issue 22, finding 21), in Chromium against daphne:
a 4-player game ended by RH25 reads with the ending's one wording
(games/results.py), as the replay does."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from games import starting
from games.models import Game
from tests.games.conftest import services  # noqa: F401 - fixture
from tests.games.test_result_wording import NO_PIECES_RNG, NO_PIECES_SEED
from tests.games.test_rhombus_records import play_random, seated

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


def test_a_team_game_won_by_rh25_says_so_on_the_live_page(
        alice: Any, bob: Any, charlie: Any, dave: Any, daphne_server: str, chromium_browser: Browser,
        orm: Callable[..., Any]) -> None:
    def finished() -> Game:
        game = starting.start_game(alice, bob, charlie, dave, seed=NO_PIECES_SEED, setup=starting.Setup("rhombus"))
        return play_random(game, seated(game), 400, random.Random(NO_PIECES_RNG))

    game = orm(finished)
    page = chromium_browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{daphne_server}/games/{game.pk}/")
    expect(page.locator("#game-status")).to_have_text(
        "SW+NE (alice & charlie) win by leaving the other side no piece on the board (RH25)")
