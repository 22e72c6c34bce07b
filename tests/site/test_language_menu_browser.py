"""The footer's language menu, the saved language and the time zone in a real browser
(Debian's Chromium, driven by Playwright). Each browser context is a fresh browser:
its own cookies, its own Accept-Language (``locale``) and its own time zone."""

from __future__ import annotations

from datetime import datetime, timezone
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from pytest_django.live_server_helper import LiveServer

from tournaments.models import Tournament
from preferences.models import Preference
from tests.conftest import make_user
from tests.helpers import ARTIFACTS

pytestmark = pytest.mark.usefixtures("transactional_db")


def html_lang(page: Page) -> str:
    return page.evaluate("document.documentElement.lang")


def cookie(context: BrowserContext, name: str) -> str | None:
    return next((c["value"] for c in context.cookies() if c["name"] == name), None)


def sign_in(page: Page, live_server: LiveServer, username: str) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.fill('input[name="login"]', username)
    page.fill('input[name="password"]', "password")
    page.locator('form[action="/accounts/login/"] button[type="submit"]').click()
    page.wait_for_url(live_server.url + "/")


def test_a_visitor_switches_language_at_once_and_keeps_it(browser: Browser, live_server: LiveServer) -> None:
    context = browser.new_context(locale="de-DE")
    try:
        page = context.new_page()
        page.goto(live_server.url + "/rules/rhombus/")
        assert html_lang(page) == "de"
        assert page.locator('.language-menu button[aria-current="true"]').text_content() == "Deutsch"

        page.locator(".language-menu").get_by_role("button", name="Español").click()
        page.wait_for_load_state()
        assert page.url == live_server.url + "/rules/rhombus/"  # back on the same page
        assert html_lang(page) == "es"
        assert page.locator('.language-menu button[aria-current="true"]').text_content() == "Español"
        assert cookie(context, "django_language") == "es"

        page.goto(live_server.url + "/rules/ace-in-the-hole/")  # remembered over the browser's German
        assert html_lang(page) == "es"
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator(".footer").screenshot(path=str(ARTIFACTS / "language-menu.png"))
    finally:
        context.close()


def test_a_players_saved_language_follows_them_to_a_new_browser(
    browser: Browser, live_server: LiveServer, orm: Callable[..., Any], django_user_model: Any
) -> None:
    alice = orm(make_user, django_user_model, "alice")
    first = browser.new_context(locale="en-GB")
    try:
        page = first.new_page()
        sign_in(page, live_server, "alice")
        page.locator(".language-menu").get_by_role("button", name="Русский").click()
        page.wait_for_load_state()
        assert html_lang(page) == "ru"
    finally:
        first.close()
    assert orm(lambda: Preference.objects.get(user=alice).language) == "ru"

    second = browser.new_context(locale="de-DE")  # another device, a German browser
    try:
        page = second.new_page()
        page.goto(live_server.url + "/")
        assert html_lang(page) == "de"
        sign_in(page, live_server, "alice")
        assert html_lang(page) == "ru"
        assert cookie(second, "django_language") == "ru"
    finally:
        second.close()


def test_tournament_times_are_shown_in_the_browsers_zone(
    browser: Browser, live_server: LiveServer, orm: Callable[..., Any], django_user_model: Any
) -> None:
    alice = orm(make_user, django_user_model, "alice")
    cup = orm(lambda: Tournament.objects.create(
        name="Winter Cup", organizer=alice, pause_seconds=0, time_control="5+3",
        starts_at=datetime(2031, 1, 15, 12, 0, tzinfo=timezone.utc)))
    context = browser.new_context(locale="en-US", timezone_id="America/New_York")
    try:
        page = context.new_page()
        page.goto(live_server.url + cup.get_absolute_url())
        page.wait_for_function("document.cookie.includes('tz=')")
        assert cookie(context, "tz") == "America/New_York"
        page.reload()
        status = page.locator("#tournament-status time").first
        assert status.text_content() == "15 Jan 2031 07:00 America/New_York"
    finally:
        context.close()
