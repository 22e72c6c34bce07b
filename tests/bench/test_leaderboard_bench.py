"""Smoke test of bench/leaderboard.py: 500 seeded players, every view measured and reported."""

from __future__ import annotations

import re

import pytest
from django.db import connection

from bench.leaderboard import cases, measure, seed_players, vacuum
from ladder.models import Player
from tests.helpers import require_service


@pytest.mark.django_db(transaction=True)
def test_the_bench_seeds_players_and_reports_each_view() -> None:
    require_service("DATABASE_URL", "the leaderboard benchmark (PostgreSQL)")
    assert connection.vendor == "postgresql"
    seed_players(500)
    vacuum()
    assert Player.objects.count() == 500
    ratings = list(Player.objects.values_list("rating", flat=True))
    assert 750 <= min(ratings) < 1500 < max(ratings) <= 2250  # 1500 + 500 * (three uniforms - 1.5)
    assert Player.objects.filter(is_bot=True).count() == 1  # one in 500

    result = measure(500, runs=2)
    report = result.report()
    print(report)
    assert [c.name for c in result.cases] == [name for name, _ in cases(500)]
    assert all(c.median_ms > 0 and c.queries > 0 for c in result.cases)
    by_name = {c.name: c for c in result.cases}
    assert by_name["first page"].rows == 50 and by_name["all players"].rows == 50
    assert 0 < by_name["search"].rows <= 50
    # A constant number of queries, whatever the page: every unsearched view alike.
    assert len({c.queries for c in result.cases if "search" not in c.name}) == 1
    lines = report.splitlines()
    assert lines[0] == "leaderboard: 500 players, median of 2 requests each"
    columns = re.compile(r" [\d.]+ ms +[\d.]+ ms +[\d.]+ ms +\d+ queries +\d+ rows +/ladder/\?")  # server, SQL, CPU
    assert all(columns.search(line) for line in lines[2:-1])
    assert re.fullmatch(r"slowest: [\d.]+ ms; queries per page: [\d, ]+", lines[-1])
