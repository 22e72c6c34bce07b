"""A knockout's bracket in Russian, with the site's real catalogs (issue 23).

Erin saved Russian on her account; her browser asks for English. The bracket's
labels (round names, "Winner of W1-1") are drawn on the server in her language,
and stay Russian when the page's script swaps in the live part after a game ends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, expect

from games import finishing
from tournaments import entering, organizing
from tournaments.models import Pairing, Tournament
from preferences.languages import save_language
from tests.games.conftest import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def erin_cookie(erin: Any) -> str:
    save_language(erin, "ru")
    return session_cookie(erin)


@pytest.fixture
def knockout(tournament: Callable[..., Tournament], players: Callable[[int], list[Any]], erin: Any) -> int:
    """A single-elimination tournament of four, started: p01 (seed 1) meets Erin
    (seed 4) in W1-1, p02 meets p03 in W1-2."""
    cup = tournament(format="single")
    for user in [*players(3), erin]:
        entering.join(cup.pk, user)
    organizing.start_early(cup.pk, cup.organizer)
    return int(cup.pk)


def resign_the_second_semi_final(tournament_id: int) -> None:
    pairing = Pairing.objects.select_related("game").get(round__tournament_id=tournament_id, match="W1-2")
    finishing.resign(pairing.game_id, pairing.game.table[1].user)  # p03 resigns: p02 reaches the final


def test_the_bracket_speaks_russian_before_and_after_a_live_update(
        knockout: int, erin_cookie: str, daphne_server: str, chromium_browser: Browser,
        orm: Callable[..., Any]) -> None:
    context = chromium_browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": erin_cookie, "url": daphne_server}])
    page = context.new_page()
    page.goto(f"{daphne_server}/tournaments/{knockout}/")
    expect(page.locator("#tournament")).to_have_attribute("data-state", "live")
    bracket = page.locator("#bracket")
    expect(page.locator("#bracket-title")).to_have_text("Сетка")
    expect(bracket).to_contain_text("Полуфиналы")
    expect(bracket).to_contain_text("Финал")
    expect(bracket).to_contain_text("Победитель W1-1")

    orm(resign_the_second_semi_final, knockout)
    expect(page.locator('#bracket [data-match="W1-2"] .winner')).to_contain_text("p02")  # the script swapped it in
    expect(bracket).to_contain_text("Полуфиналы")
    expect(bracket).to_contain_text("Победитель W1-1")
    expect(bracket).not_to_contain_text("Winner")
    expect(bracket).not_to_contain_text("Semi-finals")
    context.close()
