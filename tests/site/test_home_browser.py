"""The home page in a real browser (Debian's Chromium, driven by Playwright).

Screenshots go to artifacts/ for a person to look at.
"""

from __future__ import annotations


import pytest
from playwright.sync_api import Browser, Page
from pytest_django.live_server_helper import LiveServer

from tests.helpers import ARTIFACTS


def open_home(browser: Browser, live_server: LiveServer, width: int, height: int) -> Page:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(live_server.url + "/")
    return page


@pytest.mark.parametrize(("name", "width", "height"), [("phone", 375, 740), ("desktop", 1280, 900)])
def test_the_board_shows_every_pawn_and_fits_the_screen(
    browser: Browser, live_server: LiveServer, name: str, width: int, height: int
) -> None:
    page = open_home(browser, live_server, width, height)
    try:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"home-{name}.png"), full_page=True)
        assert page.locator(".square").count() == 64
        assert page.locator(".board [data-pawn]").count() == 16
        e1 = page.locator('[data-square="e1"] .pawn')
        assert e1.is_visible()
        assert e1.text_content() == "A\u2665"
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scroll
        square = page.locator('[data-square="a1"]').bounding_box()
        assert square is not None
        assert abs(square["width"] - square["height"]) < 1
        assert square["width"] >= 30  # big enough to read and tap on a phone
    finally:
        page.close()


def test_pawns_are_coloured_by_side(browser: Browser, live_server: LiveServer) -> None:
    page = open_home(browser, live_server, 800, 900)
    try:
        colour = "el => getComputedStyle(el).backgroundColor"
        red = page.locator('[data-pawn="AH"]').evaluate(colour)
        black = page.locator('[data-pawn="AS"]').evaluate(colour)
        assert red == "rgb(192, 38, 45)"
        assert black == "rgb(35, 37, 42)"
    finally:
        page.close()
