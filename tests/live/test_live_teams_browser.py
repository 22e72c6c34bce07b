"""A 4-player game on the live list, the home page and TV reads as two teams
with their seats, "SW alice & NE bot-greedy+2 vs SE bot-greedy & NW
bot-greedy+3", each name whole (issue 35, 4: it read "bot-gree…" three times,
without seats or teams). In German, Spanish and Russian at phone width, in
real Chromium against daphne: what static/js/live.js draws from the socket's
cards; tests/live/test_live_teams.py reads the server's HTML."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, expect

from games import starting
from games.models import Game
from tests.conftest import make_user
from tests.helpers import ARTIFACTS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

VERSUS = {"de": "gegen", "es": "contra", "ru": "против"}
NAMES = ("alice", "bot-greedy", "bot-greedy+2", "bot-greedy+3")  # SW, SE, NE, NW (RH31)


def team_game(django_user_model: Any) -> Game:
    users = [make_user(django_user_model, name) for name in NAMES]
    return starting.start_game(*users, seed="live-teams", setup=starting.Setup("rhombus"))


def names_are_whole(board: Locator) -> None:
    """No name is cut short ("bot-gree…"): each link shows all of its text."""
    cut = board.locator(".live-board__player a").evaluate_all(
        "links => links.filter((a) => a.scrollWidth > a.clientWidth).map((a) => a.textContent)")
    assert cut == []


@pytest.mark.parametrize("language", ["de", "es", "ru"])
def test_a_team_game_reads_as_two_teams_with_their_seats(
    language: str, django_user_model: Any, daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any],
) -> None:
    game = orm(team_game, django_user_model)
    page = chromium_browser.new_context(locale=language, viewport={"width": 390, "height": 844}).new_page()
    for path in ("/games/live/", "/", "/tv/rhombus-4/"):
        page.goto(daphne_server + path)
        expect(page.locator("[data-live]")).to_have_attribute("data-state", "live")
        board = page.locator(f'[data-game="{game.pk}"]').first
        expect(board.locator(".live-board__players")).to_have_attribute("data-seated", re.compile("SW alice"))
        teams = board.locator(".live-board__team")
        expect(teams).to_have_count(2)
        expect(teams.nth(0)).to_have_attribute("data-side", "SW+NE")
        expect(teams.nth(0)).to_have_text(re.compile(r"^SW alice\s.*&\s*NE bot-greedy\+2\s"))
        expect(teams.nth(1)).to_have_text(re.compile(r"^SE bot-greedy\s.*&\s*NW bot-greedy\+3\s"))
        expect(board.locator(".live-board__versus")).to_have_text(VERSUS[language])
        expect(board.locator(".live-board__player [data-clock]")).to_have_count(4)  # each seat's clock, running
        names_are_whole(board)
    ARTIFACTS.mkdir(exist_ok=True)
    board.screenshot(path=str(ARTIFACTS / f"live-team-game-{language}-phone.png"))
    page.context.close()
