"""A replay flags each bot's name BOT (the game's seats, from games.bots'
cached levels): Ace in the Hole's title line, Rhombus's players line and bars.
An imported record's names are only text, so nothing is flagged there."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import finishing, starting
from games.models import Game
from tests.badges import ACCOUNT_TITLE, COMPUTER_TITLE, api_bot, badge_titles, computer_player, shown
from tests.badges import bot_cache_forgotten  # noqa: F401 (autouse: the bots' ids are forgotten after each test)

pytestmark = pytest.mark.django_db

SEED = "tests-game-seed"


def resigned(game: Game, user: Any) -> Game:
    return finishing.resign(game.pk, user)


def test_an_ace_replay_flags_a_computer_player(client: Client, alice: Any) -> None:
    cpu = computer_player("cpu1")
    game = resigned(starting.start_game(alice, cpu, seed=SEED), alice)
    page = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert badge_titles(page, "cpu1") == [COMPUTER_TITLE]
    assert shown(page, "alice") >= 1 and badge_titles(page, "alice") == []


def test_an_ace_replay_flags_a_bot_account(client: Client, alice: Any) -> None:
    bot = api_bot("api1")
    game = resigned(starting.start_game(bot, alice, seed=SEED), alice)
    page = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert badge_titles(page, "api1") == [ACCOUNT_TITLE] and badge_titles(page, "alice") == []


def test_an_imported_record_flags_nobody(client: Client, alice: Any) -> None:
    game = resigned(starting.start_game(alice, computer_player("cpu1"), seed=SEED), alice)
    record = client.get(f"/games/{game.pk}/record.json").content.decode()
    page = client.post("/games/import/", {"record": record}).content.decode()
    assert shown(page, "cpu1") >= 1 and "badge--bot" not in page


def test_a_rhombus_replay_flags_each_bot_in_the_players_line_and_bars(
        client: Client, alice: Any, bob: Any) -> None:
    cpu, bot = computer_player("cpu1"), api_bot("api1")
    game = starting.start_game(alice, cpu, bob, bot, seed="four", setup=starting.Setup("rhombus"))
    page = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert badge_titles(page, "cpu1") == [COMPUTER_TITLE] * 2
    assert badge_titles(page, "api1") == [ACCOUNT_TITLE] * 2
    assert shown(page, "bob") >= 2 and badge_titles(page, "bob") == []
