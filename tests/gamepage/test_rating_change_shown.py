"""The end of a rated game shows each player's new rating and the change at once
(as lichess does), from the game JSON's ``ratings``: over the socket, and on the
page in real Chromium without a reload."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

from games import finishing, starting
from games.models import Game
from ladder.ratings import undo_game
from tests.games.conftest import cookies, services, sockets  # noqa: F401 (shared fixtures)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

Opener = Any
AFTER_ALICE_RESIGNS = {"red": {"before": 1500, "after": 1480, "change": -20},
                       "black": {"before": 1500, "after": 1520, "change": 20}}


async def test_a_rated_ending_sends_both_new_ratings_to_players_and_spectators(
        game: Game, cookies: dict[str, str], sockets: Opener) -> None:
    red, sync = await sockets(game.pk, cookies["alice"])
    assert sync["game"]["ratings"] is None  # nothing to show while it runs
    black, _ = await sockets(game.pk, cookies["bob"])
    spectator, _ = await sockets(game.pk, cookies["charlie"])
    await red.drain()
    update = await red.request({"type": "resign"})
    assert update["game"]["status"] == "finished"
    assert update["game"]["ratings"] == AFTER_ALICE_RESIGNS
    for other in (black, spectator):
        heard = (await other.drain())[-1]
        assert heard["game"]["ratings"] == AFTER_ALICE_RESIGNS


async def test_a_casual_or_undone_game_has_no_ratings(
        alice: Any, bob: Any, game: Game, cookies: dict[str, str], sockets: Opener) -> None:
    casual = await database_sync_to_async(starting.start_game)(alice, bob, rated=False)
    await database_sync_to_async(finishing.resign)(casual.pk, alice)
    _, sync = await sockets(casual.pk, cookies["charlie"])
    assert sync["game"]["status"] == "finished" and sync["game"]["ratings"] is None

    await database_sync_to_async(finishing.resign)(game.pk, alice)
    _, sync = await sockets(game.pk, cookies["charlie"])
    assert sync["game"]["ratings"] == AFTER_ALICE_RESIGNS
    await database_sync_to_async(undo_game)(game.pk)  # a moderator takes the result back
    _, sync = await sockets(game.pk, cookies["charlie"])
    assert sync["game"]["ratings"] is None


def open_page(browser: Browser, base: str, game: Game, cookie: str) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    page = context.new_page()
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.locator("#game")).to_have_attribute("data-state", "live")
    return page


def test_the_page_shows_the_new_ratings_and_the_change_without_a_reload(
        alice: Any, game: Game, cookies: dict[str, str], daphne_server: str, chromium_browser: Browser,
        orm: Callable[..., Any]) -> None:
    bob = open_page(chromium_browser, daphne_server, game, cookies["bob"])
    red, black = bob.locator('[data-player="red"] [data-rating]'), bob.locator('[data-player="black"] [data-rating]')
    expect(red).to_have_text("1500?")
    bob.evaluate("window.notReloaded = true")
    orm(finishing.resign, game.pk, alice)  # Alice resigns in her own tab
    expect(bob.locator("#game")).to_have_attribute("data-status", "finished")
    expect(red).to_have_text("1480 \u221220")
    expect(black).to_have_text("1520 +20")
    expect(bob.locator('[data-rating-change="black"]')).to_have_class("player__rating-change player__rating-change--up")
    assert bob.evaluate("window.notReloaded") is True
    bob.context.close()
