"""R17 abandonment: presence per seat, the grace period in the absent player's own turn, the claim.

Time is driven by writing the presence timestamps, never by sleeping.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

import engine
from games import finishing, moving, payloads, refusals, starting
from games.models import (ABANDON_GRACE_CORRESPONDENCE, ABANDON_GRACE_REAL_TIME, PRESENCE_STALE, Game)
from games.timecontrols import TimeControl
from games.timestamps import stamp
from tests.games.conftest import load_game
from tests.seats import set_game

SEED = "tests-game-seed"


def ago(seconds: float) -> Any:
    return timezone.now() - timedelta(seconds=seconds)


@pytest.fixture
def game(alice: Any, bob: Any) -> Game:
    """Alice (Red) against Bob, both sides started: ply 2, Red to move. Before
    that, a no-show is aborted rather than claimed against (FIRST_MOVE_WINDOW)."""
    g = starting.start_game(alice, bob, seed=SEED)
    moving.submit(g.pk, alice, 0, "5H e1-e6")
    moving.submit(g.pk, bob, 1, first_legal(g.pk))
    return Game.objects.get(pk=g.pk)


def first_legal(game_id: int) -> str:
    return str(engine.legal_actions(engine.from_json(Game.objects.get(pk=game_id).position))[0])


def set_times(game: Game, **fields: Any) -> Game:
    return set_game(game, **fields)


@pytest.mark.django_db
class TestOnTheDatabase:
    def test_red_gone_in_her_own_turn_can_be_claimed_against_after_the_grace(
            self, game: Game, alice: Any, bob: Any) -> None:
        g = set_times(game, turn_started_at=ago(60), red_seen_at=ago(50), red_left_at=ago(40),
                      black_seen_at=ago(1))
        payload = payloads.view_for(g, bob)["game"]
        assert payload["presence"] == {"red": False, "black": True}
        assert payload["claim_win_at"] == stamp(g.seat("red").left_at + ABANDON_GRACE_REAL_TIME)
        g = finishing.claim_abandonment(game.pk, bob)
        assert (g.status, g.winner, g.reason) == ("finished", "black", "abandonment")
        assert payloads.view_for(g, None)["game"]["seed"] == SEED

    def test_a_claim_inside_the_grace_period_is_refused_and_changes_nothing(
            self, game: Game, bob: Any) -> None:
        set_times(game, turn_started_at=ago(60), red_seen_at=ago(50), red_left_at=ago(10))
        with pytest.raises(refusals.Refusal, match=r"Red left only recently: you can claim the win in 2\d s"):
            finishing.claim_abandonment(game.pk, bob)
        assert Game.objects.get(pk=game.pk).running

    def test_nothing_to_claim_while_the_mover_is_here(self, game: Game, bob: Any) -> None:
        g = set_times(game, red_seen_at=ago(5))
        assert payloads.view_for(g, bob)["game"]["claim_win_at"] is None
        with pytest.raises(refusals.Refusal, match="Red is here"):
            finishing.claim_abandonment(game.pk, bob)

    def test_an_absent_player_who_is_not_to_move_cannot_be_claimed_against(
            self, game: Game, alice: Any) -> None:
        g = set_times(game, black_seen_at=ago(3600), black_left_at=ago(3000), red_seen_at=ago(1))
        assert payloads.view_for(g, alice)["game"]["presence"] == {"red": True, "black": False}
        assert payloads.view_for(g, alice)["game"]["claim_win_at"] is None  # it is Red's turn
        with pytest.raises(refusals.Refusal, match="it is your turn"):
            finishing.claim_abandonment(game.pk, alice)

    def test_the_grace_counts_only_from_the_start_of_the_absent_players_turn(
            self, game: Game, alice: Any, bob: Any) -> None:
        set_times(game, black_seen_at=ago(3600), black_left_at=ago(3000))
        before = timezone.now()
        g = moving.submit(game.pk, alice, 2, first_legal(game.pk))  # now Black, long gone, is to move
        claim_at = g.claim_win_at(timezone.now())
        assert claim_at is not None and claim_at >= before + ABANDON_GRACE_REAL_TIME
        with pytest.raises(refusals.Refusal, match="left only recently"):
            finishing.claim_abandonment(game.pk, alice)
        set_times(game, turn_started_at=ago(31))
        assert finishing.claim_abandonment(game.pk, alice).reason == "abandonment"

    def test_a_socket_that_stops_beating_counts_as_gone(self, game: Game, bob: Any) -> None:
        """A crashed server process never says goodbye: its stamps go stale instead."""
        stale = PRESENCE_STALE.total_seconds()
        g = set_times(game, turn_started_at=ago(stale + 40), red_seen_at=ago(stale + 31))
        assert not g.present("red", timezone.now())
        assert finishing.claim_abandonment(game.pk, bob).winner == "black"

    def test_correspondence_gives_a_day(self, alice: Any, bob: Any) -> None:
        game = starting.start_game(alice, bob, seed=SEED, time_control=TimeControl.parse("3d"))
        set_times(game, turn_started_at=ago(7200), red_seen_at=ago(7200), red_left_at=ago(3600))
        with pytest.raises(refusals.Refusal, match=r"left only recently: you can claim the win in 2\d h"):
            finishing.claim_abandonment(game.pk, bob)
        day = ABANDON_GRACE_CORRESPONDENCE.total_seconds()
        set_times(game, turn_started_at=ago(day + 10), red_seen_at=ago(day + 8), red_left_at=ago(day + 5))
        assert finishing.claim_abandonment(game.pk, bob).reason == "abandonment"

    def test_a_game_not_yet_started_is_aborted_not_claimed(self, alice: Any, bob: Any) -> None:
        fresh = starting.start_game(alice, bob, seed=SEED)  # Red never came
        g = set_times(fresh, black_seen_at=ago(1))
        assert payloads.view_for(g, bob)["game"]["claim_win_at"] is None
        with pytest.raises(refusals.Refusal, match="the game has not started: it is aborted if Red has not moved by"):
            finishing.claim_abandonment(fresh.pk, bob)
        set_times(fresh, abort_at=ago(1))
        assert finishing.claim_abandonment(fresh.pk, bob).status == "aborted"  # no win, no rating

    def test_spectators_and_finished_games_cannot_be_claimed(
            self, game: Game, bob: Any, charlie: Any) -> None:
        set_times(game, red_seen_at=ago(600), red_left_at=ago(500), turn_started_at=ago(500))
        with pytest.raises(refusals.Refusal, match="not playing"):
            finishing.claim_abandonment(game.pk, charlie)
        finishing.resign(game.pk, bob)
        with pytest.raises(refusals.Refusal, match="the game is over"):
            finishing.claim_abandonment(game.pk, bob)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("services")
class TestOverSockets:
    async def test_the_opponent_sees_a_player_go_and_come_back(
            self, game: Game, cookies: dict[str, str], sockets: Any) -> None:
        red, _ = await sockets(game.pk, cookies["alice"])
        black, sync = await sockets(game.pk, cookies["bob"])
        assert sync["game"]["presence"] == {"red": True, "black": True}
        await red.close()
        gone = await black.receive()
        assert gone["type"] == "update" and gone["game"]["presence"] == {"red": False, "black": True}
        assert gone["game"]["claim_win_at"] is not None  # Red left in her own turn
        _, again = await sockets(game.pk, cookies["alice"])  # Black is told (checked by sockets)
        assert again["game"]["presence"]["red"] is True and again["game"]["claim_win_at"] is None

    async def test_a_second_tab_keeps_the_seat_present(
            self, game: Game, cookies: dict[str, str], sockets: Any) -> None:
        red, _ = await sockets(game.pk, cookies["alice"])
        tab1, _ = await sockets(game.pk, cookies["bob"])
        tab2, _ = await sockets(game.pk, cookies["bob"])
        await tab1.close()
        # Two updates: Black's tab left, and the other tab said it is still here. The
        # first may already show Black back (the database threads run side by side);
        # the last always does.
        seen = [await red.receive(), await red.receive()]
        assert seen[-1]["game"]["presence"]["black"] is True
        assert (await load_game(game.pk)).present("black", timezone.now())
        await tab2.drain()

    async def test_claim_over_the_socket_early_then_after_the_grace(
            self, game: Game, cookies: dict[str, str], sockets: Any) -> None:
        black, _ = await sockets(game.pk, cookies["bob"])
        error = await black.request({"type": "claim"})
        assert error["type"] == "error" and "you can claim the win in" in error["message"]
        await set_times_async(game, red_seen_at=ago(100), red_left_at=ago(90), turn_started_at=ago(95))
        update = await black.request({"type": "claim"})
        assert update["type"] == "update" and update["game"]["reason"] == "abandonment"
        assert update["game"]["winner"] == "black" and update["game"]["seed"] == SEED


async def set_times_async(game: Game, **fields: Any) -> None:
    from channels.db import database_sync_to_async
    await database_sync_to_async(set_times)(game, **fields)
