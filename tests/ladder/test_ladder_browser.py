"""The leaderboard and a profile's rating chart in a real browser (Debian's Chromium).

Screenshots go to artifacts/ (ladder.png, profile-rating.png) for a person to look at.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from games import finishing, starting
from tests.games.conftest import session_cookie
from tests.helpers import ARTIFACTS
from tests.ladder.conftest import set_player

SEED = "tests-game-seed"


@pytest.fixture
def alices_cookie(alice: Any, bob: Any) -> str:
    """Three rated games and a bot on the ladder, made before the browser's loop runs
    (the ORM refuses to work inside it); Alice's session."""
    # Alice 1480, then 1502; then 1502 beats 1498: E = 0.505756, 40 * 0.494244 = +19.8 -> 1522
    for loser in (alice, bob, bob):
        game = starting.start_game(alice, bob, seed=SEED)
        finishing.resign(game.pk, loser)
    robo = get_user_model().objects.create_user("bot-greedy", None, None)
    set_player(robo, 1700, 80, is_bot=True, bot_level="greedy", last_active=timezone.now())
    return session_cookie(alice)


@pytest.mark.django_db(transaction=True)
def test_alice_finds_herself_on_the_ladder_and_her_rating_chart(
        alices_cookie: str, browser: Browser, live_server: LiveServer) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": alices_cookie,
                          "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(live_server.url + "/")
        page.get_by_role("link", name="Ladder").click()
        page.wait_for_url(live_server.url + "/ladder/")
        names = page.locator(".ladder__player a").all_text_contents()
        assert names == ["bot-greedy", "alice", "bob"]
        assert page.locator('[data-player="bot-greedy"] .badge--bot').is_visible()
        mine = page.locator(".ladder__row--me")
        assert mine.get_attribute("data-player") == "alice" and mine.get_attribute("data-rank") == "2"
        background = "getComputedStyle(document.querySelector('%s')).backgroundColor"
        assert page.evaluate(background % ".ladder__row--me") != page.evaluate(background % '[data-player="bob"]')
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "ladder.png"), full_page=True)

        page.get_by_label("Hide bots").check()
        page.get_by_role("button", name="Show").click()
        page.wait_for_url("**/ladder/?*bots=hide*")
        assert page.locator(".ladder__player a").all_text_contents() == ["alice", "bob"]
        assert page.locator(".ladder__row--me").get_attribute("data-rank") == "1"

        page.get_by_role("link", name="alice").first.click()
        page.wait_for_url(live_server.url + "/@/alice/")
        chart = page.locator("[data-rating-chart] svg")
        box = chart.bounding_box()
        assert box is not None and box["width"] > 400 and box["height"] > 100
        assert page.locator("[data-rating-chart] svg .dot").count() == 4  # 1500, then three games
        assert page.locator("[data-rating]").first.text_content() == "1522?"
        page.screenshot(path=str(ARTIFACTS / "profile-rating.png"), full_page=True)

        page.set_viewport_size({"width": 375, "height": 740})  # a phone: the page fits, the table scrolls
        for path in ("/ladder/", "/@/alice/"):
            page.goto(live_server.url + path)
            wide = page.evaluate("[...document.querySelectorAll('body *')]"  # what sticks out, if anything
                                 ".filter(e => e.getBoundingClientRect().right > 376)"
                                 ".map(e => e.tagName + '.' + e.className).slice(0, 8).join(' ')")
            assert page.evaluate("document.documentElement.scrollWidth") <= 375, (path, wide)
        page.goto(live_server.url + "/ladder/")
        page.screenshot(path=str(ARTIFACTS / "ladder-phone.png"), full_page=True)
    finally:
        context.close()
