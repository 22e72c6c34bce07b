"""The lobby's "Play the computer" form (POST /lobby/computer/): the game starts at once."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from engine import bots as engine_bots
from games.models import Game

pytestmark = pytest.mark.django_db


def test_the_lobby_offers_every_level_weakest_first(client: Client, alice: Any) -> None:
    client.force_login(alice)
    html = client.get("/lobby/").content.decode()
    assert "Play the computer" in html and 'action="/lobby/computer/"' in html
    positions = [html.index(f'<option value="{level}"') for level in engine_bots.LEVELS]
    assert positions == sorted(positions)


def test_choosing_a_level_colour_and_control_starts_the_game(
        client: Client, alice: Any, bot_accounts: dict[str, Any]) -> None:
    client.force_login(alice)
    response = client.post("/lobby/computer/", {"level": "ismcts-2", "colour": "black",
                                                "time_control": "3+2", "rated": "1"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert (game.seat("red").user, game.seat("black").user, game.running) == (bot_accounts["ismcts-2"], alice, True)
    assert (game.time_control.key, game.rated) == ("3+2", True)


@pytest.mark.parametrize("form, message", [
    ({"level": "nobody", "colour": "red", "time_control": "5+3"}, "&#x27;nobody&#x27; is not a bot level"),
    ({"level": "greedy", "colour": "red", "time_control": "9+9"}, "is not an offered time control"),
    ({"level": "greedy", "colour": "green", "time_control": "5+3"}, "must be red, black or random"),
])
def test_a_bad_choice_is_refused_with_a_message_and_starts_nothing(
        client: Client, alice: Any, bot_accounts: dict[str, Any], form: dict[str, str], message: str) -> None:
    client.force_login(alice)
    response = client.post("/lobby/computer/", form, follow=True)
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_a_visitor_is_sent_to_sign_in(client: Client, bot_accounts: dict[str, Any]) -> None:
    response = client.post("/lobby/computer/", {"level": "greedy", "colour": "red", "time_control": "5+3"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not Game.objects.exists()
