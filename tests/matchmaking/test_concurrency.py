"""Several matcher runs at once never put a player in two games.

Two threads (each with its own PostgreSQL connection) call ``match`` at the same
moment, and two real Celery workers take matcher tasks at the same time.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from celery import group
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from games.models import Game, Seat
from ladder import matchmaking
from ladder.models import Player, PoolEntry
from ladder.tasks import match_pool
from tests.helpers import require_service

pytestmark = pytest.mark.django_db(transaction=True)
Workers = Callable[[int], list[Path]]


def fill_pool(count: int, start: int = 0) -> list[Any]:
    """``count`` players of ratings 1500-1599 waiting for 5+3 (no matcher queued)."""
    users = []
    for i in range(start, start + count):
        user = get_user_model().objects.create_user(f"p{i:03}", f"p{i:03}@example.org", "password")
        rating = 1500 + (i * 37) % 100
        Player.objects.create(user=user, rating=rating)
        PoolEntry.objects.create(user=user, time_control="5+3", rating=rating, joined=timezone.now())
        users.append(user)
    return users


def at_once(runs: int) -> list[list[int]]:
    """``runs`` threads call ``match()`` together; each thread's games, or its error raised."""
    barrier = threading.Barrier(runs)
    results: list[list[int]] = [[] for _ in range(runs)]
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = matchmaking.match()
        except BaseException as error:  # noqa: BLE001 - reported below, in the test's thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(runs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    if errors:
        raise errors[0]
    return results


def assert_nobody_double_booked(users: list[Any]) -> None:
    seats = Counter[int]()
    seats.update(Seat.objects.values_list("user_id", flat=True))
    assert max(seats.values(), default=0) <= 1, seats.most_common(3)
    for entry in PoolEntry.objects.filter(user__in=users):
        if entry.status == PoolEntry.Status.PAIRED:
            assert entry.game is not None and entry.user_id in (entry.game.user_id_at("red"), entry.game.user_id_at("black"))
        else:
            assert entry.game is None and seats[entry.user_id] == 0


def test_two_matcher_runs_at_once_never_double_book(django_user_model: Any) -> None:
    require_service("DATABASE_URL", "row locks and the advisory lock on PostgreSQL")
    users = fill_pool(30)
    first, second = at_once(2)
    assert not set(first) & set(second)
    assert len(first) + len(second) == 15 == Game.objects.count()
    assert_nobody_double_booked(users)


def test_runs_racing_new_arrivals_never_double_book(django_user_model: Any) -> None:
    users = fill_pool(11)
    at_once(3)
    users += fill_pool(9, start=11)  # the odd one out and nine more
    at_once(3)
    assert Game.objects.count() == 10
    assert_nobody_double_booked(users)


def test_without_the_advisory_lock_the_entry_row_locks_still_hold(
        django_user_model: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second line of defence alone: each pair's entries are locked and re-checked."""
    monkeypatch.setattr(matchmaking, "_serialize_runs", lambda: None)
    users = fill_pool(30)
    results = at_once(3)
    assert sum(len(r) for r in results) == 15 == Game.objects.count()
    assert_nobody_double_booked(users)


def test_two_real_workers_taking_matcher_tasks_together_never_double_book(
        django_user_model: Any, workers: Workers) -> None:
    users = fill_pool(40)
    logs = workers(2)
    results = group(match_pool.s() for _ in range(8)).apply_async().get(timeout=60)
    games = [game for run in results for game in run]
    assert len(games) == len(set(games)) == 20 == Game.objects.count()
    assert_nobody_double_booked(users)
    ran = [log.read_text().count("Task ladder.tasks.match_pool[") // 2 for log in logs]  # received, succeeded
    assert sum(ran) == 8 and min(ran) > 0, ran  # both workers took part
