"""Two 4-player games against the computer started at once, for a level whose
seat-mates (``bot-<level>+2``, ``+3``) do not exist yet, both start (issue 35, 12):
making a bot account is a create-or-get on the unique username, never a check
and then an insert with room for another caller between them."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games import bots
from games.models import Game
from ladder import bot_accounts, inputs, seating
from tests.helpers import require_service
from tests.lobby.racing import at_once

pytestmark = pytest.mark.django_db(transaction=True)

# Before the fix, 18 rounds in 20 failed with IntegrityError: a few rounds are plenty.
ROUNDS = 6
CORRESPONDENCE = inputs.offered_time_control("3d")


def retire_team_mates(level: str, round_number: int) -> None:
    """Rename the level's seat-mates, so that the next round must make them again."""
    for user in get_user_model().objects.filter(username__startswith=bots.bot_username(level) + "+"):
        user.username = f"r{round_number}-{user.username}"
        user.save(update_fields=["username"])


def test_two_team_games_against_new_seat_mates_started_at_once_both_start(alice: Any, bob: Any) -> None:
    require_service("DATABASE_URL", "two connections racing on PostgreSQL")
    bot_accounts.ensure_bot_accounts()
    for round_number in range(ROUNDS):
        results = at_once(lambda user: seating.play_computer_team(user, "random", CORRESPONDENCE), alice, bob)
        assert all(isinstance(results.get(name), Game) for name in ("alice", "bob")), (round_number, results)
        mates = [{seat.user.username for seat in results[name].seats.select_related("user")} - {name}
                 for name in ("alice", "bob")]
        assert mates[0] == mates[1] == {"bot-random", "bot-random+2", "bot-random+3"}
        assert all(bots.level_of(user.pk) == "random" for user in
                   get_user_model().objects.filter(username__startswith="bot-random"))
        retire_team_mates("random", round_number)


def test_making_the_bots_twice_at_once_makes_each_once() -> None:
    require_service("DATABASE_URL", "two connections racing on PostgreSQL")

    class Caller:
        def __init__(self, username: str) -> None:
            self.username = username

    results = at_once(lambda caller: bot_accounts.ensure_bot_accounts(), Caller("one"), Caller("two"))
    assert set(results) == {"one", "two"}, results
    made = [created for name in ("one", "two") for _, created in results[name]]
    assert made.count(True) == len(results["one"])  # each level made by one caller only
    assert get_user_model().objects.filter(username__startswith="bot-").count() == len(results["one"])
