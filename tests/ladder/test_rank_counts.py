"""The leaderboard's counts of players by rating (ladder/rank_counts.py) stay
equal to the players themselves through rated games, undos, new and removed
players, bots and the active window's edge; compacting them changes no figure."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count
from django.utils import timezone

from games import finishing, starting
from ladder import leaderboard, rank_counts, ratings
from ladder.models import Rating, RatingCount
from tests.ladder.conftest import set_player

pytestmark = pytest.mark.django_db

FILTERS = [leaderboard.Filters(active_only=active, hide_bots=hide, ladder=ladder)
           for active in (True, False) for hide in (False, True) for ladder in ("ace-in-the-hole", "rhombus")]


@pytest.fixture(autouse=True)
def _postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the counts are kept by PostgreSQL triggers; elsewhere the players are counted directly")


def truth(filters: leaderboard.Filters) -> dict[int, int]:
    """Players by rating, counted one by one: what the counts must say."""
    pool = leaderboard.ranked(filters, timezone.now())
    return dict(pool.values_list("rating").annotate(n=Count("pk")).order_by())


def kept(filters: leaderboard.Filters) -> dict[int, int]:
    counts = leaderboard.counts_of(filters, timezone.now())
    return dict(zip(counts.ratings, counts.sizes))


def assert_counts_match() -> None:
    for filters in FILTERS:
        assert kept(filters) == truth(filters), filters


def player(name: str, rating: int, days_ago: float = 1, **fields: Any) -> Any:
    user = get_user_model().objects.create_user(name, f"{name}@example.org", "password")
    set_player(user, rating, 40, last_active=timezone.now() - timedelta(days=days_ago), **fields)
    return user


def test_counts_follow_new_players_ties_bots_and_removed_players() -> None:
    player("ann", 1700)
    player("bea", 1600)
    player("ben", 1600)  # a tie: one rating, two players
    player("old", 1650, days_ago=40)
    robo = player("robo", 1800, is_bot=True)
    get_user_model().objects.create_user("new")  # no rated game: on no ladder
    ratings.player_of(get_user_model().objects.get(username="new"))
    assert kept(leaderboard.Filters()) == {1800: 1, 1700: 1, 1600: 2}
    assert kept(leaderboard.Filters(active_only=False, hide_bots=True)) == {1700: 1, 1650: 1, 1600: 2}
    assert_counts_match()
    get_user_model().objects.filter(username="bea").delete()
    robo.player.is_bot = False
    robo.player.save()
    assert kept(leaderboard.Filters(hide_bots=True)) == {1800: 1, 1700: 1, 1600: 1}
    assert_counts_match()


def test_counts_follow_a_rated_game_and_its_undo(alice: Any, bob: Any) -> None:
    player("ann", 1500)
    set_player(alice, 1500, 40, last_active=timezone.now() - timedelta(days=45))  # back after a while
    set_player(bob, 1500, 40, last_active=timezone.now())
    game = starting.start_game(alice, bob, seed="tests-game-seed")
    finishing.resign(game.pk, alice)
    assert kept(leaderboard.Filters()) == {1510: 1, 1500: 1, 1490: 1}  # alice active again
    assert_counts_match()
    ratings.undo_game(game.pk)
    assert kept(leaderboard.Filters()) == {1500: 3}
    assert_counts_match()


def test_other_ladders_rows_are_counted_on_their_own_ladder() -> None:
    ann, bea = player("ann", 1700), player("bea", 1600)
    now = timezone.now()
    Rating.objects.create(user=ann, ladder="rhombus", rating=1550, rated_games=3, last_active=now)
    Rating.objects.create(user=bea, ladder="rhombus", rating=1550, rated_games=3, last_active=now, is_bot=True)
    Rating.objects.create(user=bea, ladder="rhombus-teams", rating=1400, rated_games=3, last_active=now)
    assert kept(leaderboard.Filters(ladder="rhombus")) == {1550: 2}
    assert kept(leaderboard.Filters(ladder="rhombus", hide_bots=True)) == {1550: 1}
    assert kept(leaderboard.Filters()) == {1700: 1, 1600: 1}
    assert_counts_match()


def test_the_active_windows_edge_counts_to_the_second() -> None:
    window = timedelta(days=leaderboard.ACTIVE_DAYS)
    player("inside", 1600, days_ago=(window - timedelta(minutes=1)).total_seconds() / 86400)
    player("outside", 1500, days_ago=(window + timedelta(minutes=1)).total_seconds() / 86400)
    assert kept(leaderboard.Filters()) == {1600: 1}
    assert kept(leaderboard.Filters(active_only=False)) == {1600: 1, 1500: 1}


def compact(days_ago: float = 0) -> int:
    return rank_counts.compact(timezone.now() - timedelta(days=days_ago), timedelta(days=leaderboard.ACTIVE_DAYS))


def test_compacting_folds_the_rows_and_changes_no_figure(alice: Any, bob: Any) -> None:
    for index, days_ago in enumerate([1, 1, 2, 35, 40, 300]):
        player(f"p{index}", 1500 + index % 2, days_ago=days_ago)
    set_player(alice, 1500, 40, last_active=timezone.now())
    set_player(bob, 1500, 40, last_active=timezone.now())
    for loser in (alice, bob, alice):
        game = starting.start_game(alice, bob, seed="tests-game-seed")
        finishing.resign(game.pk, loser)
    before = {filters: kept(filters) for filters in FILTERS}
    assert compact() > 0
    assert {filters: kept(filters) for filters in FILTERS} == before
    assert_counts_match()
    assert not RatingCount.objects.filter(kind=RatingCount.Kind.FRESH).exists()
    # One folded row per (ladder, bot, rating, day); the days of 35, 40 and 300 days ago have none.
    folded = RatingCount.objects.filter(kind=RatingCount.Kind.FOLDED)
    groups = folded.values("ladder", "is_bot", "rating", "day").annotate(rows=Count("pk"))
    assert {group["rows"] for group in groups} == {1}
    assert sorted(folded.filter(day__isnull=True).values_list("rating", "n")) == [(1500, 1), (1501, 2)]
    compact()  # again: the same figures
    assert {filters: kept(filters) for filters in FILTERS} == before


def test_rows_added_after_a_compaction_count_beside_its_sums(alice: Any, bob: Any) -> None:
    player("ann", 1500)
    set_player(alice, 1500, 40, last_active=timezone.now() - timedelta(days=45))
    set_player(bob, 1500, 40, last_active=timezone.now())
    compact()
    game = starting.start_game(alice, bob, seed="tests-game-seed")
    finishing.resign(game.pk, alice)  # alice back in the window, at 1490
    assert RatingCount.objects.filter(kind=RatingCount.Kind.FRESH).exists()
    assert kept(leaderboard.Filters()) == {1510: 1, 1500: 1, 1490: 1}
    assert_counts_match()


def test_without_a_sum_for_todays_window_the_folded_days_are_read() -> None:
    for index, days_ago in enumerate([1, 5, 28.5, 29.5, 31, 60]):
        player(f"p{index}", 1500 + 10 * (index % 3), days_ago=days_ago)
    compact(days_ago=4)  # beat stopped four days ago: its sums are for another window start
    assert not RatingCount.objects.filter(kind=RatingCount.Kind.FRESH).exists()
    assert kept(leaderboard.Filters()) == {1520: 1, 1510: 1, 1500: 2}  # 1, 5, 28.5 and 29.5 days ago
    assert_counts_match()


def test_counts_answer_ranks_and_page_starts() -> None:
    counts = rank_counts.Counts((1800, 1600, 1500), (1, 2, 1))
    assert [counts.above(r) + 1 for r in (1900, 1800, 1700, 1600, 1500, 1400)] == [1, 1, 2, 2, 4, 5]
    assert [counts.locate(offset) for offset in range(4)] == [(1800, 0), (1600, 0), (1600, 1), (1500, 0)]
    assert counts.total == 4
