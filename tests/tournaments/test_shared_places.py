"""A finished tournament's podium when players tie (issue 35, finding 9): a
first place shared in the standings reads as shared, in each language, and
says why the tiebreaks could not part the players, naming them; a single
winner and a knockout's two third places read as before. The organizer's line
of controls names the organizer, linked to their profile."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from tournaments.models import Tournament
from tests.tournaments.finished import finished

pytestmark = pytest.mark.django_db

Make = Callable[..., Tournament]

# The round robin's default tiebreaks (SB, DE, WON), named in each language.
SHARED_FIRST = {
    "en": "Shared first place: p01, p02, p03, p04 — equal on points and on every tiebreak "
          "(Sonneborn-Berger, Direct encounter, Games won)",
    "de": "Geteilter erster Platz: p01, p02, p03, p04 – punktgleich und in jeder Feinwertung gleich "
          "(Sonneborn-Berger, Direkter Vergleich, Gewonnene Partien)",
    "es": "Primer puesto compartido: p01, p02, p03, p04 — empatados a puntos y en todos los desempates "
          "(Sonneborn-Berger, Enfrentamiento directo, Partidas ganadas)",
    "ru": "Первое место разделили: p01, p02, p03, p04 — равны по очкам и по всем дополнительным показателям "
          "(Зоннеборн-Бергер, Личная встреча, Выигранные партии)",
}


def podium(tournament: Tournament, language: str = "en", user: Any = None) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    start = page.index('class="tournament__podium">') + len('class="tournament__podium">')
    return page[start:page.index("</p>", start)]


@pytest.mark.parametrize("language", ["en", "de", "es", "ru"])
def test_a_first_place_shared_in_the_standings_reads_as_shared_and_says_why(
        tournament: Make, players: Any, language: str) -> None:
    everyone_draws = finished(tournament, players(4), Tournament.Format.ROUND_ROBIN, decide=lambda pairing: None)
    assert everyone_draws.tiebreak_codes == ["SB", "DE", "WON"]
    shown = podium(everyone_draws, language)
    assert shown == SHARED_FIRST[language]


def test_a_single_winner_and_the_places_after_read_as_before(tournament: Make, players: Any) -> None:
    round_robin = finished(tournament, players(4), Tournament.Format.ROUND_ROBIN)  # the lower number wins
    assert podium(round_robin) == "Winner: p01 · 2nd: p02 · 3rd: p03"


def test_a_second_place_shared_in_a_swiss_reads_as_shared(tournament: Make, players: Any) -> None:
    swiss = finished(tournament, players(4), Tournament.Format.SWISS, rounds=2)  # p02 and p03 on 1 point
    assert podium(swiss) == ("Winner: p01 · Shared second place: p02, p03 — equal on points and on every "
                             "tiebreak (Buchholz cut 1, Buchholz, Sonneborn-Berger)")


def test_a_knockouts_two_third_places_are_the_brackets_not_a_tie(tournament: Make, players: Any) -> None:
    knockout = finished(tournament, players(4), Tournament.Format.SINGLE)
    assert podium(knockout) == "Winner: p01 · 2nd: p02 · 3rd: p03, p04"


def test_the_organizers_line_names_the_organizer(tournament: Make, players: Any, organizer: Any) -> None:
    done = finished(tournament, players(2), Tournament.Format.SWISS, rounds=1)
    page = Client().get(f"/tournaments/{done.pk}/")
    assert "Organizer:" not in page.content.decode()  # a visitor sees no controls
    client = Client()
    client.force_login(organizer)
    html = client.get(f"/tournaments/{done.pk}/").content.decode()
    line = html[html.index('id="tournament-organizer"'):]
    line = line[:line.index("</div>")]
    assert 'Organizer: <a href="/@/olga/">olga</a>' in " ".join(line.split())
