"""Watching and following in real Chromium against a real daphne (issue 26's
"done when"): a visitor finds a running game on the home page and watches it
move; TV goes on to the next game when its game ends; a player follows another
and finds that player's game at the top of the live list."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from games import finishing, starting
from games.models import Game
from ladder.models import Player
from tests.helpers import ARTIFACTS
from tests.live.conftest import move

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


def new_game(red: str, black: str, rating: int) -> Game:
    """A game between two players (made if need be) rated ``rating`` on the ladder."""
    users = []
    for name in (red, black):
        user, _ = get_user_model().objects.get_or_create(username=name)
        Player.objects.update_or_create(user=user, defaults={"rating": rating})
        users.append(user)
    return starting.start_game(*users)


def page_for(browser: Browser, base: str, cookie: str | None = None) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    if cookie:
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    page = context.new_page()
    page.on("pageerror", lambda error: SCRIPT_ERRORS.append(str(error)))
    return page


SCRIPT_ERRORS: list[str] = []


@pytest.fixture(autouse=True)
def no_script_errors() -> Any:
    """Every page's script ran without an error (a missing catalog once broke TV)."""
    SCRIPT_ERRORS.clear()
    yield
    assert SCRIPT_ERRORS == []


def test_a_visitor_finds_a_running_game_on_the_home_page_and_watches_it_move(
    daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any],
) -> None:
    game = orm(new_game, "ann", "ben", 1800)
    page = page_for(chromium_browser, daphne_server)
    page.goto(daphne_server + "/")
    panel = page.locator("[data-live]")
    expect(panel).to_have_attribute("data-state", "live")
    board = panel.locator(f'[data-list="all/all/0/6"] [data-game="{game.pk}"]')
    expect(board).to_have_attribute("data-ply", "0")
    expect(board.locator(".live-pawn")).to_have_count(16)  # R3: eight pawns a side
    expect(board).to_contain_text("ann")
    before = board.locator("[data-board]").inner_html()

    orm(move, game.pk)
    expect(board).to_have_attribute("data-ply", "1")
    assert board.locator("[data-board]").inner_html() != before

    board.get_by_role("link", name="Watch", exact=True).click()
    page.wait_for_url(re.compile(rf".*/games/{game.pk}/$"))
    expect(page.locator("#game")).to_have_attribute("data-state", "live")
    expect(page.locator("#game")).to_have_attribute("data-seat", "")
    page.context.close()


def test_tv_goes_on_to_the_next_best_game_when_its_game_ends(
    daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any],
) -> None:
    second = orm(new_game, "ann", "ben", 1600)
    best = orm(new_game, "cat", "dan", 2100)
    page = page_for(chromium_browser, daphne_server)
    page.goto(daphne_server + "/tv/ace/")
    screen = page.locator('[data-list="ace/all/0/1"]')
    expect(page.locator("[data-live]")).to_have_attribute("data-state", "live")
    expect(screen.locator("[data-game]")).to_have_attribute("data-game", str(best.pk))
    expect(screen).to_contain_text("cat")

    orm(lambda: finishing.resign(best.pk, best.seat("red").user))
    expect(screen.locator("[data-game]")).to_have_attribute("data-game", str(second.pk))
    expect(screen).to_contain_text("ann")
    page.context.close()


def test_a_player_follows_another_and_sees_their_game_at_the_top_of_the_live_list(
    cookies: dict[str, str], daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any],
) -> None:
    top = orm(new_game, "cat", "dan", 2300)
    bobs = orm(new_game, "bob", "eve", 1300)
    page = page_for(chromium_browser, daphne_server, cookies["alice"])
    page.goto(daphne_server + "/@/bob/")
    page.get_by_role("button", name="Follow bob").click()
    expect(page.get_by_role("button", name="Unfollow bob")).to_be_visible()

    page.goto(daphne_server + "/games/live/")
    expect(page.locator("[data-live]")).to_have_attribute("data-state", "live")
    followed = page.locator(f'[data-following] [data-game="{bobs.pk}"]')
    expect(followed).to_be_visible()
    listed = page.locator('[data-list] [data-game]').first
    expect(listed).to_have_attribute("data-game", str(top.pk))  # the list itself: best rated first
    assert followed.bounding_box()["y"] < listed.bounding_box()["y"]  # type: ignore[index]

    # Bob's next game shows up there live, without reloading.
    orm(lambda: finishing.resign(bobs.pk, bobs.seat("red").user))
    expect(followed).to_have_count(0)
    expect(page.locator("[data-following-empty]")).to_be_visible()
    again = orm(new_game, "bob", "fay", 1300)
    expect(page.locator(f'[data-following] [data-game="{again.pk}"]')).to_be_visible()
    page.context.close()


def test_the_live_pages_fit_a_phone(daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    game = orm(new_game, "ann", "ben", 1800)
    orm(lambda: starting.start_game(*[orm_user(name) for name in ("r1", "r2")], setup=starting.Setup("rhombus")))
    context = chromium_browser.new_context(viewport={"width": 375, "height": 740})
    page = context.new_page()
    page.on("pageerror", lambda error: SCRIPT_ERRORS.append(str(error)))
    for path in ("/", "/games/live/", "/tv/"):
        page.goto(daphne_server + path)
        expect(page.locator(f'[data-game="{game.pk}"] [data-board] .live-pawn').first).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, path
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"live-phone{path.replace('/', '-').rstrip('-') or '-home'}.png"))
    context.close()


def orm_user(name: str) -> Any:
    user, _ = get_user_model().objects.get_or_create(username=name)
    return user
