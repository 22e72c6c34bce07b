"""The replay page in a real browser: stepping with the keys and buttons redraws the board."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from games import finishing, starting
from games.boards import starting_board
from tests.games.test_records import play_moves
from tests.helpers import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)


def board_on_page(page: Any) -> dict[str, str]:
    return dict(page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.board [data-pawn]')]"
        ".map(p => [p.closest('[data-square]').dataset.square, p.dataset.pawn]))"))


@pytest.fixture
def finished_game(alice: Any, bob: Any) -> Any:
    """Built before the browser starts: Django refuses database work inside Playwright's loop."""
    game = starting.start_game(alice, bob, seed="tests-game-seed")
    game = play_moves(game, {"red": alice, "black": bob}, 6, random.Random(7))
    game = finishing.resign(game.pk, alice)
    return game, game.moves.get(ply=0).action


def test_stepping_through_a_finished_game(finished_game: Any, live_server: LiveServer, browser: Browser) -> None:
    game, first = finished_game
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(f"{live_server.url}/games/{game.pk}/replay/")
        assert board_on_page(page) == game.position["board"]  # it opens at the end
        page.keyboard.press("Home")
        assert board_on_page(page) == starting_board()
        assert "Step 0 of 6" in page.locator("[data-step-label]").text_content()
        page.keyboard.press("ArrowRight")
        assert page.locator(".replay__move.is-current").text_content() == first
        page.locator('[data-go="last"]').click()
        assert board_on_page(page) == game.position["board"]
        drawn = page.locator('[data-hand="red"] [data-card]').evaluate_all("cards => cards.map(c => c.dataset.card)")
        assert drawn == game.position["hands"]["red"]
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "replay-desktop.png"), full_page=True)
    finally:
        page.close()
