"""Cancel the tournament, Remove and Withdraw ask first (issue 22, finding 16):
the first click only asks, on a page that works without JavaScript; the
action happens on the second, and "No" leaves everything as it was."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tournaments import entering
from tournaments.models import Entry, Tournament
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

Make = Callable[..., Tournament]


def test_the_first_click_on_cancel_only_asks(tournament: Make, organizer: Any) -> None:
    t = tournament()
    page = client_for(organizer).post(f"/tournaments/{t.pk}/cancel/").content.decode()
    assert "Cancel this tournament for good?" in page and 'name="confirmed" value="yes"' in page
    assert "No, go back" in page
    assert Tournament.objects.get(pk=t.pk).status == "upcoming"


def test_a_confirmed_cancel_cancels(tournament: Make, organizer: Any) -> None:
    t = tournament()
    page = client_for(organizer).post(f"/tournaments/{t.pk}/cancel/", {"confirmed": "yes"}, follow=True)
    assert "The tournament is cancelled." in page.content.decode()
    assert Tournament.objects.get(pk=t.pk).status == "cancelled"


def test_removing_a_player_asks_first_and_keeps_the_reason(tournament: Make, organizer: Any, players: Any) -> None:
    t = tournament()
    player = players(1)[0]
    entry = entering.join(t.pk, player)
    client = client_for(organizer)
    page = client.post(f"/tournaments/{t.pk}/remove/{entry.pk}/", {"reason": "cheating"}).content.decode()
    assert "Remove p01 from this tournament?" in page and 'name="reason" value="cheating"' in page
    assert Entry.objects.get(pk=entry.pk).active
    client.post(f"/tournaments/{t.pk}/remove/{entry.pk}/", {"reason": "cheating", "confirmed": "yes"})
    assert not Entry.objects.filter(pk=entry.pk, withdrawn_at__isnull=True).exists()


def test_withdrawing_asks_first(tournament: Make, players: Any) -> None:
    t = tournament()
    player = players(1)[0]
    entering.join(t.pk, player)
    page = client_for(player).post(f"/tournaments/{t.pk}/withdraw/").content.decode()
    assert "Withdraw from this tournament?" in page
    assert Entry.objects.get(tournament=t, user=player).active
