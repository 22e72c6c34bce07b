"""Time controls: real time (minutes + seconds per move) and correspondence (days per move)."""

from __future__ import annotations

from typing import Any

import pytest

from games import moving, payloads, starting
from games.models import Game
from games.timecontrols import OFFERED, TimeControl

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("text", "initial", "increment", "days", "speed"), [
    ("1+0", 60, 0, None, "bullet"),
    ("3+2", 180, 2, None, "blitz"),
    ("5+3", 300, 3, None, "blitz"),
    ("10+5", 600, 5, None, "rapid"),
    ("3d", 0, 0, 3, "correspondence"),
])
def test_a_time_control_reads_its_text_and_writes_it_back(
        text: str, initial: int, increment: int, days: int | None, speed: str) -> None:
    tc = TimeControl.parse(text)
    assert (tc.initial_seconds, tc.increment_seconds, tc.days_per_move) == (initial, increment, days)
    assert tc.key == text and tc.speed == speed


@pytest.mark.parametrize("text", ["", "5", "5+", "+3", "five+three", "3 weeks", "1000+0"])
def test_it_refuses_what_is_not_a_time_control(text: str) -> None:
    with pytest.raises(ValueError, match="not a time control"):
        TimeControl.parse(text)


def test_the_site_offers_the_real_time_and_correspondence_controls_of_the_issue() -> None:
    assert [tc.key for tc in OFFERED] == ["1+0", "3+2", "5+3", "10+5", "1d", "3d", "7d"]


def test_a_correspondence_game_gives_each_move_its_full_days(alice: Any, bob: Any) -> None:
    game = starting.start_game(alice, bob, time_control=TimeControl.parse("3d"), seed="tests-game-seed")
    three_days = 3 * 86_400_000
    assert (game.clocks["red"], game.clocks["black"], game.days_per_move) == (three_days, three_days, 3)
    moving.submit(game.pk, alice, 0, "5H e1-e6")
    g = Game.objects.get(pk=game.pk)
    assert g.clocks["red"] == three_days  # restored after the move, not a bonus on top
    assert payloads.clock_json(g)["time_control"] == "3d"
