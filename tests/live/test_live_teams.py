"""A 4-player game's card names its teams (RH31), and the live list, the home
page and TV write it as two teams with their seats even before any script
runs (issue 35, 4); a 2-player game stays one line a player."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games import live, starting
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def team_game(django_user_model: Any) -> Any:
    users = [make_user(django_user_model, name) for name in ("ann", "ben", "cat", "dan")]  # SW, SE, NE, NW
    return starting.start_game(*users, setup=starting.Setup("rhombus"))


def test_a_cards_sides_are_the_games_teams(django_user_model: Any, alice: Any, bob: Any) -> None:
    assert live.card(team_game(django_user_model))["sides"] == [["SW", "NE"], ["SE", "NW"]]
    assert live.card(starting.start_game(alice, bob))["sides"] == [["red"], ["black"]]


@pytest.mark.parametrize("path", ["/games/live/", "/", "/tv/rhombus-4/"])
def test_the_pages_write_a_team_game_as_two_teams(client: Client, django_user_model: Any, path: str) -> None:
    team_game(django_user_model)
    page = client.get(path, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    # The first board of the game (the home page shows it twice: on TV and in the list).
    teams = re.findall(r'<li class="live-board__team" data-side="([A-Z+]+)">(.*?)</li>', page, re.S)[:2]
    assert [side for side, _ in teams] == ["SW+NE", "SE+NW"]
    text = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip() for _, html in teams]
    assert text[0].startswith("SW ann") and "&amp; NE cat" in text[0]
    assert text[1].startswith("SE ben") and "&amp; NW dan" in text[1]
    assert '<li class="live-board__versus">gegen</li>' in page


def test_a_two_player_game_keeps_one_line_a_player(client: Client, alice: Any, bob: Any) -> None:
    starting.start_game(alice, bob)
    page = client.get("/games/live/").content.decode()
    assert "live-board__team" not in page and page.count('<li class="live-board__player"') == 2
