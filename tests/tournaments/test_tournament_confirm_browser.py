"""In Chromium (issue 22, finding 16): one click on "Cancel the tournament"
no longer cancels it; "No, go back" leaves it upcoming, and "Yes" cancels it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from tournaments.models import Tournament
from tests.games.conftest import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def ready(organizer: Any, tournament: Callable[..., Tournament]) -> tuple[str, int]:
    """The organizer's session and an upcoming tournament, made before Playwright's loop takes the thread."""
    return session_cookie(organizer), tournament(name="Spring Cup").pk


def test_cancelling_a_tournament_takes_a_second_click(
        ready: tuple[str, int], live_server: LiveServer, browser: Browser, orm: Callable[..., Any]) -> None:
    cookie, tournament_id = ready
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])
    page = context.new_page()
    status = lambda: orm(lambda: Tournament.objects.get(pk=tournament_id).status)  # noqa: E731
    page.goto(f"{live_server.url}/tournaments/{tournament_id}/")
    page.get_by_role("button", name="Cancel the tournament").click()
    expect(page.get_by_text("Cancel this tournament for good?")).to_be_visible()
    assert status() == "upcoming"
    page.get_by_role("link", name="No, go back").click()
    expect(page.get_by_role("button", name="Cancel the tournament")).to_be_visible()
    assert status() == "upcoming"
    page.get_by_role("button", name="Cancel the tournament").click()
    page.get_by_role("button", name="Yes, cancel it").click()
    expect(page.locator(".messages")).to_contain_text("The tournament is cancelled.")
    assert status() == "cancelled"
