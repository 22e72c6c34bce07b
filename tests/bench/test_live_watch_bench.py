"""Smoke test of bench/live_watch.py: a few games and watchers on a real daphne,
the driver moving, ending and starting games, every kind of change delivered.

The daphne subprocess is pointed at pytest-django's test database (hence
transaction=True) and at the tests' REDIS_URL, as in test_live_play_bench.py.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection

from bench.live_watch import parse, run_benchmark
from tests.helpers import require_service


@pytest.mark.django_db(transaction=True)
def test_watchers_get_moves_starts_and_ends_and_the_figures_are_printed() -> None:
    database_url = require_service("DATABASE_URL", "the watchers benchmark")
    redis_url = require_service("REDIS_URL", "the watchers benchmark")
    parts = urlsplit(database_url)
    test_database_url = urlunsplit(
        (parts.scheme, parts.netloc, "/" + connection.settings_dict["NAME"], parts.query, ""))
    # --debug: the test settings keep the development SECRET_KEY, which needs DEBUG.
    args = parse(["--games", "20", "--watchers", "24", "--seconds", "4", "--rate", "10", "--turnover", "1.5",
                  "--goal-ms", "5000", "--debug"])

    result = run_benchmark(test_database_url, redis_url, args)

    print(result.report())
    assert result.stats.errors == []
    assert result.stats.moves > 0 and result.stats.starts >= 1 and result.stats.ends >= 1
    assert result.stats.board_latency and result.stats.list_latency  # moves, and lists closing up
    assert "board (move -> watcher) latency ms" in result.report()
    assert result.ok
