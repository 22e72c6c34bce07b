"""In Chromium, on real daphne and Redis: an organizer creates a knockout,
a player joins and checks in from a phone, the organizer starts it, the player
is sent to their game, and the organizer's page shows the result in the
bracket and the pairings as soon as the game ends, without reloading."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, expect

from games import finishing
from tournaments import entering
from tournaments.models import Pairing, Tournament
from tests.games.conftest import session_cookie
from tests.helpers import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def cookies(organizer: Any, alice: Any) -> dict[str, str]:
    """Sessions made before Playwright's loop takes the thread."""
    return {"organizer": session_cookie(organizer), "alice": session_cookie(alice)}


def signed_in(browser: Browser, base: str, cookie: str, viewport: dict[str, int]) -> BrowserContext:
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context


def enter_three_more(tournament_id: int, users: list[Any]) -> None:
    for user in users:
        entering.join(tournament_id, user)
        entering.check_in(tournament_id, user)


def test_an_organizer_runs_a_knockout_and_the_bracket_updates_live(
        cookies: dict[str, str], players: Callable[[int], list[Any]], daphne_server: str,
        chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    others = orm(players, 3)  # rated 1900-1880: seeds 1-3; alice (1500) is seed 4
    organizer = signed_in(chromium_browser, daphne_server, cookies["organizer"], {"width": 1280, "height": 900})
    page = organizer.new_page()
    page.goto(f"{daphne_server}/tournaments/")
    page.get_by_role("link", name="New tournament").click()
    page.fill("input[name=name]", "Browser Cup")
    page.select_option("select[name=format]", "single")
    page.select_option("select[name=time_control]", "5+3")
    page.fill("input[name=starts_at]", (timezone.now() + timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M"))
    page.fill("input[name=check_in_minutes]", "60")  # check-in is open from now
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    tournament_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    expect(page.locator(".messages")).to_contain_text("Browser Cup is open for entries.")
    orm(enter_three_more, tournament_id, others)

    phone = signed_in(chromium_browser, daphne_server, cookies["alice"], PHONE).new_page()
    phone.goto(f"{daphne_server}/tournaments/{tournament_id}/")
    phone.get_by_role("button", name="Join").click()
    expect(phone.locator(".messages")).to_contain_text("You have joined.")
    phone.get_by_role("button", name="Check in").click()
    expect(phone.locator("#tournament-me")).to_contain_text("You are checked in.")
    expect(page.locator('[data-entry="alice"]')).to_have_count(1)  # the organizer's page, live

    page.get_by_role("button", name="Start now").click()
    expect(page.locator("#tournament-status")).to_contain_text("Running · round 1")
    phone.wait_for_url(re.compile(r"/games/\d+/$"), timeout=15_000)  # sent to the game at once
    game_id = int(phone.url.rstrip("/").rsplit("/", 1)[1])
    pairing = orm(lambda: Pairing.objects.select_related("red__user", "black__user").get(game_id=game_id))
    assert (pairing.match, pairing.red.user.username, pairing.black.user.username) == ("W1-1", "p01", "alice")
    expect(page.locator('#bracket [data-match="W1-1"]')).to_contain_text("alice")

    orm(finishing.resign, game_id, others[0])  # seed 1 resigns: alice wins
    expect(phone.locator("#game-status")).to_contain_text("wins by resignation")
    expect(page.locator('#bracket [data-match="W1-1"] .winner')).to_contain_text("alice")
    expect(page.locator(f'[data-round="1"] a[href="/games/{game_id}/"]')).to_have_text("0-1")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "tournament-bracket.png"), full_page=True)
    phone.goto(f"{daphne_server}/tournaments/{tournament_id}/")
    phone.screenshot(path=str(ARTIFACTS / "tournament-phone.png"), full_page=True)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"
    assert orm(lambda: Tournament.objects.get(pk=tournament_id).status) == "running"
