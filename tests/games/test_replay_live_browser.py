"""The replay page of a running game follows it live, in real Chromium against a real daphne.

Moves made after the page loaded arrive over the game socket (as a spectator
sees them) and are appended as new steps; a viewer who stepped back stays
where they are; no step ever holds a hand; and when the game ends the page
reloads into the finished replay, with both hands and the checked seed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

import engine
from games import finishing, moving
from games.models import Game
from tests.games.test_records import play_moves
from tests.games.test_replay_browser import board_on_page
from tests.helpers import ARTIFACTS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

STARTED_WITH = 3  # plies played before anyone opens the replay


@pytest.fixture
def running(game: Game, alice: Any, bob: Any) -> Game:
    return play_moves(game, {"red": alice, "black": bob}, STARTED_WITH, random.Random(11))


def open_replay(browser: Browser, base: str, game: Game, cookie: str | None) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    if cookie is not None:
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    page = context.new_page()
    page.goto(f"{base}/games/{game.pk}/replay/")
    expect(page.locator("[data-replay]")).to_have_attribute("data-live", "on")
    return page


def next_move(game_id: int) -> tuple[str, int]:
    """Play the mover's first legal action, as the mover; (its canonical text, the new ply)."""
    game = Game.objects.get(pk=game_id)
    action = engine.legal_actions(engine.from_json(game.position))[0]
    mover = game.seat("red").user if game.to_move == "red" else game.seat("black").user
    game = moving.submit(game.pk, mover, game.ply, str(action))
    return str(game.moves.get(ply=game.ply - 1).action), game.ply


def board(game_id: int) -> dict[str, str]:
    return dict(Game.objects.get(pk=game_id).position["board"])


def hand(game_id: int, seat: str) -> list[str]:
    return list(Game.objects.get(pk=game_id).position["hands"][seat])


def seat_name(ply: int) -> str:
    return "Red" if ply % 2 else "Black"


def test_the_replay_of_a_running_game_appends_moves_as_they_are_played(
    running: Game, cookies: dict[str, str], daphne_server: str, chromium_browser: Browser,
    orm: Callable[..., Any],
) -> None:
    watcher = open_replay(chromium_browser, daphne_server, running, cookies["charlie"])
    label = watcher.locator("[data-step-label]")
    expect(label).to_have_text(re.compile(rf"^Step {STARTED_WITH} of {STARTED_WITH}: Red "))
    expect(watcher.locator("[data-live-note]")).to_have_text("Live: new moves appear as they are played.")

    # A move is played: the watcher at the latest step is taken to it.
    action, ply = orm(next_move, running.pk)
    expect(label).to_have_text(f"Step {ply} of {ply}: {seat_name(ply)} {action}")
    expect(watcher.locator(".replay__move.is-current")).to_have_text(action)
    assert board_on_page(watcher) == orm(board, running.pk)
    expect(watcher.locator(".replay__list li")).to_have_count(2)  # Black's move completes turn 2

    # Someone looking back at the start stays there while the game goes on...
    watcher.keyboard.press("Home")
    action, ply = orm(next_move, running.pk)
    expect(watcher.locator(f'.replay__move[data-step="{ply}"]')).to_have_text(action)
    expect(label).to_have_text(f"Step 0 of {ply}: start")
    expect(watcher.locator(".replay__list li")).to_have_count(3)  # Red opens turn 3
    # ...and finds the new step there when they step forward to it.
    watcher.keyboard.press("End")
    expect(label).to_have_text(f"Step {ply} of {ply}: {seat_name(ply)} {action}")
    assert board_on_page(watcher) == orm(board, running.pk)
    watcher.keyboard.press("ArrowLeft")
    expect(label).to_have_text(re.compile(rf"^Step {ply - 1} of {ply}: {seat_name(ply - 1)} "))
    expect(watcher.locator("[data-hand]")).to_have_count(0)  # hands stay hidden while it runs (R18)
    ARTIFACTS.mkdir(exist_ok=True)
    watcher.screenshot(path=str(ARTIFACTS / "replay-live.png"), full_page=True)
    watcher.context.close()


def test_a_player_on_the_replay_page_never_sees_a_hand_and_the_end_reveals_them(
    running: Game, cookies: dict[str, str], alice: Any, daphne_server: str, chromium_browser: Browser,
    orm: Callable[..., Any],
) -> None:
    # Alice is a player: her socket is sent her own hand, which the replay must not keep.
    page = open_replay(chromium_browser, daphne_server, running, cookies["alice"])
    orm(next_move, running.pk)
    action, ply = orm(next_move, running.pk)
    expect(page.locator("[data-step-label]")).to_have_text(f"Step {ply} of {ply}: {seat_name(ply)} {action}")
    words = set(page.locator("body").inner_text().split())
    assert words.isdisjoint(orm(hand, running.pk, "red")), "Red's hand leaked onto the replay page"
    assert words.isdisjoint(orm(hand, running.pk, "black"))
    expect(page.locator("[data-hand]")).to_have_count(0)

    # The game ends: the page turns into the finished replay, hands and seed shown.
    orm(finishing.resign, running.pk, alice)
    expect(page.locator(".replay__fairness .check")).to_have_text("checked ✓")
    seed = orm(lambda: Game.objects.get(pk=running.pk).seed)
    expect(page.locator(".replay__fairness")).to_contain_text(seed)
    red = orm(hand, running.pk, "red")
    expect(page.locator('[data-hand="red"] [data-card]')).to_have_count(len(red))
    assert page.locator('[data-hand="red"] [data-card]').evaluate_all("cards => cards.map(c => c.dataset.card)") == red
    expect(page.locator(".replay__result")).to_contain_text("bob (black) won by resignation (R17)")
    expect(page.locator("[data-replay]")).not_to_have_attribute("data-live-socket", re.compile(".*"))
    expect(page.locator("[data-step-label]")).to_have_text(re.compile(rf"^Step {ply} of {ply}"))
    page.context.close()
