"""games 0009 and tournaments 0012: a game played for a tournament before the
games kept their round's number gets it, from its label where the label is
the number ("3"), and from its pairing where the label names a match
("W1-2 game 1"), so that its JSON's ``event.round`` is that number (issue 38, 11)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.utils import timezone

from games import payloads
from games.models import Game
from tournaments import advancing, entering
from tournaments.models import Pairing, Tournament
from tests.tournaments.test_elimination import run_to_the_end, seed_wins

pytestmark = pytest.mark.django_db

NUMBER_THE_ROUNDS = importlib.import_module("games.migrations.0009_event_round_number").number_the_rounds
FROM_PAIRINGS = importlib.import_module("tournaments.migrations.0012_event_round_numbers").number_from_pairings


def started(tournament: Callable[..., Tournament], players: Any, count: int, **settings: Any) -> Tournament:
    t = tournament(starts_at=timezone.now(), **settings)
    for user in players(count):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    return Tournament.objects.get(pk=t.pk)


def test_old_tournament_games_get_their_round_s_number(tournament: Any, players: Any) -> None:
    swiss = started(tournament, players, 4, format=Tournament.Format.SWISS, rounds=2)
    knockout = run_to_the_end(started(tournament, players, 5, format=Tournament.Format.SINGLE, name="Cup"), seed_wins)
    numbers = dict(Game.objects.exclude(event="").values_list("pk", "event_round_number"))
    Game.objects.update(event_round_number=0)  # as the games were before 0009

    NUMBER_THE_ROUNDS(apps, None)
    labelled = dict(Game.objects.filter(event=swiss.name).values_list("pk", "event_round_number"))
    assert set(labelled.values()) == {1}  # Swiss round 1: its label is its number
    assert set(Game.objects.filter(event=knockout.name).values_list("event_round_number", flat=True)) == {0}

    FROM_PAIRINGS(apps, None)
    assert dict(Game.objects.exclude(event="").values_list("pk", "event_round_number")) == numbers
    final = Pairing.objects.filter(round__tournament=knockout, game__isnull=False).order_by("-round__number").first()
    assert final is not None and final.game is not None
    assert payloads.view_for(final.game, None)["game"]["event"]["round"] == final.round.number == 3
