"""A rating per game (issue 13): Ace in the Hole, Rhombus, and Rhombus's team
game each have a ladder; a team game moves each player by their team's
average against the other team's; the leaderboard and profile choose the game."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import finishing, payloads, starting
from ladder import elo, ratings
from ladder.models import Player, Rating, RatingChange
from tests.ladder.test_profile import chart_values

pytestmark = pytest.mark.django_db

RHOMBUS = starting.Setup("rhombus")


def test_a_team_game_moves_each_player_on_the_team_ladder(alice: Any, bob: Any, charlie: Any, dave: Any) -> None:
    Rating.objects.create(user=alice, ladder="rhombus-teams", rating=1700, rated_games=40)
    game = starting.start_game(alice, bob, charlie, dave, setup=RHOMBUS)  # Alice+Charlie v Bob+Dave
    g = finishing.resign(game.pk, dave)
    assert g.winner == "SW+NE"
    (a, c), (b, d) = elo.rate_teams([elo.Rated(1700, 40), elo.Rated(1500, 0)],
                                    [elo.Rated(1500, 0), elo.Rated(1500, 0)], 1.0)
    after = {r.user.username: r.rating for r in Rating.objects.filter(ladder="rhombus-teams")}
    assert after == {"alice": a.after, "charlie": c.after, "bob": b.after, "dave": d.after}
    assert (a.after, c.after, b.after, d.after) == (1707, 1514, 1486, 1486)
    change = RatingChange.objects.get(game=g, user=alice)
    assert (change.ladder, change.opponent_rating, change.opponent) == ("rhombus-teams", 1500, bob)
    assert payloads.view_for(g, alice)["game"]["ratings"]["NW"] == {"before": 1500, "after": 1486, "change": -14}
    assert not Player.objects.filter(rated_games__gt=0).exists()  # the Ace in the Hole ladder is untouched


def test_undoing_a_team_game_gives_all_four_their_points_back(alice: Any, bob: Any, charlie: Any,
                                                              dave: Any) -> None:
    game = finishing.resign(starting.start_game(alice, bob, charlie, dave, setup=RHOMBUS).pk, alice)
    assert ratings.undo_game(game.pk) == 4
    assert set(Rating.objects.values_list("rating", "rated_games", "wins", "losses")) == {(1500, 0, 0, 0)}


def test_two_player_rhombus_and_ace_in_the_hole_keep_separate_ratings(alice: Any, bob: Any) -> None:
    finishing.resign(starting.start_game(alice, bob, setup=RHOMBUS).pk, bob)  # Alice wins at Rhombus
    finishing.resign(starting.start_game(alice, bob).pk, alice)  # and loses at Ace in the Hole
    assert (ratings.standing_of(alice, "rhombus").rating, ratings.standing_of(alice).rating) == (1520, 1480)
    assert [r for _, r in ratings.history(alice, "rhombus")] == [1500, 1520]
    assert [r for _, r in ratings.history(alice)] == [1500, 1480]


def test_leaderboard_and_profile_choose_the_game(client: Client, alice: Any, bob: Any) -> None:
    finishing.resign(starting.start_game(alice, bob, setup=RHOMBUS).pk, bob)
    board = client.get("/ladder/?game=rhombus").content.decode()
    assert 'data-player="alice"' in board and 'aria-current="page" data-ladder="rhombus"' in board
    assert 'data-player="alice"' not in client.get("/ladder/").content.decode()  # no Ace in the Hole game yet
    assert chart_values(client.get("/@/alice/?game=rhombus").content.decode()) == [1500, 1520]
    assert "No rated games yet" in client.get("/@/alice/").content.decode()
    assert client.get("/ladder/?game=chess").status_code == 200  # an unknown game shows the first ladder
