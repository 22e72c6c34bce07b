"""The navigation bar's "Your turn" list (games/turns.py, games.context_processors.turns):
every running game, correspondence or real time, where it is the player's move,
in a constant number of queries."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import finishing, starting
from games.turns import turns_json
from tests.helpers import client_for
from tests.notify.playing import correspondence, move

pytestmark = pytest.mark.django_db


def test_the_list_holds_the_games_waiting_for_the_player_s_move(alice: Any, bob: Any, charlie: Any) -> None:
    first = correspondence(alice, bob)  # alice (Red) to move
    second = starting.start_game(charlie, alice, seed="tests-notify-seed")  # charlie to move
    third = starting.start_game(alice, charlie, seed="tests-notify-seed")  # alice to move
    assert [turn["id"] for turn in turns_json(alice.pk)] == [first.pk, third.pk]
    assert turns_json(alice.pk)[0] == {"id": first.pk, "url": f"/games/{first.pk}/", "title": "Ace in the Hole",
                                       "opponents": ["bob"], "correspondence": True}
    move(second.pk, charlie)
    move(first.pk, alice)
    assert {turn["id"] for turn in turns_json(alice.pk)} == {second.pk, third.pk}
    assert [turn["id"] for turn in turns_json(bob.pk)] == [first.pk]


def test_a_finished_game_leaves_the_list(alice: Any, bob: Any) -> None:
    game = correspondence(alice, bob)
    finishing.resign(game.pk, alice)
    assert turns_json(alice.pk) == []


def test_a_four_player_game_names_the_other_side_not_the_partner(alice: Any, bob: Any, charlie: Any,
                                                                  dave: Any) -> None:
    game = starting.start_game(alice, bob, charlie, dave, setup=starting.Setup("rhombus"), seed="tests-notify-seed")
    to_move = game.seat(game.to_move).user
    [mover] = turns_json(to_move.pk)
    assert mover["id"] == game.pk
    assert mover["title"] == "Rhombus, 4 players"
    side = game.side_of(game.to_move)  # RH31: the partner is not an opponent
    assert mover["opponents"] == [game.seat(seat).user.username for seat in game.seat_names if seat not in side]
    assert len(mover["opponents"]) == 2


def test_the_list_costs_two_queries_however_many_games(alice: Any, bob: Any, charlie: Any) -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            turns_json(alice.pk)
        return len(captured)

    correspondence(alice, bob)
    one = queries()
    for _ in range(6):
        correspondence(alice, charlie)
        starting.start_game(alice, bob, seed="tests-notify-seed")
    assert len(turns_json(alice.pk)) == 13
    assert queries() == one == 2


def test_the_navigation_bar_shows_the_count_and_links(alice: Any, bob: Any) -> None:
    game = correspondence(alice, bob)
    page = client_for(alice).get("/tournaments/").content.decode()
    assert 'data-turns-count aria-live="polite">1</span>' in page
    assert f'href="/games/{game.pk}/">Ace in the Hole · bob</a>' in page
    page = client_for(bob).get("/tournaments/").content.decode()
    assert 'data-turns-count aria-live="polite" hidden>0</span>' in page
    assert "No game is waiting for your move." in page
