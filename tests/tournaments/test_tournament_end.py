"""A tournament ends with its last game (issue 22, finding 12): finished at
once, not after one more pause; its page names the winner and the podium, and
each player's profile shows the place they finished in ("place 2 of 4"), not
their pairing number."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tournaments import advancing, entering
from tournaments.models import Entry, Tournament
from tests.tournaments.conftest import play_round

pytestmark = pytest.mark.django_db

Make = Callable[..., Tournament]


def fresh(t: Tournament) -> Tournament:
    return Tournament.objects.get(pk=t.pk)


def lower_number_wins(pairing: Any) -> str:
    return "red" if pairing.red.number < pairing.black.number else "black"


def next_round_now(t: Tournament) -> None:
    """The pause is an hour: only the round's end may finish the tournament."""
    Tournament.objects.filter(pk=t.pk).update(next_round_at=timezone.now())
    advancing.advance(t.pk)


def test_a_round_robin_finishes_when_its_last_game_ends(tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.ROUND_ROBIN, starts_at=timezone.now(), pause_seconds=3600)
    for user in players(4):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    for number in (1, 2, 3):
        play_round(fresh(t), lower_number_wins)
        if number < 3:
            assert fresh(t).status == Tournament.Status.RUNNING
            next_round_now(t)
    t = fresh(t)
    assert (t.status, t.end_note, t.next_round_at) == ("finished", "every round played", None)
    assert t.finished_at is not None and timezone.now() - t.finished_at < timedelta(seconds=30)
    assert dict(Entry.objects.values_list("user__username", "place")) == {"p01": 1, "p02": 2, "p03": 3, "p04": 4}

    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    podium = page[page.index('class="tournament__podium"'):]
    podium = podium[:podium.index("</p>")]
    assert "Winner: p01" in podium and "2nd: p02" in podium and "3rd: p03" in podium and "p04" not in podium

    profile = Client().get("/@/p02/").content.decode()
    line = profile[profile.index(f'data-tournament="{t.pk}"'):]
    line = line[:line.index("</li>")]
    assert "place 2 of 4" in line and "no. 2" not in line


def test_a_swiss_finishes_when_its_last_round_ends(tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.SWISS, rounds=2, starts_at=timezone.now(), pause_seconds=3600)
    for user in players(4):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    play_round(fresh(t), lower_number_wins)
    next_round_now(t)
    play_round(fresh(t), lower_number_wins)
    t = fresh(t)
    assert (t.status, t.end_note) == ("finished", "all 2 rounds played")
    assert Entry.objects.get(user__username="p01").place == 1


def test_a_knockout_finishes_when_its_final_ends(tournament: Make, players: Any) -> None:
    t = tournament(format=Tournament.Format.SINGLE, starts_at=timezone.now(), pause_seconds=3600)
    for user in players(4):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    play_round(fresh(t), lower_number_wins)  # the semi-finals: 1 and 2 go through
    assert fresh(t).status == Tournament.Status.RUNNING
    next_round_now(t)
    play_round(fresh(t), lower_number_wins)  # the final
    t = fresh(t)
    assert (t.status, t.end_note) == ("finished", "the bracket is complete")
    places = dict(Entry.objects.values_list("user__username", "place"))
    assert (places["p01"], places["p02"], places["p03"], places["p04"]) == (1, 2, 3, 3)
    assert "place 3 of 4" in Client().get("/@/p04/").content.decode()
