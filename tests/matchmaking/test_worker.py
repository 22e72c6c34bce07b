"""The matcher as it runs on the site: ladder.tasks.match_pool on a real Celery worker and Redis.

Time is driven by moving the entries' ``joined`` into the past, never by sleeping.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from celery.result import EagerResult
from django.conf import settings
from django.utils import timezone

from ladder import matchmaking
from ladder.models import PoolEntry
from ladder.tasks import match_pool
from tests.matchmaking.conftest import games_of, poll, status_of, wait_longer

pytestmark = pytest.mark.django_db(transaction=True)
Rated = Callable[[str, int], Any]
Workers = Callable[[int], list[Path]]


def waiting(user: Any, rating: int, control: str = "5+3") -> PoolEntry:
    """Put ``user`` in the pool without queueing a matcher run, so the test decides when it runs."""
    return PoolEntry.objects.create(user=user, time_control=control, rating=rating, joined=timezone.now())


def run_on_worker() -> list[int]:
    result = match_pool.delay()
    assert not isinstance(result, EagerResult)  # a real worker, through Redis
    games: list[int] = result.get(timeout=30)
    return games


def test_beat_runs_the_matcher_every_few_seconds() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["ladder-match-pool"]
    assert entry["task"] == "ladder.tasks.match_pool" and entry["schedule"] <= 5


def test_a_worker_pairs_the_closest_ratings_first(rated: Rated, workers: Workers) -> None:
    ann, ben, cal, dan = rated("ann", 1500), rated("ben", 1590), rated("cal", 1520), rated("dan", 1510)
    for user, rating in ((ann, 1500), (ben, 1590), (cal, 1520)):
        waiting(user, rating)
    waiting(dan, 1510, "3+2")  # the closest of all, but in another pool
    logs = workers(1)
    [game_id] = run_on_worker()
    [game] = games_of(ann)
    assert game.pk == game_id and {game.seat("red").user, game.seat("black").user} == {ann, cal}, logs[0].read_text()
    assert (game.rated, game.time_control.key) == (True, "5+3")
    assert (status_of(ben), status_of(dan)) == ("waiting", "waiting")


def test_the_window_widens_with_waiting_until_a_worker_pairs_them(rated: Rated, workers: Workers) -> None:
    ann, ben = rated("ann", 1500), rated("ben", 1760)
    waiting(ann, 1500)
    waiting(ben, 1760)
    workers(1)
    assert run_on_worker() == []  # ±100: 260 apart
    for user in (ann, ben):
        wait_longer(user, 25)  # ±200
    assert run_on_worker() == []
    for user in (ann, ben):
        wait_longer(user, 45)  # ±300
    [game_id] = run_on_worker()
    assert [g.pk for g in games_of(ben)] == [game_id]
    assert (status_of(ann), status_of(ben)) == ("paired", "paired")


def test_joining_alone_sets_the_worker_pairing(rated: Rated, workers: Workers) -> None:
    """No explicit run: each join queues one after commit, and the two land in one game."""
    ann, ben = rated("ann", 1500), rated("ben", 1540)
    workers(1)
    matchmaking.join(ann, "1+0")
    matchmaking.join(ben, "1+0")
    assert poll(lambda: status_of(ann) == status_of(ben) == "paired")
    [game] = games_of(ann)
    assert games_of(ben) == [game] and game.time_control.key == "1+0"
    assert PoolEntry.objects.get(user=ben).game == game
