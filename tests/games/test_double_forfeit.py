"""A double no-show is one result everywhere (issue 22, finding 3): in an event
game that neither player starts, both lose by forfeit (0-0), unrated, and the
record, the replay, the profile's game list and record against opponents, the
API, the game's socket payload and the tournament board all say so."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from engine.record import read, read_rhombus
from games import finishing, payloads, starting
from games.models import Event, Game
from games.records import games_of
from api import streams
from ladder.models import RatingChange
from ladder.ratings import record_against_opponents

pytestmark = pytest.mark.django_db

EVENT = Event("Autumn Cup", "1", "/tournaments/7/", number=1)


def both_stay_away(game: Game) -> Game:
    Game.objects.filter(pk=game.pk).update(abort_at=timezone.now() - timedelta(seconds=1))
    finishing.claim_time(game.pk)
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("setup", ["ace-in-the-hole", "rhombus"])
def test_a_double_no_show_is_a_loss_for_both_everywhere(alice: Any, bob: Any, setup: str) -> None:
    game = both_stay_away(starting.start_game(alice, bob, rated=True, event=EVENT, setup=starting.setup_of(setup)))
    assert (game.status, game.winner, game.reason, game.rated) == ("finished", "", "no-show", False)
    assert [game.won(seat) for seat in game.seat_names] == [False, False]
    assert game.result == "0-0"

    text = Client().get(f"/games/{game.pk}/record.txt").content.decode()
    assert '[Result "0-0"]' in text and "1/2-1/2" not in text
    back = read_rhombus(text) if setup == "rhombus" else read(text)
    assert (back.result, back.winner, back.reason) == ("0-0", None, "no-show")

    replay = Client().get(f"/games/{game.pk}/replay/").content.decode()
    assert "Both players lost by forfeit" in replay and "drawn" not in replay

    for user in (alice, bob):
        assert [row.result for row in games_of(user)] == ["loss"]
        assert [(r["wins"], r["draws"], r["losses"]) for r in record_against_opponents(user)] == [(0, 0, 1)]
        api = Client().get(f"/api/players/{user.username}/games").json()["games"]
        assert [g["result"] for g in api] == ["loss"]
        profile = Client().get(f"/@/{user.username}/").content.decode()
        assert "game-table__row--loss" in profile and "game-table__row--draw" not in profile

    assert payloads.view_for(game, alice)["game"]["result"] == "0-0"
    assert Client().get(f"/api/games/{game.pk}").json()["game"]["result"] == "0-0"
    assert streams.game_finished_lines(game.pk)[0]["result"] == "0-0"  # the API's event stream line
    assert not RatingChange.objects.filter(game=game).exists()


def test_a_one_sided_no_show_and_a_draw_keep_their_results(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, event=EVENT)
    finishing.adjudicate(game.pk, None, "agreed")
    game = Game.objects.get(pk=game.pk)
    assert (game.result, [game.won(seat) for seat in game.seat_names]) == ("1/2-1/2", [None, None])
    assert [row.result for row in games_of(alice)] == ["draw"]
