"""Bots are flagged BOT on a profile (its own rating box, the record against
each opponent, the game list) and on the leaderboard, with the one badge
(games templatetags bot_badge); the profile's queries do not grow with its bots."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import finishing, starting
from tests.badges import ACCOUNT_TITLE, COMPUTER_TITLE, api_bot, badge_titles, computer_player, shown
from tests.badges import bot_cache_forgotten  # noqa: F401 (autouse: the bots' ids are forgotten after each test)
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

SEED = "tests-game-seed"


def beat(winner: Any, loser: Any) -> None:
    """A finished game: ``loser`` resigns at once."""
    game = starting.start_game(winner, loser, seed=SEED)
    finishing.resign(game.pk, loser)


def section(page: str, css_class: str) -> str:
    start = page.index(f'<section class="{css_class}"')
    return page[start:page.index("</section>", start)]


@pytest.fixture
def games_with_bots(alice: Any, bob: Any) -> None:
    """Alice beats Bob, the greedy computer player cpu1 and the BOT account api1."""
    for opponent in (bob, computer_player("cpu1"), api_bot("api1")):
        beat(alice, opponent)


def test_the_record_against_each_opponent_flags_the_bots(client: Client, games_with_bots: None) -> None:
    table = section(client.get("/@/alice/").content.decode(), "profile__opponents")
    assert badge_titles(table, "cpu1") == [COMPUTER_TITLE] and badge_titles(table, "api1") == [ACCOUNT_TITLE]
    assert shown(table, "bob") == 1 and badge_titles(table, "bob") == []


def test_the_game_list_flags_bot_opponents(client: Client, games_with_bots: None) -> None:
    games = section(client.get("/@/alice/").content.decode(), "profile__games")
    assert badge_titles(games, "cpu1") == [COMPUTER_TITLE] and badge_titles(games, "api1") == [ACCOUNT_TITLE]
    assert shown(games, "bob") == 1 and badge_titles(games, "bob") == []


def test_a_bots_own_profile_shows_the_badge_by_its_name_and_with_its_level(
        client: Client, games_with_bots: None) -> None:
    computer, account, person = (client.get(f"/@/{name}/").content.decode() for name in ("cpu1", "api1", "bob"))
    assert f'<span class="badge badge--bot" title="{COMPUTER_TITLE}">BOT</span> greedy' in section(
        computer, "profile__rating")
    assert f'<span class="badge badge--bot" title="{ACCOUNT_TITLE}">BOT</span> a program' in section(
        account, "profile__rating")
    assert f'<h1 class="profile__name">cpu1 <span class="badge badge--bot" title="{COMPUTER_TITLE}">' in computer
    assert f'<h1 class="profile__name">api1 <span class="badge badge--bot" title="{ACCOUNT_TITLE}">' in account
    assert '<h1 class="profile__name">bob</h1>' in person and "badge--bot" not in section(person, "profile__rating")


def test_the_leaderboard_uses_the_same_badge(client: Client, games_with_bots: None) -> None:
    page = client.get("/ladder/?show=all").content.decode()
    assert badge_titles(page, "cpu1") == [COMPUTER_TITLE] and badge_titles(page, "api1") == [ACCOUNT_TITLE]
    assert badge_titles(page, "alice") == [] and shown(page, "alice") == 1


def test_the_profile_costs_the_same_queries_with_one_bot_opponent_or_seven(
        client: Client, django_user_model: Any) -> None:
    """More bots means more rows too: a query per row or per bot would show."""
    people = [make_user(django_user_model, f"person{i}") for i in range(2)]
    few, many = make_user(django_user_model, "few"), make_user(django_user_model, "many")
    for opponent in (people[0], computer_player("cpu1")):
        beat(few, opponent)
    bots = [computer_player(f"cpu{i}") for i in range(2, 6)] + [api_bot(f"api{i}") for i in range(1, 4)]
    for opponent in [people[1], *bots]:
        beat(many, opponent)
    counts = []
    for name, bot_count in (("few", 1), ("many", 7)):
        client.get(f"/@/{name}/")  # the bots' ids are cached per process (games.bots.bot_levels)
        with CaptureQueriesContext(connection) as queries:
            page = client.get(f"/@/{name}/").content.decode()
        # Each bot twice: the record against it and the game list.
        assert page.count('class="badge badge--bot"') == 2 * bot_count
        counts.append(len(queries))
    assert counts[0] == counts[1]
