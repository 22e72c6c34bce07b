"""The replay of a running Rhombus game follows it live, in real Chromium against
a real daphne, as the Ace replay does (tests/games/test_replay_live_browser.py):
new actions come over the spectator socket as steps with no hand (RH29), and
the end turns the page into the finished replay with every hand and the
checked seed (RH30). Needs PostgreSQL and Redis: skipped without them."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from games import finishing, moving, starting
from games.models import Game
from tests.games.test_replay_live_browser import open_replay
from tests.games.test_rhombus_records import RULES, play_random, seated
from tests.games.test_rhombus_replay_browser import board_on_page

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

STARTED_WITH = 4  # actions played before anyone opens the replay


@pytest.fixture
def running(alice: Any, bob: Any) -> Game:
    game = starting.start_game(alice, bob, seed="live-rhombus", setup=starting.Setup("rhombus"))
    return play_random(game, seated(game), STARTED_WITH, random.Random(2))


def next_action(game_id: int) -> tuple[str, str, int]:
    """The mover's first legal action, played as the mover: (seat, canonical text, new ply)."""
    game = Game.objects.get(pk=game_id)
    seat = game.to_move
    action = RULES.legal_actions(RULES.from_json(game.position))[0]
    game = moving.submit(game.pk, game.seat(seat).user, game.ply, str(action))
    return seat, str(game.moves.get(ply=game.ply - 1).action), game.ply


def position(game_id: int) -> dict[str, Any]:
    return dict(Game.objects.get(pk=game_id).position)


def test_the_replay_of_a_running_rhombus_game_follows_it_and_the_end_shows_the_hands(
    running: Game, cookies: dict[str, str], alice: Any, daphne_server: str, chromium_browser: Browser,
    orm: Callable[..., Any],
) -> None:
    # Alice plays in the game: her replay socket is a spectator's all the same.
    page = open_replay(chromium_browser, daphne_server, running, cookies["alice"])
    label = page.locator("[data-step-label]")
    expect(label).to_have_text(re.compile(rf"^Step {STARTED_WITH} of {STARTED_WITH}: "))

    seat, action, ply = orm(next_action, running.pk)
    expect(label).to_have_text(re.compile(rf"^Step {ply} of {ply}: {seat}: .+ {re.escape(action)}$"))  # worded
    expect(label.locator('.notation[translate="no"]')).to_have_text(action)
    assert board_on_page(page) == orm(position, running.pk)["board"]
    expect(page.locator(".replay__list li")).to_have_count(ply)

    page.keyboard.press("Home")  # looking back, the viewer stays put while the game goes on
    seat, action, ply = orm(next_action, running.pk)
    expect(page.locator(f'.replay__move[data-step="{ply}"] .notation[translate="no"]')).to_have_text(action)
    expect(label).to_have_text(f"Step 0 of {ply}: start")
    expect(page.locator("[data-hand]")).to_have_count(0)
    hands = {card for shown in orm(position, running.pk)["seats"].values() for card in shown["hand"]}
    played = " ".join(m.action for m in orm(lambda: list(Game.objects.get(pk=running.pk).moves.all())))
    words = set(page.locator("body").inner_text().split())
    assert words.isdisjoint(hands - set(played.split())), "a hand card reached the replay page"

    orm(finishing.resign, running.pk, alice)
    expect(page.locator(".replay__fairness .check")).to_have_text("checked ✓")
    final = orm(position, running.pk)
    for name, shown in final["seats"].items():
        expect(page.locator(f'[data-hand="{name}"] .card')).to_have_count(len(shown["hand"]))
    expect(page.locator(".replay__result")).to_contain_text("bob (NE) won by resignation")
    page.context.close()
