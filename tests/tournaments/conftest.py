"""Fixtures for tournaments on the database: an organizer, players, and a tournament factory."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import finishing
from games.models import Game
from ladder.models import Player as LadderPlayer
from tournaments.models import Pairing, Tournament
from tests.helpers import staff_group


@pytest.fixture
def organizer(django_user_model: Any) -> Any:
    """A member of the "Organizers" group (tests.helpers.staff_group), not staff,
    not superuser."""
    user = django_user_model.objects.create_user("olga", "olga@example.org")
    user.groups.add(staff_group("Organizers"))
    return django_user_model.objects.get(pk=user.pk)  # fresh: permissions are cached per object


@pytest.fixture
def players(django_user_model: Any) -> Callable[[int], list[Any]]:
    """``players(n)``: n more users p01, p02, ... rated 1900, 1890, ... so that
    rating seeding is their order (``players(n, prefix="long_name_")``: named
    long_name_01, ...). No usable password: hashing one costs a second of CPU,
    and these never sign in."""
    made: list[Any] = []

    def make(count: int, prefix: str = "p") -> list[Any]:
        users = []
        for _ in range(count):
            index = len(made)
            user = django_user_model.objects.create_user(f"{prefix}{index + 1:02d}", f"p{index + 1}@example.org")
            LadderPlayer.objects.create(user=user, rating=1900 - 10 * index, rated_games=20)
            made.append(user)
            users.append(user)
        return users

    return make


@pytest.fixture
def tournament(organizer: Any) -> Callable[..., Tournament]:
    """``tournament(**settings)``: an upcoming tournament starting in an hour."""
    def make(**fields: Any) -> Tournament:
        defaults: dict[str, Any] = {"name": "Autumn Cup", "organizer": organizer, "pause_seconds": 0,
                                    "starts_at": timezone.now() + timedelta(hours=1), "time_control": "5+3"}
        return Tournament.objects.create(**{**defaults, **fields})

    return make


def play_round(tournament: Tournament, decide: Callable[[Pairing], str | None]) -> None:
    """End every running game of the tournament's current round: ``decide(pairing)``
    names the pairing's side that wins ("red"/"black": the game's first or second seat), the
    loser resigning; None: a draw by adjudication."""
    pairings = Pairing.objects.filter(round__tournament=tournament, round__number=tournament.current_round,
                                      game__status=Game.Status.RUNNING).select_related("game")
    for pairing in pairings:
        game = pairing.game
        winner = decide(pairing)
        if winner is None:
            finishing.adjudicate(game.pk, None, "a draw for the test")
        else:
            first, second = (seat.user for seat in game.table)
            finishing.resign(game.pk, second if winner == "red" else first)
