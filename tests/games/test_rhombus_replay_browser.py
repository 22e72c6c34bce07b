"""The Rhombus replay page in real Chromium: the buttons, the action list and
the keys step through a finished 4-player game, redrawing the board, the
table cards and, the game being over, every seat's hand (RH29, RH30)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from pytest_django.live_server_helper import LiveServer

from games import finishing, records, starting
from tests.conftest import make_user
from tests.games.test_rhombus_records import play_random, seated
from tests.helpers import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)


def board_on_page(page: Page) -> dict[str, str]:
    return dict(page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('#board [data-piece]')]"
        ".map(p => [p.closest('[data-square]').dataset.square, p.dataset.piece]))"))


def cards_in(page: Page, selector: str) -> list[str]:
    return list(page.evaluate(
        "(sel) => [...document.querySelectorAll(sel + ' .card')].map(c => c.getAttribute('title'))", selector))


def titles(codes: list[str]) -> list[str]:
    """A card's title as the page writes it: "QH" is "Q of hearts"."""
    suits = {"H": "hearts", "D": "diamonds", "S": "spades", "C": "clubs"}
    return [f"{code[:-1]} of {suits[code[-1]]}" for code in codes]


def step_label(page: Page) -> str:
    return str(page.locator("[data-step-label]").text_content())


@pytest.fixture
def finished_four(alice: Any, bob: Any, charlie: Any, django_user_model: Any) -> Any:
    """Built before the browser starts: Django refuses database work inside Playwright's loop."""
    dave = make_user(django_user_model, "dave")
    game = starting.start_game(alice, bob, charlie, dave, seed="replay-four", setup=starting.Setup("rhombus"))
    game = play_random(game, seated(game), 16, random.Random(3))
    game = finishing.resign(game.pk, bob)
    return game, records.steps_of_game(game)


def test_stepping_through_a_finished_team_game(finished_four: Any, live_server: LiveServer, browser: Browser) -> None:
    game, steps = finished_four
    assert len(steps) == 17
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(f"{live_server.url}/games/{game.pk}/replay/")
        # It opens at the end: the stored position, every hand shown (the game is over).
        assert board_on_page(page) == steps[-1]["view"]["board"] == game.position["board"]
        assert "Step 16 of 16" in step_label(page)
        for seat, shown in game.position["seats"].items():
            assert cards_in(page, f'[data-hand="{seat}"]') == titles(shown["hand"])
            assert cards_in(page, f'[data-table="{seat}"]') == titles(shown["table"])
        assert page.locator(".check").text_content() == "checked ✓"

        page.keyboard.press("Home")
        assert "Step 0 of 16: start" in step_label(page)
        assert board_on_page(page) == steps[0]["view"]["board"]
        for seat in game.seat_names:  # the hands as dealt (RH8)
            assert cards_in(page, f'[data-hand="{seat}"]') == titles(steps[0]["hands"][seat])

        # Forward with the key and the button: the board follows every step.
        changed = 0
        for index in range(1, 9):
            if index % 2:
                page.keyboard.press("ArrowRight")
            else:
                page.locator('[data-go="next"]').click()
            step = steps[index]
            # Said in words, the notation beside them (issue 35, 3).
            assert step_label(page).startswith(f"Step {index} of 16: {step['seat']}: ")
            assert step_label(page).endswith(f" {step['action']}") and len(step_label(page)) > len(step["action"]) + 30
            assert page.locator('[data-step-label] .notation[translate="no"]').text_content() == step["action"]
            assert board_on_page(page) == step["view"]["board"]
            current = page.locator(".replay__move.is-current")
            assert current.locator('.notation[translate="no"]').text_content() == step["action"]  # a move list
            name = str(current.get_attribute("aria-label"))  # worded, ending with the notation it shows
            assert name.endswith(f" {step['action']}") and len(name) > len(step["action"]) + 20
            changed += step["view"]["board"] != steps[index - 1]["view"]["board"]
        assert changed, "some action moved a piece"

        page.keyboard.press("ArrowLeft")
        page.locator('[data-go="prev"]').click()
        assert board_on_page(page) == steps[6]["view"]["board"]
        page.locator('.replay__move[data-step="12"]').click()
        assert "Step 12 of 16" in step_label(page)
        assert cards_in(page, "[data-discard-cards]") == titles(steps[12]["view"]["discard"])
        page.keyboard.press("End")
        assert board_on_page(page) == game.position["board"]
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "rhombus-replay-desktop.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=str(ARTIFACTS / "rhombus-replay-phone.png"), full_page=True)
    finally:
        page.close()
