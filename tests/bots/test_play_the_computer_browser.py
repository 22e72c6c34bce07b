"""In Chromium: pick "Play the computer" in the lobby, make moves, see the bot answer."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

import engine
from games.models import Game
from tests.bots.conftest import Worker
from tests.games.conftest import session_cookie
from tests.helpers import ARTIFACTS
from tests.seats import seated

pytestmark = pytest.mark.django_db(transaction=True)


def a_legal_action(game_id: int) -> str:
    return str(engine.legal_actions(engine.from_json(Game.objects.get(pk=game_id).position))[0])


# A seed on which the greedy bot does not win by aces (R15) within the six
# plies below against the first legal action: on one seed in five it does.
SEED = "computer-browser-0"


def reseed(game_id: int) -> None:
    """Give the fresh game a known shuffle, before anyone has moved."""
    Game.objects.filter(pk=game_id, ply=0).update(
        seed=SEED, commitment=engine.commitment(SEED), position=dict(engine.to_json(engine.new_game(SEED))))


def ply_of(page: Page) -> int:
    return int(page.locator("#game").get_attribute("data-ply") or "-1")


@pytest.fixture
def cookie(alice: Any) -> str:
    """Alice's session, made before Playwright's loop takes the thread."""
    return session_cookie(alice)


def test_a_player_picks_play_the_computer_moves_and_the_bot_answers(
        alice: Any, cookie: str, bot_accounts: dict[str, Any], workers: Callable[..., Worker],
        daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    workers("browser")
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": daphne_server}])
    page = context.new_page()
    page.goto(f"{daphne_server}/lobby/")
    page.select_option("#computer-level", "greedy")
    page.select_option("#computer-colour", "red")
    page.select_option("#computer-time", "10+5")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "lobby-computer.png"), full_page=True)
    page.get_by_role("button", name="Play the computer").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    orm(reseed, game_id)
    page.reload()
    expect(page.locator("#game-status")).to_have_text("Your turn")
    expect(page.locator('[data-player="black"] [data-bot]')).to_have_text("BOT")
    expect(page.locator('[data-player="red"] [data-bot]')).to_have_count(0)

    for _ in range(3):
        before = ply_of(page)
        page.locator("#notation-input").fill(orm(a_legal_action, game_id))
        page.locator("#notation-input").press("Enter")
        expect(page.locator("#game")).to_have_attribute("data-ply", str(before + 1))
        expect(page.locator("#game-status")).to_have_text("bot-greedy (computer) is thinking…")
        expect(page.locator("#game")).to_have_attribute("data-bot", "thinking")
        expect(page.locator("#game")).to_have_attribute("data-ply", str(before + 2), timeout=15_000)
        expect(page.locator("#game-status")).to_have_text("Your turn")
    expect(page.locator("#moves .moves__move--black:not(:empty)")).to_have_count(3)  # the bot's three answers
    page.screenshot(path=str(ARTIFACTS / "play-the-computer.png"), full_page=True)
    game = orm(lambda: seated(Game.objects.get(pk=game_id)))
    assert (game.ply, game.seat("black").user.username, game.user_id_at("red")) == (6, "bot-greedy", alice.pk)
