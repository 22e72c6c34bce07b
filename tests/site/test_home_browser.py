"""The home page and the rules pages in a real browser (Debian's Chromium, driven by Playwright).

Screenshots go to artifacts/ for a person to look at.
"""

from __future__ import annotations


import pytest
from playwright.sync_api import Browser, Page
from pytest_django.live_server_helper import LiveServer

from tests.helpers import ARTIFACTS

PHONE = (375, 740)
DESKTOP = (1280, 900)

# Every visible element whose box leaves the viewport sideways, for the failure message.
STICKING_OUT = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (getComputedStyle(el).visibility === "hidden") continue;
    if (box.left < -0.5 || box.right > width + 0.5) {
      out.push(el.tagName.toLowerCase() + "." + String(el.className).trim().split(/\\s+/).join(".") +
        " " + Math.round(box.left) + ".." + Math.round(box.right));
    }
  }
  return out;
}"""


def open_page(browser: Browser, live_server: LiveServer, width: int, height: int, path: str = "/") -> Page:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(live_server.url + path)
    return page


def assert_fits(page: Page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scroll
    assert page.evaluate(STICKING_OUT) == []


@pytest.mark.parametrize(("name", "width", "height"), [("phone", *PHONE), ("desktop", *DESKTOP)])
def test_both_boards_show_every_piece_and_fit_the_screen(
    browser: Browser, live_server: LiveServer, name: str, width: int, height: int
) -> None:
    page = open_page(browser, live_server, width, height)
    try:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"home-{name}.png"), full_page=True)
        assert page.locator(".board .square").count() == 64
        assert page.locator(".board [data-pawn]").count() == 16
        e1 = page.locator('.board [data-square="e1"] .pawn')
        assert e1.is_visible()
        assert e1.text_content() == "A\u2665"
        two, four = page.locator(".rh-board").nth(0), page.locator(".rh-board").nth(1)
        assert two.locator(".rh-square").count() == four.locator(".rh-square").count() == 25  # RH1
        assert two.locator("[data-piece]").count() == 6  # RH4
        assert four.locator("[data-piece]").count() == 8  # RH32
        assert page.locator('.rh-board [data-square="e5"] [data-piece="NE"]').is_visible()
        assert_fits(page, width)
        for board in (page.locator(".board"), two):
            square = board.locator('[data-square="a1"]').bounding_box()
            assert square is not None
            assert abs(square["width"] - square["height"]) < 1
            assert square["width"] >= 30  # big enough to read and tap on a phone
    finally:
        page.close()


def test_the_games_sit_side_by_side_on_a_desktop(browser: Browser, live_server: LiveServer) -> None:
    page = open_page(browser, live_server, *DESKTOP)
    try:
        ace = page.locator("#ace-in-the-hole").bounding_box()
        rhombus = page.locator("#rhombus").bounding_box()
        assert ace is not None and rhombus is not None
        assert abs(ace["y"] - rhombus["y"]) < 1 and rhombus["x"] > ace["x"] + ace["width"]
    finally:
        page.close()


@pytest.mark.parametrize("path", ["/rules/ace-in-the-hole/", "/rules/rhombus/"])
@pytest.mark.parametrize(("name", "width", "height"), [("phone", *PHONE), ("desktop", *DESKTOP)])
def test_the_rules_pages_fit_the_screen(
    browser: Browser, live_server: LiveServer, path: str, name: str, width: int, height: int
) -> None:
    page = open_page(browser, live_server, width, height, path)
    try:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"rules-{path.split('/')[2]}-{name}.png"), full_page=True)
        assert page.locator("h3 .rule-ref").count() >= 7  # every section cites its rules
        assert_fits(page, width)
    finally:
        page.close()


def test_the_play_and_rules_links_work(browser: Browser, live_server: LiveServer) -> None:
    page = open_page(browser, live_server, *DESKTOP)
    try:
        page.locator("#rhombus").get_by_role("link", name="The rules in brief").click()
        page.wait_for_url("**/rules/rhombus/")
        assert page.locator(".rh-board").count() == 2  # two players (RH4) and four (RH32)
        assert page.locator(".rh-board").nth(1).locator("[data-piece]").count() == 8
        page.get_by_role("link", name="Play in the lobby").click()
        page.wait_for_url("**/lobby/")
    finally:
        page.close()


def test_pieces_and_pawns_are_coloured_by_side(browser: Browser, live_server: LiveServer) -> None:
    page = open_page(browser, live_server, 800, 900)
    try:
        colour = "el => getComputedStyle(el).backgroundColor"
        red = page.locator('[data-pawn="AH"]').evaluate(colour)
        black = page.locator('[data-pawn="AS"]').evaluate(colour)
        assert red == "rgb(192, 38, 45)"
        assert black == "rgb(35, 37, 42)"
        sw = page.locator('[data-piece="SW"]').first.evaluate(colour)
        ne = page.locator('[data-piece="NE"]').first.evaluate(colour)
        assert sw == "rgb(192, 38, 45)" and ne == "rgb(31, 95, 176)"  # rhombus.css, two players
        two, four = page.locator(".rh-board").nth(0), page.locator(".rh-board").nth(1)
        corner = two.locator('[data-square="e1"]').evaluate(colour)
        assert corner == "rgb(154, 154, 154)"  # a grey start square (RH2)
        frame = "el => getComputedStyle(el, '::before').borderTopColor"
        # SE's corner is framed in its seat's colour only when SE plays (RH3, RH31).
        assert two.locator('[data-square="e1"]').evaluate(frame) == "rgba(0, 0, 0, 0)"
        assert four.locator('[data-square="e1"]').evaluate(frame) == "rgb(31, 95, 176)"
        assert four.locator('[data-piece="NE"]').first.evaluate(colour) == "rgb(168, 90, 0)"  # partner of SW, dark enough for white text
    finally:
        page.close()
