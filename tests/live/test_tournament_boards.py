"""A tournament's page lists its running boards, best rated first, each with a watch link."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import finishing
from games.models import Game
from tournaments import advancing, entering
from tournaments.models import Pairing, Tournament
from tests.tournaments.conftest import organizer, players, tournament  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_running_round_lists_its_boards_with_a_watch_link_each(tournament: Any, players: Any) -> None:
    t = tournament(format=Tournament.Format.SWISS, rounds=3, starts_at=timezone.now())
    for user in players(4):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    pairings = list(Pairing.objects.filter(round__tournament=t).select_related("game").order_by("board"))
    assert len(pairings) == 2
    page = Client().get(t.get_absolute_url()).content.decode()
    section = page[page.index("Being played now"):]
    for pairing in pairings:
        assert f'href="/games/{pairing.game_id}/">Watch</a>' in section
    # Best rated first: board 1 holds the top seeds (1900 and 1880 or so).
    assert section.index(f"/games/{pairings[0].game_id}/") < section.index(f"/games/{pairings[1].game_id}/")

    ended = pairings[0].game
    finishing.resign(ended.pk, ended.table[0].user)
    assert Game.objects.get(pk=ended.pk).status == Game.Status.FINISHED
    page = Client().get(t.get_absolute_url()).content.decode()
    section = page[page.index("Being played now"):]
    assert f"/games/{ended.pk}/\">Watch" not in section
    assert f'href="/games/{pairings[1].game_id}/">Watch</a>' in section
