"""The TRF-16 download ranks the players as the standings do (issue 22, finding 9):
points, then the tournament's own tiebreaks, not points then pairing number."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tournaments import advancing, entering, pages, trf
from tournaments.models import Pairing, Tournament
from tests.tournaments.conftest import play_round

pytestmark = pytest.mark.django_db

Make = Callable[..., Tournament]


def _rank_column(text: str) -> dict[int, int]:
    """Each player line's pairing number (columns 5-8) and rank (86-89)."""
    return {int(line[4:8]): int(line[85:89]) for line in text.splitlines() if line.startswith("001")}


def test_the_trf_file_ranks_players_by_the_standings_tiebreaks(tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.ROUND_ROBIN, starts_at=timezone.now(), tiebreaks="SB")
    for user in players(4):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    # Berger, 4 players: 1-4 2-3 | 4-3 1-2 | 2-4 3-1. Red wins but for 2-4:
    # 1 and 4 score 2, 2 and 3 score 1; 3 beat 1 and 2 only beat 3, so
    # Sonneborn-Berger puts 3 above 2, against their pairing numbers.
    for _ in range(3):
        play_round(Tournament.objects.get(pk=t.pk),
                   lambda p: "black" if (p.red.number, p.black.number) == (2, 4) else "red")
        advancing.advance(t.pk)
    t = Tournament.objects.get(pk=t.pk)
    assert not Pairing.objects.filter(round__tournament=t, result="").exists()
    _labels, lines = pages.standings(t)
    shown = {line.entry.number: line.rank for line in lines}
    assert shown == {1: 1, 4: 2, 3: 3, 2: 4}
    downloaded = Client().get(f"/tournaments/{t.pk}/trf/").content.decode()
    assert _rank_column(downloaded) == shown
    assert trf.read(downloaded).players  # and it still reads back
