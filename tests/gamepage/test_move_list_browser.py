"""A finished game's move list shows its first row (it was scrolled to the end,
hiding the opening moves: issue 10, 5.6), in Chromium on a laptop and a phone."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from games import finishing, moving, payloads, starting
from games.models import Game
from tests.games.conftest import services  # noqa: F401 (shared fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

TURNS = 15  # more rows than the list's box holds while a game runs

# How much of a row its list shows: 1 when the row is wholly inside the list's
# box, 0 when scrolled out of it.
SHOWN = """(row) => {
  const list = row.closest("ol").getBoundingClientRect(), box = row.getBoundingClientRect();
  const seen = Math.min(box.bottom, list.bottom) - Math.max(box.top, list.top);
  return Math.max(0, seen) / box.height;
}"""


@pytest.fixture
def finished_game(alice: Any, bob: Any) -> int:
    game = starting.start_game(alice, bob, seed="move-list")
    for _ in range(2 * TURNS):
        game = Game.objects.get(pk=game.pk)
        mover = alice if game.to_move == "red" else bob
        moving.submit(game.pk, mover, game.ply, payloads.view_for(game, mover)["legal"][0])
    finishing.resign(game.pk, bob)
    return int(game.pk)


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}])
def test_a_finished_games_move_list_shows_its_first_and_last_rows(
        finished_game: int, viewport: dict[str, int], daphne_server: str, chromium_browser: Browser) -> None:
    page = chromium_browser.new_page(viewport=viewport)
    page.goto(f"{daphne_server}/games/{finished_game}/")
    expect(page.locator("#game")).to_have_attribute("data-status", "finished")
    rows = page.locator("#moves li")
    expect(rows).to_have_count(TURNS)
    assert rows.first.evaluate(SHOWN) == 1
    assert rows.last.evaluate(SHOWN) == 1
    page.close()
