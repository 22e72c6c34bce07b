"""A Rhombus game past ply 200 in Chromium: every ply's number shows in full in the
live move list and in the replay's, and the replay's list keeps the current step
in sight (issue 22, finding 8: ply 200 read "00.", clipped by the scrolling list).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from engine import rhombus
from engine.rhombus import fastplay
from games import finishing, moving, starting
from games.models import Game
from tests.games.conftest import services  # noqa: F401 (shared fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

PLIES = 205

# The row's number as drawn (its ::before), how wide it is drawn and how wide its
# text needs to be in that font, and where it starts against the list's visible box.
NUMBER = """(row) => {
  const drawn = getComputedStyle(row, "::before");
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = drawn.font;
  const text = drawn.content.replace(/^"|"$/g, "");
  let box = row.parentElement;
  while (box && getComputedStyle(box).overflowY === "visible") box = box.parentElement;
  const row_ = row.getBoundingClientRect(), seat = row.querySelector(".rh-move__seat").getBoundingClientRect();
  return { text, room: seat.left - row_.left, needs: pen.measureText(text).width,
           inside: row_.left >= box.getBoundingClientRect().left };
}"""

# How much of an element its scrolling box shows: 1 wholly, 0 not at all.
SHOWN = """(el) => {
  const box = el.closest(".replay__moves").getBoundingClientRect(), at = el.getBoundingClientRect();
  return Math.max(0, Math.min(at.bottom, box.bottom) - Math.max(at.top, box.top)) / at.height;
}"""


@pytest.fixture
def long_game(alice: Any, bob: Any) -> int:
    """A 2-player Formation game (no RH25, so random play lasts) of PLIES random actions, running."""
    game = starting.start_game(alice, bob, seed="long-list", setup=starting.Setup("rhombus", variant="formation"))
    users = {seat.name: seat.user for seat in Game.objects.get(pk=game.pk).table}
    rng = random.Random(22)
    for ply in range(PLIES):
        current = Game.objects.get(pk=game.pk)
        assert current.running, f"the game ended at ply {ply}"
        s = rhombus.from_json(current.position)
        move = fastplay.random_move(fastplay.Sim(s), rng)
        assert move is not None
        moving.submit(game.pk, users[current.to_move], ply, str(fastplay.to_action(s, move)))
    return int(game.pk)


def number_of(row: Locator) -> dict[str, Any]:
    found: dict[str, Any] = row.evaluate(NUMBER)
    return found


def assert_numbered_in_full(row: Locator, ply: int) -> None:
    number = number_of(row)
    assert number["text"] == f"{ply}.", number
    assert number["inside"] and number["room"] >= number["needs"] > 0, number


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}])
def test_the_live_move_list_numbers_plies_past_200_in_full(
        long_game: int, viewport: dict[str, int], daphne_server: str, chromium_browser: Browser) -> None:
    page = chromium_browser.new_page(viewport=viewport)
    page.goto(f"{daphne_server}/games/{long_game}/")
    rows = page.locator("#moves li.rh-move")
    expect(rows).to_have_count(PLIES)
    for ply in (1, 99, 100, 200, PLIES):
        assert_numbered_in_full(rows.nth(ply - 1), ply)
    page.close()


def current_step(page: Page) -> Locator:
    return page.locator(".replay__moves [data-step].is-current")


@pytest.fixture
def finished_long_game(long_game: int, alice: Any) -> int:
    """Over, before the browser starts (Django refuses database work inside Playwright's loop)."""
    finishing.resign(long_game, alice)
    return long_game


def test_the_replay_numbers_plies_past_200_and_keeps_the_current_step_in_sight(
        finished_long_game: int, daphne_server: str, chromium_browser: Browser) -> None:
    long_game = finished_long_game
    page = chromium_browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{daphne_server}/games/{long_game}/replay/")
    rows = page.locator(".replay__list li.rh-move")
    expect(rows).to_have_count(PLIES)
    for ply in (1, 100, 200, PLIES):
        assert_numbered_in_full(rows.nth(ply - 1), ply)

    # It opens at the last step, and shows it.
    expect(current_step(page)).to_have_attribute("data-step", str(PLIES))
    assert current_step(page).evaluate(SHOWN) == 1
    page.keyboard.press("Home")
    expect(current_step(page)).to_have_attribute("data-step", "0")
    assert current_step(page).evaluate(SHOWN) == 1
    page.keyboard.press("End")
    assert current_step(page).evaluate(SHOWN) == 1
    rows.nth(150).locator("button").click()
    page_at = page.evaluate("() => window.scrollY")
    for _ in range(60):  # back to ply 91: the list follows, row by row
        page.keyboard.press("ArrowLeft")
    expect(current_step(page)).to_have_attribute("data-step", "91")
    assert current_step(page).evaluate(SHOWN) == 1
    assert page.evaluate("() => window.scrollY") == page_at  # the list scrolled, not the page
    page.close()
