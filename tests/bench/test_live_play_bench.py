"""Smoke test of bench/live_play.py: two Ace in the Hole games and a Rhombus game of
two and of four players played to the end through a real daphne.

The daphne subprocess is pointed at pytest-django's test database (hence
transaction=True: it must see the committed users, sessions and games) and at
the tests' REDIS_URL.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection

from bench.live_play import run_benchmark
from tests.helpers import require_service


@pytest.mark.django_db(transaction=True)
def test_two_games_are_played_to_the_end_with_no_move_lost_or_duplicated() -> None:
    database_url = require_service("DATABASE_URL", "the live-play benchmark")
    redis_url = require_service("REDIS_URL", "the live-play benchmark")
    if connection.vendor != "postgresql":
        pytest.fail("the benchmark runs on PostgreSQL: DATABASE_URL must be postgres://")
    parts = urlsplit(database_url)
    test_database_url = urlunsplit(
        (parts.scheme, parts.netloc, "/" + connection.settings_dict["NAME"], parts.query, ""))

    # debug=True: the test settings keep the public development SECRET_KEY, which
    # settings.py accepts only with DEBUG (pytest-django turns DEBUG off in-process).
    result = run_benchmark(games=2, rhombus=1, rhombus4=1, database_url=test_database_url,
                           redis_url=redis_url, seed="smoke", move_timeout=10, total_timeout=90, debug=True)

    print(result.report())
    assert result.stats.errors == []
    assert result.stats.games_done == 4 and result.sockets == 2 * 2 + 2 + 4
    assert set(result.stats.by_game) == {"Ace in the Hole", "Rhombus", "Rhombus, 4 players"}
    assert "Rhombus, 4 players:" in result.report()
    assert result.check.problems == []
    assert (result.check.lost, result.check.duplicated, result.check.unfinished) == (0, 0, 0)
    assert result.moves == sum(result.stats.acked.values()) > 0
    assert result.ok
