"""Counts and figures in the reader's locale (issue 23): a count of 1,000 or
more is grouped as the language groups it (English 1,234, German 1.234,
Russian 1 234 with a no-break space), a fractional figure takes the
language's decimal comma (German 0,25); ratings, ids and the API keep plain
numbers."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone, translation

from tournaments import advancing, entering, pages
from tournaments.models import Tournament
from tests.ladder.conftest import set_player
from tests.tournaments.conftest import organizer, play_round, players, tournament  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

NBSP = "\xa0"


@pytest.fixture
def veteran() -> Any:
    """A player with 1,234 rated games (1,000 won) and a rating of 1712."""
    user = get_user_model().objects.create_user("vera", "vera@example.org", "password")
    set_player(user, 1712, 1234, wins=1000, draws=34, losses=200, last_active=timezone.now() - timedelta(days=1))
    return user


def ladder_row(language: str) -> str:
    page = Client(headers={"accept-language": language}).get("/ladder/").content.decode()
    start = page.index('data-player="vera"')
    return page[start:page.index("</tr>", start)]


def test_the_ladder_groups_games_played_as_english_does(veteran: Any) -> None:
    row = ladder_row("en")
    assert ">1,234</td>" in row and "1,000 / 34 / 200" in row


def test_the_ladder_groups_games_played_as_german_and_russian_do(veteran: Any) -> None:
    assert ">1.234</td>" in ladder_row("de") and "1.000 / 34 / 200" in ladder_row("de")
    assert f">1{NBSP}234</td>" in ladder_row("ru") and f"1{NBSP}000 / 34 / 200" in ladder_row("ru")


def test_ratings_are_written_without_grouping_in_every_language(veteran: Any) -> None:
    for language in ("en", "de", "ru"):
        row = ladder_row(language)
        assert ">1712</td>" in row and "1,712" not in row and "1.712" not in row


def test_the_profile_groups_rated_games_in_the_readers_language(veteran: Any) -> None:
    assert "<dd>1,234</dd>" in Client().get("/@/vera/").content.decode()
    assert "<dd>1.234</dd>" in Client(headers={"accept-language": "de"}).get("/@/vera/").content.decode()


def test_a_tournaments_player_limit_is_grouped(tournament: Any) -> None:  # noqa: F811
    t = tournament(max_players=1500)
    assert "At most 1,500 players" in Client().get(f"/tournaments/{t.pk}/").content.decode()
    page = Client(headers={"accept-language": "ru"}).get(f"/tournaments/{t.pk}/").content.decode()
    assert f"1{NBSP}500" in page and "1500 " not in page


def test_a_fractional_tiebreak_takes_the_german_decimal_comma(tournament: Any, players: Any) -> None:  # noqa: F811
    t = tournament(format=Tournament.Format.ROUND_ROBIN, starts_at=timezone.now(), tiebreaks="SB")
    for user in players(4):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    play_round(Tournament.objects.get(pk=t.pk), lambda pairing: None)  # all drawn: Sonneborn-Berger ½ × ½
    english = Client().get(f"/tournaments/{t.pk}/").content.decode()
    german = Client(headers={"accept-language": "de"}).get(f"/tournaments/{t.pk}/").content.decode()
    assert '<td class="num">0.25</td>' in english and '<td class="num">0,25</td>' in german
    assert '<td class="num">0.25</td>' not in german


def test_a_score_of_two_and_a_half_reads_2_5_in_english_and_2_comma_5_in_german() -> None:
    with translation.override("en"):
        assert pages._value(2.5) == "2.5" and pages._value(12.0) == "12"
    with translation.override("de"):
        assert pages._value(2.5) == "2,5" and pages._value(12.0) == "12"


def test_the_api_keeps_a_decimal_point_whatever_the_language(tournament: Any, players: Any) -> None:  # noqa: F811
    t = tournament(format=Tournament.Format.ROUND_ROBIN, starts_at=timezone.now(), tiebreaks="SB")
    for user in players(4):
        entering.join(t.pk, user)
    advancing.advance(t.pk)
    play_round(Tournament.objects.get(pk=t.pk), lambda pairing: None)
    data = Client(headers={"accept-language": "de"}).get(f"/api/tournaments/{t.pk}/standings").json()
    assert {tuple(line["tiebreaks"]) for line in data["standings"]} == {(0.25,)}
