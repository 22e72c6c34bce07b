"""The site's pulse (games/pulse.py): outages are the gaps between beats, and
``served`` says whether a stretch of time was free of them (issue 14)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.utils import timezone

from games import pulse

S = timedelta(seconds=1)


@pytest.fixture(autouse=True)
def no_pulse() -> Iterator[None]:
    pulse.forget()
    yield
    pulse.forget()


def test_with_no_beat_at_all_the_site_is_not_known_to_serve() -> None:
    now = timezone.now()
    assert not pulse.served(now - 60 * S, now, now)


def test_steady_beats_serve_and_a_gap_is_an_outage_for_the_time_it_overlaps() -> None:
    start = timezone.now() - 600 * S
    for second in range(0, 300, 5):
        pulse.beat(start + second * S)
    pulse.beat(start + 400 * S)  # 105 s with no beat: down from 295 s to 400 s
    for second in range(405, 600, 5):
        pulse.beat(start + second * S)
    now = start + 600 * S
    assert pulse.served(start, start + 290 * S, now)
    assert not pulse.served(start + 280 * S, start + 300 * S, now)
    assert not pulse.served(start + 350 * S, start + 360 * S, now)
    assert pulse.served(start + 401 * S, now, now)


def test_a_stale_pulse_means_down_now_but_says_nothing_of_the_past() -> None:
    start = timezone.now() - 600 * S
    for second in range(0, 100, 5):
        pulse.beat(start + second * S)
    now = start + 600 * S  # no beat for 505 s: down now, no outage recorded yet
    assert not pulse.served(start + 550 * S, now, now)
    assert pulse.served(start, start + 90 * S, now)
