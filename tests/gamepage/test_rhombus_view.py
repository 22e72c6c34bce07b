"""The Rhombus game page's HTML: each viewer's seat at the bottom, every seat's
bar around the board, and never a hidden card (RH29, RH36)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import starting
from tests.gamepage.test_game_view import page_for
from tests.helpers import shows_secret

pytestmark = pytest.mark.django_db


def places(html: str) -> dict[str, str]:
    """Each seat's bar and where it sits: {"SW": "bottom", ...}."""
    return dict(re.findall(r'data-player="(\w+)" data-place="(\w+)"', html))


def test_two_players_each_see_their_own_seat_at_the_bottom(alice: Any, bob: Any, charlie: Any) -> None:
    game = starting.start_game(alice, bob, setup=starting.Setup("rhombus"))
    assert places(page_for(game, alice)) == {"SW": "bottom", "NE": "top"}
    assert places(page_for(game, bob)) == {"NE": "bottom", "SW": "top"}
    watched = page_for(game, charlie)
    assert places(watched) == {"SW": "bottom", "NE": "top"}  # spectators watch from SW's side
    assert 'data-kind="rhombus"' in watched and 'data-seat=""' in watched
    assert 'id="hand"' not in watched and 'data-command="resign"' not in watched
    assert 'data-seat="NE"' in page_for(game, bob)


def test_four_players_sit_around_the_board_as_the_corners_lie(
        alice: Any, bob: Any, charlie: Any, dave: Any, erin: Any) -> None:
    game = starting.start_game(alice, bob, charlie, dave, setup=starting.Setup("rhombus"))
    # RH31: SW, SE, NE, NW counter-clockwise; the partner sits opposite, on top.
    assert places(page_for(game, bob)) == {"SE": "bottom", "NE": "right", "NW": "top", "SW": "left"}
    assert places(page_for(game, alice)) == {"SW": "bottom", "SE": "right", "NE": "top", "NW": "left"}
    html = page_for(game, erin)
    assert places(html) == {"SW": "bottom", "SE": "right", "NE": "top", "NW": "left"}
    assert all(name in html for name in ("alice", "bob", "charlie", "dave"))
    assert 'data-players="4"' in html


def mentions(html: str, card: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", html) is not None


@pytest.mark.parametrize("viewer", ["alice", "charlie", "erin"])
def test_the_html_holds_no_card_and_no_seed(alice: Any, bob: Any, charlie: Any, dave: Any, erin: Any,
                                             viewer: str) -> None:
    """Cards come only over the socket, each seat's hand to that seat alone (RH29, RH36)."""
    game = starting.start_game(alice, bob, charlie, dave, setup=starting.Setup("rhombus"))
    seats = game.position["seats"].values()
    cards = [card for seat in seats for card in seat["table"] + seat["hand"]]
    assert len(cards) == 12
    html = page_for(game, {"alice": alice, "charlie": charlie, "erin": erin}[viewer])
    assert [card for card in cards if mentions(html, card)] == []
    assert not shows_secret(html, game.seed)


def test_a_rhombus_game_offers_its_replay_link_as_ace_does(alice: Any, bob: Any) -> None:
    rhombus = starting.start_game(alice, bob, setup=starting.Setup("rhombus"))
    ace = starting.start_game(alice, bob)
    assert f"/games/{rhombus.pk}/replay/" in page_for(rhombus, alice)
    assert f"/games/{ace.pk}/replay/" in page_for(ace, alice)


def ratings_shown(html: str) -> dict[str, str]:
    return dict(re.findall(r'data-player="(\w+)".*?data-rating>([^<]*)<', html, re.S))


def test_each_page_shows_the_ratings_of_its_own_game(alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    from ladder.models import Player, Rating
    Player.objects.create(user=alice, rating=1712, rated_games=40)
    Rating.objects.create(user=alice, ladder="rhombus", rating=1388, rated_games=3)
    Rating.objects.create(user=alice, ladder="rhombus-teams", rating=1455, rated_games=30)
    assert ratings_shown(page_for(starting.start_game(alice, bob, setup=starting.Setup("rhombus")), None)) == {
        "SW": "1388?", "NE": "1500?"}
    four = starting.start_game(alice, bob, charlie, dave, setup=starting.Setup("rhombus"))
    assert ratings_shown(page_for(four, None))["SW"] == "1455"
    assert ratings_shown(page_for(starting.start_game(alice, bob), None))["red"] == "1712"
