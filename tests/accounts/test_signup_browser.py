"""Signing up in a real browser (Debian's Chromium, driven by Playwright).

The screenshot of the new player's profile goes to artifacts/ for a person to look at.
"""

from __future__ import annotations


from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from tests.helpers import ARTIFACTS


def test_a_visitor_signs_up_and_finds_their_profile(browser: Browser, live_server: LiveServer) -> None:
    page = browser.new_page(viewport={"width": 375, "height": 740})
    try:
        page.goto(live_server.url + "/")
        page.get_by_role("link", name="Sign up").click()
        page.fill('input[name="username"]', "dora")
        page.fill('input[name="email"]', "dora@example.org")
        page.fill('input[name="password1"]', "pawns-and-cards-7")
        page.get_by_role("button", name="Sign Up").click()
        page.wait_for_url(live_server.url + "/")

        user_link = page.locator(".nav__user")
        assert user_link.text_content() == "dora"
        assert page.get_by_role("button", name="Sign out").is_visible()
        user_link.click()
        page.wait_for_url(live_server.url + "/@/dora/")
        assert page.locator("h1").text_content() == "dora"
        assert page.get_by_role("heading", name="Games").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 375  # no sideways scroll
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "profile-after-signup.png"), full_page=True)
    finally:
        page.close()
