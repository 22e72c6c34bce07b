"""A Swiss on the database: rounds paired by the Dutch module, late entries,
withdrawals, forbidden pairings, and the early end when no pairing exists."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from tournaments import advancing, changes, entering, scoring
from tournaments.models import Entry, ForbiddenPairing, Pairing, Tournament
from tests.tournaments.conftest import play_round

pytestmark = pytest.mark.django_db

Make = Callable[..., Tournament]


def fresh(tournament: Tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


def met(tournament: Tournament) -> list[frozenset[int]]:
    return [frozenset((p.red.number, p.black.number)) for p in
            Pairing.objects.filter(round__tournament=tournament, black__isnull=False).select_related("red", "black")]


def next_round(t: Tournament, rng: random.Random) -> Tournament:
    play_round(fresh(t), lambda p: rng.choice(["red", "black", None]))
    advancing.advance(t.pk)
    return fresh(t)


def test_a_swiss_never_repeats_a_pairing_nor_gives_a_second_bye(tournament: Make, players: Any) -> None:
    rng = random.Random(11)
    t = tournament(format=Tournament.Format.SWISS, rounds=5, starts_at=timezone.now())
    for user in players(7):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    for _ in range(5):
        t = next_round(t, rng)
    assert (t.status, t.current_round) == ("finished", 5)
    pairs = met(t)
    assert len(pairs) == len(set(pairs)) == 15
    byes = list(Pairing.objects.filter(round__tournament=t, black__isnull=True).values_list("red__number", flat=True))
    assert len(byes) == 5 and len(set(byes)) == 5
    assert sum(p.points for p in scoring.trf_players(t)) == 15 + 5  # a point a game, a point a bye


def test_a_late_entry_is_paired_from_the_next_round_with_no_points_before(
        tournament: Make, players: Any) -> None:
    rng = random.Random(3)
    t = tournament(format=Tournament.Format.SWISS, rounds=5, starts_at=timezone.now())
    users = players(7)
    for user in users[:6]:
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    late = entering.join(t.pk, users[6])
    assert late.number == 7
    t = next_round(t, rng)
    assert Pairing.objects.filter(round__number=2).filter(red=late).exists() or \
        Pairing.objects.filter(round__number=2, black=late).exists()
    record = {p.number: p for p in scoring.trf_players(t)}[7]
    assert record.rounds[0].result == " "


def test_late_entry_closes_once_half_the_rounds_are_paired(tournament: Make, players: Any) -> None:
    rng = random.Random(5)
    t = tournament(format=Tournament.Format.SWISS, rounds=4, starts_at=timezone.now())
    users = players(5)
    for user in users[:4]:
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    t = next_round(t, rng)  # round 2 paired: half of 4
    with pytest.raises(changes.Refusal, match="fewer than half the rounds"):
        entering.join(t.pk, users[4])
    assert not Entry.objects.filter(user=users[4]).exists()


def test_a_withdrawn_player_is_not_paired_again_and_keeps_their_points(tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.SWISS, rounds=3, starts_at=timezone.now())
    users = players(6)
    for user in users:
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    play_round(fresh(t), lambda p: "red")
    entering.withdraw(t.pk, users[0])
    advancing.advance(t.pk)
    numbers = {n for pair in met(fresh(t))[3:] for n in pair}
    assert 1 not in numbers
    assert {p.number: p for p in scoring.trf_players(fresh(t))}[1].points == 1


def test_a_forbidden_pairing_is_never_made(tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.SWISS, rounds=1, starts_at=timezone.now())
    for user in players(4):
        entering.join(t.pk, user)
    # Numbers come at the start; forbid seeds 1 and 3, Dutch's natural first-round pair.
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
    entries = list(Entry.objects.filter(tournament=t).order_by("-rating"))
    ForbiddenPairing.objects.create(tournament=t, first=entries[0], second=entries[2])
    advancing.advance(t.pk)
    assert frozenset((1, 3)) not in met(fresh(t))


def test_the_swiss_ends_early_when_no_legal_pairing_exists(tournament: Make, players: Any) -> None:
    rng = random.Random(1)
    t = tournament(format=Tournament.Format.SWISS, rounds=5, starts_at=timezone.now())
    for user in players(4):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    for _ in range(3):
        t = next_round(t, rng)
    assert t.status == "finished" and t.current_round == 3
    assert t.end_note.startswith("ended after round 3: no legal pairing exists")
