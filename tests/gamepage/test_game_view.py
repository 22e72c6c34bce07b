"""The game page's HTML: open to everyone, and never carrying a hidden card (R18)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games import moving, payloads, starting
from games.models import Game
from tests.helpers import shows_secret

pytestmark = pytest.mark.django_db


def page_for(game: Game, user: Any | None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def mentions(html: str, card: str) -> bool:
    """Whether a card code ("5H", "10D") appears as a word of its own."""
    return re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", html) is not None


@pytest.mark.parametrize("who", ["alice", "bob", "charlie", None])
def test_players_spectators_and_anonymous_visitors_can_open_the_page(
    game: Game, who: str | None, alice: Any, bob: Any, charlie: Any
) -> None:
    user = {"alice": alice, "bob": bob, "charlie": charlie, None: None}[who]
    html = page_for(game, user)
    assert f'data-socket="/ws/games/{game.pk}/"' in html
    assert "alice" in html and "bob" in html


def test_the_page_tells_each_viewer_their_seat(game: Game, alice: Any, bob: Any, charlie: Any) -> None:
    assert 'data-seat="red"' in page_for(game, alice)
    assert 'data-seat="black"' in page_for(game, bob)
    assert 'data-seat=""' in page_for(game, charlie)


def test_spectators_get_no_hand_and_no_buttons(game: Game, charlie: Any) -> None:
    html = page_for(game, charlie)
    assert 'id="hand"' not in html
    assert 'data-command="resign"' not in html


def test_a_missing_game_is_404(client: Client, game: Game) -> None:
    assert client.get(f"/games/{game.pk + 1000}/").status_code == 404


@pytest.mark.parametrize("viewer", ["alice", "bob", "charlie"])
def test_the_html_holds_no_card_of_either_hand_and_no_seed(
    alice: Any, bob: Any, charlie: Any, viewer: str
) -> None:
    game = starting.start_game(alice, bob)  # a real secret seed
    hands = game.position["hands"]
    cards = hands["red"] + hands["black"]
    assert len(cards) == 6
    html = page_for(game, {"alice": alice, "bob": bob, "charlie": charlie}[viewer])
    assert [card for card in cards if mentions(html, card)] == []
    assert not shows_secret(html, game.seed)


def test_the_html_holds_no_card_of_either_hand_later_in_the_game(game: Game, alice: Any, bob: Any) -> None:
    for ply in range(4):
        state = Game.objects.get(pk=game.pk)
        user = alice if state.to_move == "red" else bob
        legal = payloads.view_for(state, user)["legal"]
        moving.submit(game.pk, user, ply, legal[0])
    game.refresh_from_db()
    hands = game.position["hands"]
    html = page_for(game, alice) + page_for(game, bob)
    assert [card for card in hands["red"] + hands["black"] if mentions(html, card)] == []
    assert not shows_secret(html, game.seed)
