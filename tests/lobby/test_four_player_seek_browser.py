"""Four players in real Chromium against a real daphne (issue 13): one creates a
4-player Rhombus seek, three join it one by one, everyone at it sees the seats
fill, and the fourth join sends all four to the same game page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers import ARTIFACTS
from tests.lobby.test_lobby_browser import logged_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

GAME_URL = re.compile(r".*/games/(\d+)/$")
NAMES = ("alice", "bob", "charlie", "dave")


def seats_text(page: Page) -> Any:
    return page.locator("tr.seek--team [data-seek-seats]")


def test_four_players_fill_a_seek_seat_by_seat_and_all_land_on_the_game(
        daphne_server: str, cookies: dict[str, str], dave_cookie: str, browser: Browser) -> None:
    # The fixture order matters: users and sessions are written before Playwright's
    # event loop starts, and daphne outlives the browser.
    jar = {**cookies, "dave": dave_cookie}
    pages = [logged_in(browser, daphne_server, jar[name]).new_page() for name in NAMES]
    for page in pages:
        page.goto(daphne_server + "/lobby/")
    alice, *others = pages
    form = alice.locator("[data-seek-form]")
    form.get_by_text("Rhombus", exact=True).click()
    form.get_by_text("5+3", exact=True).click()
    form.get_by_text("4 (Rhombus teams)").click()
    form.get_by_role("button", name="Create seek").click()
    expect(seats_text(alice)).to_have_text("1 of 4 joined: alice", timeout=10_000)

    for count, page in enumerate(others[:2], start=2):
        row = page.locator("tr.seek--team", has_text="alice")
        row.get_by_role("button", name="Join").click()
        joined = ", ".join(NAMES[:count])
        for watcher in pages:  # every page, the joiner's and the others', sees it grow
            expect(seats_text(watcher)).to_have_text(f"{count} of 4 joined: {joined}", timeout=10_000)
        expect(row.get_by_role("button", name="Leave")).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    others[2].screenshot(path=str(ARTIFACTS / "lobby-four-player-seek.png"), full_page=True)

    others[2].locator("tr.seek--team", has_text="alice").get_by_role("button", name="Join").click()
    for page in pages:
        page.wait_for_url(GAME_URL, timeout=15_000)
    assert len({page.url for page in pages}) == 1
    for page in pages:
        expect(page.locator("#game")).to_have_attribute("data-state", "live", timeout=10_000)
