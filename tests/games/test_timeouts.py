"""Clocks enforced with nobody connected: games.tasks.claim_timeouts, run by Celery beat."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from celery.result import EagerResult
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games import finishing, moving, payloads, starting
from games.models import Game
from games.tasks import claim_timeouts
from tests.helpers import celery_worker, require_service, worker_database_url

SEED = "tests-game-seed"


def spend_clock(game: Game, seconds: int) -> None:
    """As if the side to move had been thinking for SECONDS (the clock is 600 s)."""
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=seconds))


def test_beat_runs_the_task_every_few_seconds() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["games-claim-timeouts"]
    assert entry["task"] == "games.tasks.claim_timeouts" and entry["schedule"] <= 10


@pytest.mark.django_db
def test_only_games_whose_mover_is_out_of_time_are_expired(alice: Any, bob: Any, charlie: Any) -> None:
    spent = starting.start_game(alice, bob, seed=SEED)
    fresh = starting.start_game(bob, charlie, seed=SEED)
    over = starting.start_game(charlie, alice, seed=SEED)
    finishing.resign(over.pk, charlie)
    spend_clock(spent, 601)
    spend_clock(fresh, 599)
    assert finishing.expired_game_ids(timezone.now()) == [spent.pk]
    assert set(finishing.expired_game_ids(timezone.now() + timedelta(seconds=2))) == {spent.pk, fresh.pk}


@pytest.mark.django_db
def test_the_task_run_directly_ends_a_spent_game_on_time(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, seed=SEED)
    other = starting.start_game(bob, alice, seed=SEED)
    spend_clock(game, 601)
    assert claim_timeouts() == [game.pk]
    game.refresh_from_db()
    other.refresh_from_db()
    assert (game.status, game.winner, game.reason, game.clocks["red"]) == ("finished", "black", "time", 0)
    assert payloads.view_for(game, None)["game"]["seed"] == SEED
    assert other.running
    assert claim_timeouts() == []


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_ends_a_game_on_time_with_nobody_connected(
        alice: Any, bob: Any, tmp_path: Path) -> None:
    redis_url = require_service("REDIS_URL", "a Celery worker")
    require_service("DATABASE_URL", "a worker sharing the test database")
    assert connection.settings_dict["NAME"].startswith("test_")
    game = starting.start_game(alice, bob, seed=SEED)
    moving.submit(game.pk, alice, 0, "5H e1-e6")  # Black to move now
    spend_clock(game, 601)
    log_path = tmp_path / "worker.log"
    with celery_worker(log_path, "timeouts", REDIS_URL=redis_url, DATABASE_URL=worker_database_url(connection)):
        result = claim_timeouts.delay()
        assert not isinstance(result, EagerResult)
        ended = result.get(timeout=30)
    assert ended == [game.pk], log_path.read_text()
    game.refresh_from_db()
    assert (game.status, game.winner, game.reason, game.clocks["black"]) == ("finished", "red", "time", 0)
    assert payloads.view_for(game, None)["game"]["seed"] == SEED
    assert game.seat("red").seen_at is None and game.seat("black").seen_at is None  # no socket was ever connected
