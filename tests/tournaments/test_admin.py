"""Tournaments in the Django admin: the pages open, the actions go through
organizing.py, and a board's page adjudicates its game with the reason kept."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from tournaments import advancing, entering, organizing
from tournaments.models import Pairing, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_for(django_user_model: Any) -> Client:
    admin = django_user_model.objects.create_superuser("root", "root@example.org", "pw")
    client = Client()
    client.force_login(admin)
    return client


def started(tournament: Callable[..., Tournament], players: Any, **fields: Any) -> Tournament:
    t = tournament(format=Tournament.Format.ROUND_ROBIN, starts_at=timezone.now(), **fields)
    for user in players(4):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    return t


def test_the_tournament_pages_open_with_their_inlines(admin_client_for: Client, tournament: Any,
                                                       players: Any) -> None:
    t = started(tournament, players)
    for url in ("/admin/tournaments/tournament/", f"/admin/tournaments/tournament/{t.pk}/change/",
                "/admin/tournaments/entry/", "/admin/tournaments/round/", "/admin/tournaments/pairing/",
                f"/admin/tournaments/round/{t.round_set.get().pk}/change/"):
        assert admin_client_for.get(url).status_code == 200, url


def test_the_pause_action_goes_through_the_rules(admin_client_for: Client, tournament: Any, players: Any) -> None:
    t = started(tournament, players)
    upcoming = tournament(name="Later")
    response = admin_client_for.post("/admin/tournaments/tournament/", {
        "action": "pause_selected", "_selected_action": [t.pk, upcoming.pk]}, follow=True)
    page = response.content.decode()
    assert "Autumn Cup: paused." in page
    assert "only a running tournament can be paused; this one is upcoming" in page
    assert Tournament.objects.get(pk=t.pk).status == "paused"
    assert Tournament.objects.get(pk=upcoming.pk).status == "upcoming"


def test_a_board_page_adjudicates_its_game_with_the_reason(admin_client_for: Client, tournament: Any,
                                                          players: Any) -> None:
    t = started(tournament, players)
    pairing = Pairing.objects.filter(round__tournament=t, game__isnull=False).first()
    url = f"/admin/tournaments/pairing/{pairing.pk}/change/"
    response = admin_client_for.post(url, {"adjudicate": "black", "reason": ""}, follow=True)
    assert response.redirect_chain == [(url, 302)]  # back to the board, not "changed successfully"
    assert [str(m) for m in response.context["messages"]] == ["an adjudication needs a written reason"]
    assert Game.objects.get(pk=pairing.game_id).running
    admin_client_for.post(url, {"adjudicate": "black", "reason": "Red's club lost power"}, follow=True)
    game = Game.objects.get(pk=pairing.game_id)
    assert (game.winner, game.reason, game.adjudication_note) == ("black", "adjudication", "Red's club lost power")
    assert Pairing.objects.get(pk=pairing.pk).result == "0-1"


def test_a_rhombus_board_is_adjudicated_by_its_pairing_s_sides(organizer: Any, tournament: Any,
                                                               players: Any) -> None:
    """The live page's form says Red or Black, as the pairing does; in Rhombus
    those are the SW and NE seats (organizing._seat_of_side)."""
    t = started(tournament, players, rules="rhombus")
    pairing = Pairing.objects.filter(round__tournament=t, game__isnull=False).first()
    client = Client()
    client.force_login(organizer)
    client.post(f"/tournaments/{t.pk}/adjudicate/{pairing.pk}/", {"winner": "black", "reason": "a lost connection"})
    game = Game.objects.get(pk=pairing.game_id)
    assert (game.winner, game.reason) == ("NE", "adjudication")
    assert Pairing.objects.get(pk=pairing.pk).result == "0-1"
