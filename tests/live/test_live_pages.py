"""The live list, TV and the home page's panel as pages: best rated first,
filters and counts, a constant number of queries, ratings snapshotted at start."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import finishing, live, payloads, starting
from games.timecontrols import TimeControl
from ladder.models import Rating
from relation import follows

pytestmark = pytest.mark.django_db


def start(rated: Callable[[str, int], Any], name: str, rating: int, **options: Any) -> Any:
    return starting.start_game(rated(f"{name}1", rating), rated(f"{name}2", rating), **options)


def board_ids(response: Any) -> list[int]:
    return [card["id"] for card in response.context["boards"]]


def test_a_game_starts_with_its_players_ratings_on_its_row(rated: Callable[[str, int], Any]) -> None:
    game = starting.start_game(rated("ann", 1810), rated("ben", 1600))
    game.refresh_from_db()
    assert [seat.rating for seat in game.table] == [1810, 1600]
    assert game.rating == 1705


def test_a_newcomer_counts_as_1500_and_rhombus_reads_its_own_ladder(
    rated: Callable[[str, int], Any], alice: Any,
) -> None:
    ann = rated("ann", 2000)
    Rating.objects.create(user=ann, ladder="rhombus", rating=1700)
    game = starting.start_game(ann, alice, setup=starting.Setup("rhombus"))
    game.refresh_from_db()
    assert [seat.rating for seat in game.table] == [1700, 1500]
    assert game.rating == 1600


def test_the_live_list_shows_running_games_best_rated_first(client: Client, rated: Callable[[str, int], Any]) -> None:
    low = start(rated, "low", 1400)
    high = start(rated, "high", 2000)
    mid = start(rated, "mid", 1700)
    over = start(rated, "over", 2500)
    finishing.resign(over.pk, over.seat("red").user)
    response = client.get("/games/live/")
    assert board_ids(response) == [high.pk, mid.pk, low.pk]
    page = response.content.decode()
    assert f'href="/games/{high.pk}/"' in page and "high1" in page and "2000" in page
    assert "3 games" in page


def test_filters_by_game_and_speed_with_counts(client: Client, rated: Callable[[str, int], Any]) -> None:
    blitz = start(rated, "a", 1500, time_control=TimeControl.parse("3+2"))
    rapid = start(rated, "b", 1500, time_control=TimeControl.parse("10+5"))
    corr = start(rated, "c", 1500, time_control=TimeControl.parse("3d"))
    rhombus = start(rated, "d", 1500, setup=starting.Setup("rhombus"), time_control=TimeControl.parse("3+2"))
    assert board_ids(client.get("/games/live/?game=ace&speed=blitz")) == [blitz.pk]
    assert board_ids(client.get("/games/live/?speed=rapid")) == [rapid.pk]
    assert board_ids(client.get("/games/live/?speed=correspondence")) == [corr.pk]
    assert board_ids(client.get("/games/live/?game=rhombus")) == [rhombus.pk]
    assert board_ids(client.get("/games/live/?game=rhombus-4")) == []
    counts = client.get("/games/live/?game=nonsense&speed=nonsense").context["counts"]
    assert counts["game"] == {"ace": 3, "rhombus": 1, "rhombus-4": 0}
    assert counts["speed"]["blitz"] == 2 and counts["speed"]["correspondence"] == 1
    assert counts["all"]["all"] == 4


def test_the_list_is_paged(client: Client, rated: Callable[[str, int], Any]) -> None:
    games = [start(rated, f"g{n}", 1500 + n) for n in range(live.PAGE_SIZE + 2)]
    first = client.get("/games/live/")
    second = client.get("/games/live/?page=2")
    assert len(board_ids(first)) == live.PAGE_SIZE
    assert board_ids(second) == [games[1].pk, games[0].pk]
    assert first.context["pages"] == [1, 2]


def page_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize("url", ["/games/live/", "/games/live/?game=ace&speed=rapid", "/", "/tv/"])
def test_a_page_costs_the_same_queries_for_3_and_30_games(
    client: Client, rated: Callable[[str, int], Any], alice: Any, url: str,
    django_assert_num_queries: Callable[..., Any],
) -> None:
    client.force_login(alice)
    players = [start(rated, f"g{n}", 1500 + n) for n in range(3)]
    for game in players:
        follows.follow(alice, game.seat("red").user)
    few = page_queries(client, url)
    for n in range(3, 30):
        follows.follow(alice, start(rated, f"g{n}", 1500 + n).seat("black").user)
    with django_assert_num_queries(few):
        client.get(url)


def test_a_signed_in_player_sees_the_games_of_those_they_follow_first(
    client: Client, rated: Callable[[str, int], Any], alice: Any,
) -> None:
    start(rated, "top", 2400)
    theirs = start(rated, "low", 1200)
    follows.follow(alice, theirs.seat("black").user)
    client.force_login(alice)
    response = client.get("/games/live/")
    assert [card["id"] for card in response.context["following"]] == [theirs.pk]
    page = response.content.decode()
    assert page.index("Players you follow, playing now") < page.index(f'data-game="{theirs.pk}"')


def test_a_visitor_finds_running_games_and_tv_on_the_home_page(
    client: Client, rated: Callable[[str, int], Any],
) -> None:
    best = start(rated, "best", 2200)
    other = start(rated, "other", 1600)
    response = client.get("/")
    assert board_ids(response) == [best.pk, other.pk]
    assert response.context["tv_card"]["id"] == best.pk
    page = response.content.decode()
    assert 'data-socket="/ws/live/?home=1"' in page
    assert f'href="/games/{best.pk}/"' in page
    assert 'href="/games/live/"' in page and 'href="/tv/"' in page


def test_tv_shows_the_best_game_of_each_game(client: Client, rated: Callable[[str, int], Any]) -> None:
    start(rated, "ace-low", 1500)
    ace = start(rated, "ace-top", 1900)
    rhombus = start(rated, "rh", 1500, setup=starting.Setup("rhombus"))
    screens = client.get("/tv/").context["screens"]
    assert [(s["channel"], s["card"] and s["card"]["id"]) for s in screens] == [
        ("ace", ace.pk), ("rhombus", rhombus.pk), ("rhombus-4", None)]
    one = client.get("/tv/rhombus/").context["screens"]
    assert [s["card"]["id"] for s in one] == [rhombus.pk]
    assert client.get("/tv/chess/").status_code == 404


def test_a_card_is_the_spectators_view_without_any_hand(rated: Callable[[str, int], Any]) -> None:
    game = start(rated, "x", 1500)
    card = live.card(game)
    view = payloads.seat_view(game, None)
    assert card["board"] == view["board"]
    assert "hand" not in card and "legal" not in card
    hand = set(payloads.seat_view(game, "red")["hand"])
    assert not hand & set(str(value) for value in card.values())
