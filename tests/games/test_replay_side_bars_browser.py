"""The 4-player Rhombus replay's side bars (issue 22, finding 21), in Chromium:
once the game is over every hand is shown (RH30), and in the narrow bars left
and right of the board a hand's cards stay on one line instead of wrapping."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from games import finishing, starting
from games.models import Game
from tests.games.test_rhombus_records import play_random, seated
from tests.helpers import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def finished(alice: Any, bob: Any, charlie: Any, dave: Any) -> Game:
    """A 4-player game resigned after 38 random actions from this deal, when Mysteries
    (RH19) have given SE (a side bar) a hand of 3 cards and NW (the other) one of 2."""
    game = starting.start_game(alice, bob, charlie, dave, seed="sb2", setup=starting.Setup("rhombus"))
    game = play_random(game, seated(game), 38, random.Random(2))
    assert {seat: len(info["hand"]) for seat, info in game.position["seats"].items()} == \
        {"SW": 1, "SE": 3, "NE": 1, "NW": 2}
    return finishing.resign(game.pk, game.seat(game.to_move).user)


@pytest.mark.parametrize("width", [1280, 1024])
def test_a_hand_in_a_side_bar_stays_on_one_line(finished: Game, live_server: LiveServer, browser: Browser,
                                                width: int) -> None:
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(f"{live_server.url}/games/{finished.pk}/replay/")
    for place in ("left", "right"):
        hand = page.locator(f".rh-player--{place} [data-hand]")
        expect(hand.locator("[data-hand-card]")).to_have_count(3 if place == "right" else 2)  # SE, NW
        tops = hand.evaluate("bar => [...bar.querySelectorAll('[data-hand-card]')].map(card => card.offsetTop)")
        assert len(set(tops)) == 1, (place, tops)  # one line: every card at the same height
        inside = hand.evaluate("bar => bar.scrollWidth <= bar.clientWidth + 1")
        assert inside, f"the {place} hand overflows its bar"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"replay-4p-side-bars-{width}.png"))
