"""A game that belongs to an event (a tournament round) has no rematch (issue 22,
finding 11): the page shows no Rematch button, and the socket and the API
refuse one with a message, starting no game."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games import finishing, refusals, rematches, starting
from games.models import Event, Game
from tests.api.conftest import api_as  # noqa: F401  (the fixture)

EVENT = Event("Autumn Cup", "2", "/tournaments/7/", number=2)
Opener = Any
REFUSED = "this game belongs to Autumn Cup, so it has no rematch"


def finished_event_game(alice: Any, bob: Any) -> Game:
    game = starting.start_game(alice, bob, seed="tests-game-seed", event=EVENT)
    return finishing.resign(game.pk, bob)


def unchanged(game: Game) -> None:
    g = Game.objects.get(pk=game.pk)
    assert (g.rematch_offers, g.rematch_game_id, Game.objects.count()) == ([], None, 1)


@pytest.mark.django_db
def test_it_refuses_a_rematch_of_a_tournament_game_and_starts_nothing(alice: Any, bob: Any) -> None:
    game = finished_event_game(alice, bob)
    with pytest.raises(refusals.Refusal, match=REFUSED):
        rematches.rematch(game.pk, alice)
    unchanged(game)


@pytest.mark.django_db
def test_the_api_refuses_it_with_the_reason(alice: Any, bob: Any, api_as: Any) -> None:
    game = finished_event_game(alice, bob)
    response = api_as(alice, "play").post(f"/api/games/{game.pk}/rematch")
    assert response.status_code == 400 and REFUSED in response.json()["error"], response.content
    unchanged(game)


@pytest.mark.django_db
def test_the_page_of_a_tournament_game_has_no_rematch_button(alice: Any, bob: Any) -> None:
    client = Client()
    client.force_login(alice)
    event_page = client.get(f"/games/{finished_event_game(alice, bob).pk}/").content.decode()
    assert 'data-command="resign"' in event_page and 'data-command="rematch"' not in event_page
    casual = finishing.resign(starting.start_game(alice, bob).pk, bob)
    assert 'data-command="rematch"' in client.get(f"/games/{casual.pk}/").content.decode()


@pytest.mark.django_db(transaction=True)
async def test_the_socket_refuses_it_with_the_reason(
        alice: Any, bob: Any, cookies: dict[str, str], sockets: Opener, services: None) -> None:
    game = await sync_to_async(finished_event_game)(alice, bob)
    red, _ = await sockets(game.pk, cookies["alice"])
    refused = await red.request({"type": "rematch"})
    assert refused["type"] == "error" and REFUSED in refused["message"]
    await sync_to_async(unchanged)(game)
