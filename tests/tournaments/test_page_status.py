"""What a tournament's page says about itself (issue 22, finding 17): Join only
where the visitor may join (the very check ``entering.join`` makes), the start
it really had, a player count that agrees with the names listed, round times
with their zone, and when the next round starts for a finished game's page."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.timestamps import stamp
from tournaments import entering, organizing
from tournaments.models import Tournament
from tests.tournaments.conftest import play_round

pytestmark = pytest.mark.django_db

Make = Callable[..., Tournament]
JOIN = '<button class="button button--primary" type="submit">Join</button>'


def page_of(t: Tournament, user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/tournaments/{t.pk}/").content.decode()


def live_of(t: Tournament, user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/tournaments/{t.pk}/live/").content.decode()


def started_swiss(tournament: Make, players: Any, count: int, **fields: Any) -> Tournament:
    t = tournament(rounds=2, **fields)
    for user in players(count):
        entering.join(t.pk, user)
    organizing.start_early(t.pk, t.organizer)
    return Tournament.objects.get(pk=t.pk)


def test_join_is_offered_where_the_visitor_may_join(tournament: Make, players: Any) -> None:
    t = tournament()
    visitor = players(1)[0]
    assert JOIN in page_of(t, visitor) and JOIN in live_of(t, visitor)


def test_join_is_not_offered_on_a_full_tournament(tournament: Make, players: Any) -> None:
    t = tournament(max_players=2)
    first, second, third = players(3)
    entering.join(t.pk, first)
    entering.join(t.pk, second)
    for html in (page_of(t, third), live_of(t, third)):
        assert JOIN not in html and "You cannot join: the tournament is full (2 players)." in html


def test_join_is_not_offered_once_late_entry_has_closed_not_even_to_the_organizer(
        tournament: Make, players: Any, organizer: Any) -> None:
    t = started_swiss(tournament, players, 4)  # round 1 of 2 paired: half the rounds
    for user in (organizer, players(1)[0]):
        html = live_of(t, user)
        assert JOIN not in html and "late entry is open only while fewer than half the rounds" in html


def test_join_is_not_offered_on_a_finished_tournament(tournament: Make, players: Any, organizer: Any) -> None:
    t = tournament(status=Tournament.Status.FINISHED, finished_at=timezone.now())
    for user in (organizer, players(1)[0]):
        html = page_of(t, user)
        assert JOIN not in html and "You cannot join" not in html
    assert "to join" not in Client().get(f"/tournaments/{t.pk}/").content.decode()  # nor to visitors


def test_a_visitor_is_asked_to_sign_in_to_join_an_open_one(tournament: Make) -> None:
    t = tournament()
    html = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert f'<a href="/accounts/login/?next=/tournaments/{t.pk}/">Sign in</a> to join.' in html


def test_the_status_shows_the_start_it_had_after_start_now(tournament: Make, players: Any) -> None:
    t = started_swiss(tournament, players, 4, starts_at=timezone.now() + timedelta(days=3))
    html = live_of(t, players(1)[0])
    assert f"started <time datetime=\"{t.started_at.isoformat()}\"" in html
    planned = f"{t.starts_at.day} {t.starts_at:%b %Y}"
    assert planned not in page_of(t, t.organizer)  # the plan it did not keep


def test_the_player_count_agrees_with_the_names_listed(tournament: Make, players: Any) -> None:
    t = started_swiss(tournament, players, 9)
    leaver = t.entries.get(number=9).user
    entering.withdraw(t.pk, leaver)
    html = live_of(t, leaver)
    assert "9 players, 1 withdrawn" in html and html.count('<tr data-player="') == 9


def test_the_next_round_time_names_its_zone_and_the_game_page_can_count_down(
        tournament: Make, players: Any) -> None:
    t = started_swiss(tournament, players, 4, pause_seconds=120)
    assert Client().get(f"/tournaments/{t.pk}/next/").json()["next_round_at"] is None  # round 1 is on
    play_round(t, lambda pairing: "red")
    t.refresh_from_db()
    html = live_of(t, players(1)[0])
    assert f'data-countdown>{t.next_round_at:%H:%M:%S} UTC</time>' in html
    assert Client().get(f"/tournaments/{t.pk}/next/").json() == {
        "status": "running", "round": 1, "next_round_at": stamp(t.next_round_at), "url": f"/tournaments/{t.pk}/"}
