"""The "game over" notice (games.notices.game_finished): each player not on
the game's page, with the result from their side and their opponents."""

from __future__ import annotations

from typing import Any

import pytest

from games import finishing, payloads, starting
from notify.models import Notification
from tests.notify.playing import correspondence, move, present

pytestmark = pytest.mark.django_db(transaction=True)


def end_notice(user: Any) -> Notification:
    return Notification.objects.get(user=user, kind="game-end")


def test_both_absent_players_hear_who_won(alice: Any, bob: Any) -> None:
    game = correspondence(alice, bob)
    move(game.pk, alice)
    finishing.resign(game.pk, bob)
    assert end_notice(alice).params == {"game": game.pk, "title": "Ace in the Hole", "players": 2,
                                        "opponents": ["bob"], "result": "won"}
    assert end_notice(bob).params["result"] == "lost"
    assert end_notice(bob).key == f"game:{game.pk}"
    assert end_notice(bob).url == f"/games/{game.pk}/"


def test_a_player_on_the_game_s_page_is_not_told(alice: Any, bob: Any) -> None:
    game = correspondence(alice, bob)
    present(game.pk, alice)
    finishing.resign(game.pk, bob)
    assert not Notification.objects.filter(user=alice).exists()
    assert end_notice(bob).params["result"] == "lost"


def test_an_adjudicated_draw_reads_as_a_draw_for_both(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed="tests-notify-seed")
    finishing.adjudicate(game.pk, None, "a draw for the test")
    assert {end_notice(alice).params["result"], end_notice(bob).params["result"]} == {"draw"}


def test_a_four_player_game_names_the_other_side_not_the_partner(alice: Any, bob: Any, charlie: Any,
                                                                  dave: Any) -> None:
    game = starting.start_game(alice, bob, charlie, dave, setup=starting.Setup("rhombus"), seed="tests-notify-seed")
    finishing.resign(game.pk, alice)
    notice = end_notice(bob)
    assert notice.params["players"] == 4
    partner = game.side_of(game.seat_of(bob))
    assert len(partner) == 2  # RH31: partners win and lose together, and are not opponents
    assert notice.params["opponents"] == [payloads.player_name(game, seat) for seat in game.seat_names
                                          if seat not in partner]
    assert "bob" not in notice.params["opponents"] and len(notice.params["opponents"]) == 2


def test_an_aborted_game_sends_nothing(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed="tests-notify-seed")
    finishing.abort(game.pk, alice)
    assert Notification.objects.count() == 0
