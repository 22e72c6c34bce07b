"""In Chromium: a seek drawn live from the lobby socket says what each viewer would play."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

from ladder import seeks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


def lobby_page(browser: Browser, base: str, cookie: str) -> Page:
    context = browser.new_context(viewport={"width": 900, "height": 800})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    page = context.new_page()
    page.goto(base + "/lobby/")
    page.locator("[data-seeks-empty]").wait_for(state="visible")
    return page


def test_a_new_seek_says_black_to_others_and_red_to_its_red_creator(
        alice: Any, cookies: dict[str, str], daphne_server: str, chromium_browser: Browser,
        orm: Callable[..., Any]) -> None:
    alice_page = lobby_page(chromium_browser, daphne_server, cookies["alice"])
    bob_page = lobby_page(chromium_browser, daphne_server, cookies["bob"])
    orm(lambda: seeks.create_seek(alice, "5+3", colour="red"))
    expect(bob_page.locator("thead")).to_contain_text("You play")
    expect(bob_page.locator("tr.seek .seek__colour")).to_have_text("Black")
    expect(alice_page.locator("tr.seek--mine .seek__colour")).to_have_text("Red")
    bob_page.context.close()
    alice_page.context.close()
