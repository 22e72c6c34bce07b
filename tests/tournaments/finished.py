"""Finished tournaments of every format, played to their end on the database,
for the tests of a finished tournament's page (issue 35: axe-core at phone
width, names kept whole, a shared first place)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils import timezone

from tournaments import advancing, entering
from tournaments.models import Pairing, Tournament
from tests.tournaments.conftest import play_round

# The formats a finished page shows differently: standings and crosstable
# (Swiss, round robin), a bracket (elimination).
FORMATS = [Tournament.Format.SWISS, Tournament.Format.ROUND_ROBIN, Tournament.Format.SINGLE,
           Tournament.Format.DOUBLE]
ROUNDS_AT_MOST = 20  # a double elimination of 8 takes 7 rounds; more means the test loops


def lower_number_wins(pairing: Pairing) -> str:
    return "red" if pairing.red.number < pairing.black.number else "black"


def finished(make: Callable[..., Tournament], entrants: list[Any], format: str,
             decide: Callable[[Pairing], str | None] = lower_number_wins, **fields: Any) -> Tournament:
    """A tournament of ``format`` made by ``make`` (tests.tournaments.conftest.tournament),
    joined by ``entrants`` and played round by round, ``decide`` naming each game's
    winner (None: a draw), until it finishes."""
    t = make(name=f"Finished {format}", format=format, starts_at=timezone.now(), **fields)
    for user in entrants:
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    for _ in range(ROUNDS_AT_MOST):
        t = Tournament.objects.get(pk=t.pk)
        if t.status == Tournament.Status.FINISHED:
            return t
        play_round(t, decide)
        Tournament.objects.filter(pk=t.pk).update(next_round_at=timezone.now())
        advancing.advance(t.pk)
    raise AssertionError(f"the {format} tournament did not finish in {ROUNDS_AT_MOST} rounds")
