"""Smoke test of bench/replay.py: a short game of each kind, its replay page built and reported."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bench.replay import KINDS, load, measure, record_text, report

pytestmark = pytest.mark.django_db


def test_the_bench_builds_each_kind_s_replay_page_and_reports_it(tmp_path: Path) -> None:
    cases = measure(plies=40, runs=1, seed="smoke", tries=2, keep=tmp_path)

    assert [c.kind for c in cases] == [kind for kind, _, _ in KINDS]
    assert all(0 < c.plies <= 40 and c.wall_ms > 0 and c.cpu_ms >= 0 and c.page_kb > 1 for c in cases)
    assert [c.plies for c in cases][1:] == [40] * 4  # no Rhombus game ends this soon by random play
    text = report(cases, 1, load(), load())
    print(text)
    lines = text.splitlines()
    assert lines[0] == "replay pages: median of 1 builds each, through the import page"
    assert all(re.search(r"load average [\d.]+ [\d.]+ [\d.]+ \(\d+ CPUs\)", line) for line in (lines[1], lines[-2]))
    assert all(re.search(r" \d+ plies +[\d.]+ ms wall +[\d.]+ ms CPU +\d+ kB$", line) for line in lines[2:-2])


def test_kept_records_are_built_again_as_they_were(tmp_path: Path) -> None:
    """--keep: a second run (another version of the code) reads the very same games."""
    kind, players, variant = KINDS[3]
    first = record_text(kind, players, variant, 30, "keep", 1, tmp_path)
    (kept,) = tmp_path.iterdir()
    assert json.loads(kept.read_text())["variant"] == "formation"
    assert record_text(kind, players, variant, 30, "keep", 1, tmp_path) == first
