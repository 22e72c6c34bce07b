"""Smoke test of bench/admin_lists.py: a tiny data set fills every admin list,
each list is measured, the largest exportable list exported; a database not
named for the bench is refused before anything is touched."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from django.contrib import admin

from bench.admin_lists import ROOT, Filler, Sizes, fill_unfilled, label, measure_export, measure_lists, refusal
from bench.admin_lists import superuser_client
from games.models import Move
from tournaments.models import Pairing

TINY = Sizes(users=20, games=12, moves=480, lines=30, reports=5, acts=3, tournaments=1, entrants=4, rounds=2, few=3)


def test_a_database_not_named_for_the_bench_is_refused() -> None:
    assert "aceweb_bench" in (refusal("postgres://postgres@127.0.0.1:5432/aceweb") or "")
    assert "aceweb_bench" in (refusal("postgres://postgres@127.0.0.1:5432/bench_aceweb_bench") or "")
    assert "PostgreSQL" in (refusal("sqlite:///aceweb_bench.db") or "")
    assert refusal("postgres://postgres@127.0.0.1:5432/aceweb_bench_admin") is None


def test_the_refusal_is_before_any_change() -> None:
    done = subprocess.run([sys.executable, "bench/admin_lists.py", "--database-url",
                           "postgres://postgres@127.0.0.1:1/aceweb"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "refusing to empty database 'aceweb'" in done.stdout


def test_help_works() -> None:
    done = subprocess.run([sys.executable, "bench/admin_lists.py", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and "--quick" in done.stdout


@pytest.mark.django_db
def test_every_list_is_filled_measured_and_the_largest_exported() -> None:
    Filler(TINY).fill()
    assert fill_unfilled(TINY.few) == []  # the script fills every registered list itself
    assert all(model._default_manager.exists() for model in admin.site._registry)
    assert 20 * TINY.games <= Move.objects.count() <= 86 * TINY.games  # 20 to 86 moves a game
    assert Pairing.objects.count() == TINY.tournament_games

    rows = measure_lists(superuser_client(), pages=1)
    assert sorted(row.name.split(" ")[0] for row in rows) == sorted(label(m) for m in admin.site._registry)
    assert all(row.rows > 0 and row.queries > 0 and row.wall_ms > 0 for row in rows)
    assert all(re.fullmatch(r"\| \S+( \(\S+\))? \| [\d,]+ \| \d+ \| [\d.]+ \| [\d.]+ \|", row.line()) for row in rows)
    line = measure_export(superuser_client(), runs=1)
    assert re.fullmatch(r"CSV export of ladder\.ratingchange: 24 rows, \d+ queries, .* rows/s\), .* per 1,000 rows\)",
                        line), line
