"""The organizer removes a player from a running Swiss on its page (issue 22,
finding 13): the player is not paired again, their played games stand, and a
game they are playing is left to finish and counts (as a FIDE withdrawal: the
results of games played stand; an organizer who wants it decided otherwise
adjudicates it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import Q
from django.utils import timezone

from games.models import Game
from tournaments import advancing, changes, entering, organizing, scoring
from tournaments.models import Entry, Pairing, Tournament
from tests.tournaments.conftest import play_round
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

Make = Callable[..., Tournament]


def running_swiss(tournament: Make, players: Any) -> tuple[Tournament, list[Any]]:
    t = tournament(format=Tournament.Format.SWISS, rounds=3, starts_at=timezone.now(), pause_seconds=3600)
    users = players(6)
    for user in users:
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    return Tournament.objects.get(pk=t.pk), users


def test_the_organizer_removes_a_player_from_a_running_swiss_on_the_page(
        tournament: Make, players: Any, organizer: Any) -> None:
    t, users = running_swiss(tournament, players)
    play_round(t, lambda p: "red")
    Tournament.objects.filter(pk=t.pk).update(next_round_at=timezone.now())
    advancing.advance(t.pk)  # round 2 is on
    gone = Entry.objects.get(tournament=t, user=users[0])
    game = Pairing.objects.get(Q(red=gone) | Q(black=gone), round__tournament=t, round__number=2).game

    page = client_for(organizer).get(f"/tournaments/{t.pk}/").content.decode()
    assert f'action="/tournaments/{t.pk}/remove/{gone.pk}/"' in page

    response = client_for(organizer).post(f"/tournaments/{t.pk}/remove/{gone.pk}/",
                                          {"reason": "left the club", "confirmed": "yes"})
    assert response.status_code == 302
    gone.refresh_from_db()
    assert (gone.active, gone.withdrawn_after_round) == (False, 2)
    assert gone.withdrawn_why == "removed by the organizer: left the club"
    assert Game.objects.get(pk=game.pk).running  # their round-2 game goes on

    play_round(Tournament.objects.get(pk=t.pk), lambda p: "red")  # and its result counts
    record = {p.number: p for p in scoring.trf_players(Tournament.objects.get(pk=t.pk))}[gone.number]
    assert [r.result in "10" and r.opponent is not None for r in record.rounds] == [True, True]
    Tournament.objects.filter(pk=t.pk).update(next_round_at=timezone.now())
    advancing.advance(t.pk)
    round_3 = Pairing.objects.filter(round__tournament=t, round__number=3)
    assert round_3.exists() and not round_3.filter(red=gone).exists() and not round_3.filter(black=gone).exists()
    page = client_for(organizer).get(f"/tournaments/{t.pk}/").content.decode()
    assert f"/remove/{gone.pk}/" not in page and "removed by the organizer: left the club" in page


def test_a_player_cannot_be_removed_once_the_tournament_is_over(
        tournament: Make, players: Any, organizer: Any) -> None:
    t, users = running_swiss(tournament, players)
    organizing.cancel(t.pk, organizer)
    entry = Entry.objects.get(tournament=t, user=users[1])
    with pytest.raises(changes.Refusal, match="the tournament is over"):
        organizing.remove_player(t.pk, organizer, entry.pk, "late")
    entry.refresh_from_db()
    assert entry.active
    page = client_for(organizer).get(f"/tournaments/{t.pk}/").content.decode()
    assert "/remove/" not in page


def test_nobody_else_sees_or_may_use_the_remove_control(tournament: Make, players: Any) -> None:
    t, users = running_swiss(tournament, players)
    entry = Entry.objects.get(tournament=t, user=users[1])
    assert "/remove/" not in client_for(users[0]).get(f"/tournaments/{t.pk}/").content.decode()
    client_for(users[0]).post(f"/tournaments/{t.pk}/remove/{entry.pk}/", {"confirmed": "yes"})
    entry.refresh_from_db()
    assert entry.active
