"""A rated game's end moves both ratings once, in the transaction that records it;
casual and aborted games never do; a moderator can undo one game's effect."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from games import finishing, refusals, starting
from games.models import Game
from ladder import ratings
from ladder.models import Player, RatingChange
from tests.ladder.conftest import set_player

SEED = "tests-game-seed"


def standing(user: Any) -> tuple[int, int, int, int, int, int]:
    p = Player.objects.get(user=user)
    return p.rating, p.rated_games, p.wins, p.draws, p.losses, p.streak


def spend_clock(game: Game, seconds: int) -> None:
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=seconds))


@pytest.mark.django_db
class TestOnTheDatabase:
    def test_a_resignation_between_newcomers_moves_20_points_each_way(self, alice: Any, bob: Any) -> None:
        # Both 1500 with no games: E = 0.5, K = 40; Bob wins: 1500 + 40 * 0.5 = 1520, Alice 1480.
        game = starting.start_game(alice, bob, seed=SEED)
        finishing.resign(game.pk, alice)
        assert standing(bob) == (1520, 1, 1, 0, 0, 1)
        assert standing(alice) == (1480, 1, 0, 0, 1, -1)
        red, black = RatingChange.objects.filter(game=game).order_by("user__username")
        assert (red.user, red.opponent, red.before, red.after, red.opponent_rating, red.score, red.k) == (
            alice, bob, 1500, 1480, 1500, 0.0, 40)
        assert (black.user, black.before, black.after, black.score) == (bob, 1500, 1520, 1.0)
        assert Player.objects.get(user=bob).last_active == Game.objects.get(pk=game.pk).finished

    def test_ratings_use_each_players_own_k_and_stored_rating(self, alice: Any, bob: Any) -> None:
        # Alice 1450 after 29 games (K 40) beats Bob 1550 with 30 (K 20): E_A = 0.359935,
        # Alice +26 -> 1476, Bob -13 -> 1537 (worked out in test_elo).
        set_player(alice, 1450, 29)
        set_player(bob, 1550, 30)
        game = starting.start_game(alice, bob, seed=SEED)
        finishing.resign(game.pk, bob)
        assert (standing(alice)[:2], standing(bob)[:2]) == ((1476, 30), (1537, 31))
        assert sorted(RatingChange.objects.filter(game=game).values_list("k", flat=True)) == [20, 40]

    def test_processing_the_end_again_changes_nothing(self, alice: Any, bob: Any) -> None:
        game = starting.start_game(alice, bob, seed=SEED)
        finishing.resign(game.pk, alice)
        after = (standing(alice), standing(bob))
        assert ratings.rate_game(Game.objects.get(pk=game.pk)) == []
        again = Game.objects.get(pk=game.pk)  # the end path run a second time on the same row
        again.finish(timezone.now(), "red", Game.Reason.TIME, {"red": 0, "black": 0})
        again.save()
        spend_clock(game, 10_000)
        finishing.claim_time(game.pk)
        with pytest.raises(refusals.Refusal, match="the game is over"):
            finishing.resign(game.pk, bob)
        assert (standing(alice), standing(bob)) == after
        assert RatingChange.objects.filter(game=game).count() == 2

    def test_a_casual_game_never_touches_ratings(self, alice: Any, bob: Any) -> None:
        set_player(alice, 1600, 40)
        game = starting.start_game(alice, bob, seed=SEED, rated=False)
        finishing.resign(game.pk, alice)
        assert Game.objects.get(pk=game.pk).status == "finished"
        assert standing(alice) == (1600, 40, 0, 0, 0, 0)
        assert not Player.objects.filter(user=bob).exists() and not RatingChange.objects.exists()

    def test_an_aborted_game_never_touches_ratings(self, alice: Any, bob: Any) -> None:
        set_player(alice, 1600, 40)
        game = starting.start_game(alice, bob, seed=SEED)
        finishing.abort(game.pk, alice)
        assert Game.objects.get(pk=game.pk).status == "aborted"
        assert standing(alice) == (1600, 40, 0, 0, 0, 0) and not RatingChange.objects.exists()

    def test_streaks_count_wins_and_losses_in_a_row(self, alice: Any, bob: Any) -> None:
        for loser in (bob, bob, alice):
            game = starting.start_game(alice, bob, seed=SEED)
            finishing.resign(game.pk, loser)
        assert standing(alice)[2:] == (2, 0, 1, -1)
        assert standing(bob)[2:] == (1, 0, 2, 1)


@pytest.mark.django_db(transaction=True)
def test_resignation_racing_the_time_forfeit_rates_once(alice: Any, bob: Any) -> None:
    """Alice resigns while the clock task ends her game on time: one result, one rating change."""
    game = starting.start_game(alice, bob, seed=SEED)
    spend_clock(game, 601)
    start = threading.Barrier(2)

    def run(end: Any) -> str:
        try:
            start.wait()
            try:
                return end().reason
            except refusals.Refusal as refusal:
                return str(refusal)
        finally:
            connection.close()

    with ThreadPoolExecutor(2) as pool:
        outcomes = list(pool.map(run, [lambda: finishing.resign(game.pk, alice),
                                       lambda: finishing.claim_time(game.pk)]))
    final = Game.objects.get(pk=game.pk)
    assert final.reason in ("resignation", "time") and final.winner == "black"
    assert final.reason in outcomes
    assert RatingChange.objects.filter(game=game).count() == 2
    assert standing(alice)[:2] == (1480, 1) and standing(bob)[:2] == (1520, 1)


@pytest.mark.django_db
class TestModeratorUndo:
    def undo(self, client: Client, change: RatingChange) -> Any:
        return client.post("/admin/ladder/ratingchange/", {
            "action": "undo_rating_effect", "_selected_action": [change.pk]}, follow=True)

    def test_undo_reverses_both_players_and_marks_the_changes(self, admin_client: Client, alice: Any,
                                                            bob: Any) -> None:
        first = starting.start_game(alice, bob, seed=SEED)
        finishing.resign(first.pk, alice)  # Bob 1520, Alice 1480
        second = starting.start_game(alice, bob, seed=SEED)
        # 1480 beats 1520: E = 1 / (1 + 10^(40/400)) = 0.442688; 40 * 0.557312 = +22.3 -> +22 each way
        finishing.resign(second.pk, bob)
        assert standing(alice) == (1502, 2, 1, 0, 1, 1) and standing(bob) == (1498, 2, 1, 0, 1, -1)
        change = RatingChange.objects.get(game=first, user=bob)
        response = self.undo(admin_client, change)
        assert "Undid 2 rating changes from 1 game(s)." in response.content.decode()
        # First game taken back: Alice +20, Bob -20; the later game's effect stays.
        assert standing(alice) == (1522, 1, 1, 0, 0, 1) and standing(bob) == (1478, 1, 0, 0, 1, -1)
        assert all(c.undone_at is not None for c in RatingChange.objects.filter(game=first))
        assert all(c.undone_at is None for c in RatingChange.objects.filter(game=second))
        assert ratings.history(bob) == [(RatingChange.objects.get(game=second, user=bob).created, 1520),
                                        (RatingChange.objects.get(game=second, user=bob).created, 1498)]

    def test_a_second_undo_changes_nothing_and_says_so(self, admin_client: Client, alice: Any, bob: Any) -> None:
        game = starting.start_game(alice, bob, seed=SEED)
        finishing.resign(game.pk, alice)
        change = RatingChange.objects.get(game=game, user=alice)
        self.undo(admin_client, change)
        assert standing(alice) == standing(bob) == (1500, 0, 0, 0, 0, 0)
        response = self.undo(admin_client, change)
        assert "Nothing to undo" in response.content.decode()
        assert standing(alice) == standing(bob) == (1500, 0, 0, 0, 0, 0)

    def test_only_staff_reach_the_undo(self, client: Client, alice: Any, bob: Any) -> None:
        game = starting.start_game(alice, bob, seed=SEED)
        finishing.resign(game.pk, alice)
        client.force_login(bob)
        response = self.undo(client, RatingChange.objects.get(game=game, user=bob))
        assert "/admin/login/" in response.redirect_chain[-1][0]
        assert standing(bob)[0] == 1520
