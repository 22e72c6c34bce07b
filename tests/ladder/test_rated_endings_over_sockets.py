"""Each way a rated game ends, played over the game socket (or by the real Celery
worker for time), moves both ratings exactly once."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from celery.result import EagerResult
from channels.db import database_sync_to_async
from django.db import connection
from django.utils import timezone

import engine
from games import finishing, moving, refusals, starting
from games.models import Game
from games.tasks import claim_timeouts
from ladder.models import Player, RatingChange
from tests.engine.positions import position
from tests.helpers import celery_worker, require_service, wait_for_other_sessions_to_end, worker_database_url
from tests.ladder.conftest import set_player
from tests.seats import set_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]

SEED = "tests-game-seed"
Opener = Any


def standings() -> dict[str, tuple[int, int, int, int, int]]:
    return {p.user.username: (p.rating, p.rated_games, p.wins, p.draws, p.losses)
            for p in Player.objects.select_related("user")}


def changes(game: Game) -> list[tuple[str, int, int, float]]:
    return list(RatingChange.objects.filter(game=game).order_by("user__username")
                .values_list("user__username", "before", "after", "score"))


def started_game(alice: Any, bob: Any) -> Game:
    """Both sides have moved (ply 2, Red to move): a no-show before that is aborted, not claimed."""
    game = starting.start_game(alice, bob, seed=SEED)
    for ply, user in enumerate((alice, bob)):
        state = engine.from_json(Game.objects.get(pk=game.pk).position)
        moving.submit(game.pk, user, ply, str(engine.legal_actions(state)[0]))
    return game


def near_the_end(alice: Any, bob: Any, state: engine.State) -> Game:
    """A rated game between Alice (Red) and Bob (Black) set at STATE."""
    game = starting.start_game(alice, bob, seed=SEED)
    Game.objects.filter(pk=game.pk).update(position=dict(engine.to_json(state)), ply=state.ply)
    return Game.objects.get(pk=game.pk)


# Black's King of Spades takes Red's Ace of Hearts; Red's Ace of Diamonds is already
# captured and Red holds no Ace card: Red's turn begins with no release, Black wins (R15).
ACES = position({"e4": "AH", "e5": "KS", "a1": "JD"}, red=["5H"], black=["KS"], to_move="black",
                captured={"black": ["AD"]}, decks={"red": ["7H"], "black": ["7S"]}, ply=21)
# Black burns the last card of the game; each captured area holds a King: 20-20 (R16).
POINTS_DRAW = position({"e4": "AH", "e8": "AS"}, red=[], black=["5S"], to_move="black",
                       captured={"red": ["KC"], "black": ["KD"]}, ply=51)


async def play_last_move(game: Game, cookies: dict[str, str], sockets: Opener, action: str) -> dict[str, Any]:
    black, sync = await sockets(game.pk, cookies["bob"])
    assert action in sync["legal"]
    update = await black.request({"type": "act", "ply": sync["ply"], "action": action})
    assert update["type"] == "update" and update["game"]["status"] == "finished"
    again = await black.request({"type": "act", "ply": sync["ply"], "action": action})
    assert again["type"] == "error"  # a repeat of the ending changes nothing
    return update


async def test_r15_aces_over_the_socket(alice: Any, bob: Any, cookies: dict[str, str], sockets: Opener) -> None:
    game = await database_sync_to_async(near_the_end)(alice, bob, ACES)
    update = await play_last_move(game, cookies, sockets, "KS e5xe4")
    assert (update["game"]["winner"], update["game"]["reason"]) == ("black", "aces")
    assert await database_sync_to_async(changes)(game) == [("alice", 1500, 1480, 0.0), ("bob", 1500, 1520, 1.0)]
    assert await database_sync_to_async(standings)() == {"alice": (1480, 1, 0, 0, 1), "bob": (1520, 1, 1, 0, 0)}


async def test_r16_draw_on_points_over_the_socket(
        alice: Any, bob: Any, cookies: dict[str, str], sockets: Opener) -> None:
    # Alice 1600 (40 games, K 20) draws Bob 1400 (10 games, K 40): E_A = 0.759747;
    # Alice 20 * (0.5 - 0.759747) = -5.2 -> 1595; Bob 40 * (0.5 - 0.240253) = +10.4 -> 1410.
    await database_sync_to_async(set_player)(alice, 1600, 40)
    await database_sync_to_async(set_player)(bob, 1400, 10)
    game = await database_sync_to_async(near_the_end)(alice, bob, POINTS_DRAW)
    update = await play_last_move(game, cookies, sockets, "5S burn")
    assert (update["game"]["winner"], update["game"]["reason"]) == (None, "points")
    assert await database_sync_to_async(changes)(game) == [("alice", 1600, 1595, 0.5), ("bob", 1400, 1410, 0.5)]
    assert await database_sync_to_async(standings)() == {"alice": (1595, 41, 0, 1, 0), "bob": (1410, 11, 0, 1, 0)}


async def test_resignation_over_the_socket(alice: Any, bob: Any, cookies: dict[str, str], sockets: Opener) -> None:
    game = await database_sync_to_async(starting.start_game)(alice, bob, seed=SEED)
    red, _ = await sockets(game.pk, cookies["alice"])
    update = await red.request({"type": "resign"})
    assert update["game"]["reason"] == "resignation"
    assert (await red.request({"type": "resign"}))["type"] == "error"
    assert await database_sync_to_async(changes)(game) == [("alice", 1500, 1480, 0.0), ("bob", 1500, 1520, 1.0)]


async def test_abandonment_claim_over_the_socket(
        alice: Any, bob: Any, cookies: dict[str, str], sockets: Opener) -> None:
    game = await database_sync_to_async(started_game)(alice, bob)
    long_ago = timezone.now() - timedelta(seconds=100)
    await database_sync_to_async(set_game)(
        game, red_seen_at=long_ago, red_left_at=long_ago + timedelta(seconds=5), turn_started_at=long_ago)
    black, _ = await sockets(game.pk, cookies["bob"])
    update = await black.request({"type": "claim"})
    assert (update["game"]["winner"], update["game"]["reason"]) == ("black", "abandonment")
    assert (await black.request({"type": "claim"}))["type"] == "error"
    assert await database_sync_to_async(changes)(game) == [("alice", 1500, 1480, 0.0), ("bob", 1500, 1520, 1.0)]


def test_time_forfeit_by_the_celery_worker_then_a_late_resignation(alice: Any, bob: Any, tmp_path: Path) -> None:
    redis_url = require_service("REDIS_URL", "a Celery worker")
    game = starting.start_game(alice, bob, seed=SEED)
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=601))
    log_path = tmp_path / "worker.log"
    try:
        with celery_worker(log_path, "ladder", REDIS_URL=redis_url, DATABASE_URL=worker_database_url(connection)):
            result = claim_timeouts.delay()
            assert not isinstance(result, EagerResult)
            assert result.get(timeout=30) == [game.pk], log_path.read_text()
            assert claim_timeouts.delay().get(timeout=30) == []  # the next beat finds nothing
    finally:
        wait_for_other_sessions_to_end(connection)  # the worker's session, before teardown drops the db
    with pytest.raises(refusals.Refusal):
        finishing.resign(game.pk, alice)
    assert Game.objects.get(pk=game.pk).reason == "time"
    assert changes(game) == [("alice", 1500, 1480, 0.0), ("bob", 1500, 1520, 1.0)]
    assert standings() == {"alice": (1480, 1, 0, 0, 1), "bob": (1520, 1, 1, 0, 0)}
