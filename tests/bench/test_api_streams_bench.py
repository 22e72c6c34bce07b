"""Smoke test of bench/api_streams.py at a tiny size: 50 event streams in two
steps on one daphne, 10 challenges timed through them, and 3 games of 10
moves played over the HTTP API with both seats' game streams open.

As test_live_play_bench.py: the daphne subprocesses are pointed at
pytest-django's test database (hence transaction=True: they must see the
committed users, tokens and games) and at the tests' REDIS_URL. It checks that
the bench completed with no failure and printed its figures, never its speed.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection

from bench.api_streams import run_benchmark
from games.models import Move
from ladder.models import Challenge
from tests.helpers import require_service


@pytest.mark.django_db(transaction=True)
def test_streams_are_held_and_moves_reach_the_opponents_stream(capsys: pytest.CaptureFixture[str]) -> None:
    database_url = require_service("DATABASE_URL", "the API streams benchmark")
    redis_url = require_service("REDIS_URL", "the API streams benchmark")
    if connection.vendor != "postgresql":
        pytest.fail("the benchmark runs on PostgreSQL: DATABASE_URL must be postgres://")
    parts = urlsplit(database_url)
    test_database_url = urlunsplit(
        (parts.scheme, parts.netloc, "/" + connection.settings_dict["NAME"], parts.query, ""))

    # debug=True: the test settings keep the public development SECRET_KEY, which
    # settings.py accepts only with DEBUG (pytest-django turns DEBUG off in-process).
    outcome = run_benchmark(database_url=test_database_url, redis_url=redis_url, max_streams=50, first_step=25,
                            sample=10, games=3, moves=10, seed="smoke", timeout=20, total_timeout=120,
                            keepalive=1, debug=True)
    report = outcome.report()
    print(report)

    capacity = outcome.capacity
    assert [(s.target, s.open, dict(s.failures)) for s in capacity.steps] == [(25, 25, {}), (50, 50, {})]
    assert capacity.held == 50 and capacity.errors == []
    assert all(s.rss_mb > 0 and s.fds > 50 for s in capacity.steps)
    assert len(capacity.delivery) == 10 and not capacity.delivery_failures
    assert Challenge.objects.count() == 10

    moves = outcome.moves
    assert moves.stats.errors == [] and moves.check.problems == []
    assert moves.stats.games_done == 3 and moves.moves == 30 == Move.objects.count()
    assert sorted(moves.stats.acked.values()) == [10, 10, 10]
    assert outcome.found.pg_sessions >= 0 and len(outcome.found.answers) == 30
    assert outcome.ok

    printed = capsys.readouterr().out
    for figure in ("largest step fully held: 50 streams", "delivery at 50 streams", "10 lines, ms p50",
                   "total moves: 30", "moves/s:", "latency ms (POST sent -> opponent's stream line",
                   "cpu ms per move", "PostgreSQL sessions opened while playing", "lost: 0, duplicated: 0, unacknowledged: 0, gaps: 0, unfinished: 0"):
        assert figure in printed
