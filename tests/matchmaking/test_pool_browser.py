"""Quick pairing in real Chromium: two players press "Play rated 5+3" in the lobby, a real
Celery worker pairs them, they play by clicking, one resigns, and both see their new
ratings on the leaderboard and the chart on their profiles.

Everything is real: daphne (HTTP + websockets), PostgreSQL, the Redis channel
layer and broker, and a worker running ladder.tasks.match_pool.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

from games.models import Game
from ladder.models import PoolEntry
from tests.games.conftest import session_cookie
from tests.gamepage.test_game_page_browser import first_move, play_by_clicking
from tests.helpers import ARTIFACTS
from tests.seats import seated

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory
    (the pool is rows, paired by each test's own worker)."""
    return shared_daphne_server


DESKTOP = {"width": 1280, "height": 900}


def signed_in(browser: Browser, base: str, cookie: str) -> Page:
    context = browser.new_context(viewport=DESKTOP)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context.new_page()


def the_game(user_id: int) -> Game:
    """The one game of ``user_id``, whichever seat."""
    return seated(Game.objects.get(seats__user_id=user_id))


def test_two_players_press_play_rated_are_paired_play_and_see_their_new_ratings(
        alice: Any, bob: Any, workers: Callable[[int], list[Path]], daphne_server: str,
        chromium_browser: Browser, orm: Callable[..., Any]) -> None:  # noqa: F811
    workers(1)
    base = daphne_server
    pages = {user.username: signed_in(chromium_browser, base, orm(session_cookie, user)) for user in (alice, bob)}
    for page in pages.values():
        page.goto(f"{base}/lobby/")

    # Alice waits first: she sees her window and the time waited counting up.
    ada = pages["alice"]
    expect(ada.locator("[data-pool-join]")).to_have_count(4)  # 1+0, 3+2, 5+3, 10+5: real time only
    # The game to play: Ace in the Hole unless another is chosen.
    expect(ada.locator("[data-pool]").get_by_role("radio", name="Ace in the Hole")).to_be_checked()
    ARTIFACTS.mkdir(exist_ok=True)
    ada.screenshot(path=str(ARTIFACTS / "pool-buttons.png"))
    ada.get_by_role("button", name="Play rated 5+3").click()
    waiting = ada.locator("[data-pool-waiting]")
    expect(waiting).to_be_visible()
    expect(waiting.locator("[data-pool-rules]")).to_have_text("Ace in the Hole")
    expect(waiting.locator("[data-pool-control]")).to_have_text("5+3")
    expect(waiting.locator("[data-pool-window]")).to_have_text("1400–1600 (±100)")
    expect(waiting.locator("[data-pool-waited]")).not_to_have_text("0:00", timeout=3000)
    expect(ada.get_by_role("button", name="Play rated 5+3")).to_be_hidden()
    ada.screenshot(path=str(ARTIFACTS / "pool-waiting.png"), full_page=True)

    # Bob presses the same button: the worker pairs them and both land on the game.
    pages["bob"].get_by_role("button", name="Play rated 5+3").click()
    for page in pages.values():
        page.wait_for_url(re.compile(r"/games/\d+/$"), timeout=30_000)
        expect(page.locator("#game")).to_have_attribute("data-state", "live")
    game = orm(the_game, alice.pk)
    assert pages["alice"].url == pages["bob"].url == f"{base}/games/{game.pk}/"
    assert game.rated and game.time_control.key == "5+3"
    assert orm(lambda: sorted(PoolEntry.objects.values_list("status", flat=True))) == ["paired", "paired"]
    by_seat = {"red": pages[game.seat("red").user.username], "black": pages[game.seat("black").user.username]}
    expect(by_seat["red"].locator("#game-status")).to_have_text("Your turn")

    for ply in range(4):  # two moves each, by clicking card, pawn, target
        _, card, origin, target = orm(first_move, game.pk)
        play_by_clicking(by_seat["red" if ply % 2 == 0 else "black"], card, origin, target)
        for page in pages.values():
            expect(page.locator("#game")).to_have_attribute("data-ply", str(ply + 1))

    # Black resigns; Red wins. Both start at 1500 (provisional, K = 40, expected ½):
    # the winner gets 1500 + 40 × (1 − ½) = 1520, the loser 1500 − 20 = 1480.
    by_seat["black"].once("dialog", lambda dialog: dialog.accept())
    by_seat["black"].locator('[data-command="resign"]').click()
    for page in pages.values():
        expect(page.locator("#game")).to_have_attribute("data-status", "finished")
    winner, loser = game.seat("red").user.username, game.seat("black").user.username
    expected = {winner: "1520?", loser: "1480?"}

    for name, page in pages.items():
        page.goto(f"{base}/ladder/?show=all")
        rows = page.locator(".ladder__row")
        expect(rows).to_have_count(2)
        expect(rows.nth(0).locator(".ladder__player")).to_contain_text(winner)
        expect(rows.nth(0).locator(".ladder__rating")).to_have_text(expected[winner])
        expect(rows.nth(1).locator(".ladder__rating")).to_have_text(expected[loser])
        expect(page.locator(".ladder__row--me .ladder__rating")).to_have_text(expected[name])
        page.goto(f"{base}/@/{name}/")
        expect(page.locator("[data-rating]")).to_have_text(expected[name])
        expect(page.locator("[data-rating-chart] svg")).to_be_visible()
    pages[winner].screenshot(path=str(ARTIFACTS / "pool-profile-after.png"), full_page=True)
    for page in pages.values():
        page.context.close()


def test_two_players_choose_rhombus_formation_and_are_paired_in_a_rhombus_game(
        alice: Any, bob: Any, charlie: Any, workers: Callable[[int], list[Path]], daphne_server: str,
        chromium_browser: Browser, orm: Callable[..., Any]) -> None:  # noqa: F811
    """Charlie waits at Ace in the Hole 3+2 and is left alone: the pools are per game."""
    workers(1)
    base = daphne_server
    pages = {user.username: signed_in(chromium_browser, base, orm(session_cookie, user))
             for user in (alice, bob, charlie)}
    # Bob comes last: he may be paired with Alice before his page shows him waiting.
    for name in ("alice", "charlie", "bob"):
        page = pages[name]
        page.goto(f"{base}/lobby/")
        pool = page.locator("[data-pool]")
        if name != "charlie":
            pool.get_by_role("radio", name="Rhombus Formation", exact=True).check()
        pool.get_by_role("button", name="Play rated 3+2").click()
        if name != "bob":
            expect(pool.locator("[data-pool-waiting]")).to_be_visible()
    expect(pages["charlie"].locator("[data-pool-rules]")).to_have_text("Ace in the Hole")
    for name in ("alice", "bob"):
        pages[name].wait_for_url(re.compile(r"/games/\d+/$"), timeout=30_000)
    game = orm(the_game, alice.pk)
    assert (game.kind, game.variant, game.players, game.rated) == ("rhombus", "formation", 2, True)
    assert game.time_control.key == "3+2" and pages["bob"].url == f"{base}/games/{game.pk}/"
    expect(pages["charlie"].locator("[data-pool-waiting]")).to_be_visible()
    assert orm(lambda: PoolEntry.objects.get(user=charlie).status) == "waiting"
    for page in pages.values():
        page.context.close()
