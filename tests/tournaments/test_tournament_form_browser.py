"""The organizer's form in Chromium (issue 22, finding 15): the browser's zone
is detected and shown, only the chosen format's settings are shown, and
without JavaScript the form still works, in UTC."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, BrowserContext, expect
from pytest_django.live_server_helper import LiveServer

from tournaments.models import Tournament
from tests.games.conftest import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cookie(organizer: Any) -> str:
    """Made before Playwright's loop takes the thread."""
    return session_cookie(organizer)


def signed_in(browser: Browser, base: str, cookie: str, **options: Any) -> BrowserContext:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, **options)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context


def test_the_form_reads_times_in_the_browsers_zone_and_shows_the_chosen_formats_settings(
        cookie: str, live_server: LiveServer, browser: Browser, orm: Callable[..., Any]) -> None:
    page = signed_in(browser, live_server.url, cookie, timezone_id="Europe/Paris").new_page()
    page.goto(f"{live_server.url}/tournaments/new/")
    page.wait_for_url(re.compile(r"tz=Europe%2FParis"))
    expect(page.locator("#tournament-form-zone")).to_have_text("Times are in Europe/Paris.")
    expect(page.locator("input[name=rounds]")).to_be_visible()
    expect(page.locator("select[name=match_length]")).to_be_hidden()
    page.select_option("select[name=format]", "single")
    expect(page.locator("input[name=rounds]")).to_be_hidden()
    expect(page.locator("select[name=match_length]")).to_be_visible()
    expect(page.locator("input[name=check_in_minutes]")).to_be_visible()
    expect(page.locator("input[name=grand_final_reset]")).to_be_hidden()
    page.fill("input[name=name]", "Paris Cup")
    page.fill("input[name=starts_at]", "2099-01-10T12:00")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    t = orm(lambda: Tournament.objects.get(name="Paris Cup"))
    assert (t.format, t.starts_at) == ("single", datetime(2099, 1, 10, 11, 0, tzinfo=UTC))


def test_without_javascript_every_setting_is_shown_and_times_are_utc(
        cookie: str, live_server: LiveServer, browser: Browser, orm: Callable[..., Any]) -> None:
    page = signed_in(browser, live_server.url, cookie, java_script_enabled=False,
                     timezone_id="Europe/Paris").new_page()
    page.goto(f"{live_server.url}/tournaments/new/?preset=round-robin")
    expect(page.locator("#tournament-form-zone")).to_have_text("Times are in UTC.")
    for name in ("rounds", "check_in_minutes", "double_round_robin"):
        expect(page.locator(f"input[name={name}]")).to_be_visible()
    page.fill("input[name=name]", "Plain Robin")
    page.fill("input[name=starts_at]", "2099-01-10T12:00")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    t = orm(lambda: Tournament.objects.get(name="Plain Robin"))
    assert (t.format, t.max_players, t.starts_at) == ("round-robin", 8, datetime(2099, 1, 10, 12, 0, tzinfo=UTC))
