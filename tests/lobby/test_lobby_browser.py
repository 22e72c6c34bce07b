"""Two players in real Chromium against a real daphne: one seeks, the other accepts, both go to the game."""

from __future__ import annotations

import re
import pytest
from django.conf import settings
from playwright.sync_api import Browser, BrowserContext

from tests.helpers import ARTIFACTS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

GAME_URL = re.compile(r".*/games/(\d+)/$")


def logged_in(browser: Browser, base_url: str, cookie: str) -> BrowserContext:
    """A browser context holding a real session, as after signing in."""
    context = browser.new_context(viewport={"width": 900, "height": 800})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base_url}])
    return context


def test_a_seek_is_seen_live_and_accepting_sends_both_players_to_the_game(
        daphne_server: str, cookies: dict[str, str], browser: Browser) -> None:
    # The fixture order matters: users and sessions are written before Playwright's
    # event loop starts, and daphne outlives the browser.
    alice_page = logged_in(browser, daphne_server, cookies["alice"]).new_page()
    bob_page = logged_in(browser, daphne_server, cookies["bob"]).new_page()
    bob_page.goto(daphne_server + "/lobby/")  # Bob is watching before Alice seeks
    bob_page.locator("[data-seeks-empty]").wait_for(state="visible")
    alice_page.goto(daphne_server + "/lobby/")
    alice_page.get_by_text("5+3", exact=True).click()
    alice_page.get_by_role("button", name="Create seek").click()
    alice_page.locator("tr.seek--mine").get_by_role("button", name="Cancel").wait_for()

    row = bob_page.locator("tr.seek", has_text="alice")
    row.wait_for(timeout=10_000)
    assert "5+3" in row.inner_text() and "Rated" in row.inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    bob_page.screenshot(path=str(ARTIFACTS / "lobby-seek.png"), full_page=True)
    row.get_by_role("button", name="Accept").click()

    bob_page.wait_for_url(GAME_URL, timeout=10_000)
    alice_page.wait_for_url(GAME_URL, timeout=10_000)
    assert alice_page.url == bob_page.url
    assert alice_page.url.startswith(daphne_server + "/games/")
