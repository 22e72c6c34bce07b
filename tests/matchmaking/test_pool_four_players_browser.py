"""Quick pairing with 4 players in real Chromium (issue 13): the 4-player choice is
offered for Rhombus only, four players wait, and a real Celery worker seats them
in one team game with balanced teams. Needs PostgreSQL, Redis and a worker."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from games.models import Game
from ladder.models import Rating
from tests.games.conftest import session_cookie
from tests.matchmaking.test_pool_browser import signed_in

pytestmark = pytest.mark.django_db(transaction=True)
GAME_URL = re.compile(r".*/games/(\d+)/$")
PLAY = re.compile(r"Play rated 5\+3")


def teams_of(game_id: int) -> set[frozenset[str]]:
    seats = {seat.name: seat.user.username for seat in Game.objects.get(pk=game_id).table}
    return {frozenset((seats["SW"], seats["NE"])), frozenset((seats["SE"], seats["NW"]))}


def test_four_players_in_the_pool_land_on_one_balanced_team_game(
        rated: Callable[[str, int], Any], workers: Callable[[int], list[Path]], daphne_server: str,
        chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    def four() -> list[Any]:  # in the orm thread: Playwright's loop already runs in this one
        users = [rated(name, 1500) for name in ("ann", "ben", "cal", "dan")]
        # All within each other's first window (±100): a table forms at once.
        for user, rating in zip(users, (1580, 1500, 1540, 1560)):
            Rating.objects.create(user=user, ladder="rhombus-teams", rating=rating)
        return users

    users = orm(four)
    workers(1)
    pages = {user.username: signed_in(chromium_browser, daphne_server, orm(session_cookie, user)) for user in users}
    for name, page in pages.items():
        page.goto(daphne_server + "/lobby/")
        pool = page.locator("[data-pool-buttons]")
        expect(pool.locator('input[name="pool-players"][value="4"]')).to_be_disabled()  # Ace in the Hole
        pool.get_by_text("Rhombus", exact=True).click()
        pool.get_by_text("4 (Rhombus teams)").click()
        if name != "dan":
            pool.get_by_role("button", name=PLAY).click()
            expect(page.locator("[data-pool-rules]")).to_have_text("Rhombus 4-player", timeout=10_000)
    pages["dan"].locator("[data-pool-buttons]").get_by_role("button", name=PLAY).click()
    for page in pages.values():
        page.wait_for_url(GAME_URL, timeout=20_000)
    assert len({page.url for page in pages.values()}) == 1
    game_id = int(GAME_URL.match(pages["ann"].url).group(1))  # type: ignore[union-attr]
    # Strongest and weakest (1580, 1500) against the middle two (1540, 1560).
    assert orm(teams_of, game_id) == {frozenset(("ann", "ben")), frozenset(("cal", "dan"))}
