"""Smoke test of bench/live_floor.py: a few games' "moves" (two of two seats,
one of four) carried through two real daphne processes serving
bench/floor_app.py on the tests' Redis database, each update reaching every
seat's socket across the channel layer."""

from __future__ import annotations

from bench.live_floor import run_floor
from tests.helpers import require_service


def test_every_move_reaches_every_seat_across_two_processes() -> None:
    redis_url = require_service("REDIS_URL", "the floor benchmark")

    floor = run_floor(games=2, four=1, moves=6, think=0, servers=2, redis_url=redis_url, seed="smoke",
                      move_timeout=10, total_timeout=60)

    print(floor.report())
    assert len(floor.trips) == 3 * 6  # a lost update would have timed out (TimeoutError)
    assert floor.cpu["daphne"] > 0
    assert "cpu ms per move (while playing): daphne" in floor.report()
