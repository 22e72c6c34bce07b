"""Every date the site shows is written as its reader's language writes dates
(issue 35, finding 8): through Django's named formats for the language, never a
format string of the site's, so that Russian puts the month in the genitive and
in lower case ("15 января 2031 г.", not "15 Январь 2031" nor "15 Янв 2031").

Each place that shows a date is read in English, German, Spanish and Russian:
the profile's "Joined" line, its games list and rating chart, the tournament
page's start and registration close, the tournament list, the API tokens page,
a moderator's restriction on the lobby, and the tournament form's refusal of a
start in the past.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games import finishing, starting
from games.models import Game
from api.models import ApiToken
from ladder.charts import rating_history_svg
from moderation.models import Restriction
from tournaments.forms import TournamentForm
from tournaments.models import Tournament
from tests.tournaments.conftest import organizer, tournament  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "de", "es", "ru"]
MOMENT = datetime(2031, 1, 15, 12, 0, tzinfo=UTC)  # shown in UTC: no tz cookie
# MOMENT in each named format, as each language writes it.
DATE = {"en": "15 January 2031", "de": "15. Januar 2031", "es": "15 de enero de 2031", "ru": "15 января 2031 г."}
DATETIME = {"en": "15 Jan 2031 12:00", "de": "15. Januar 2031 12:00", "es": "15 de enero de 2031 a las 12:00",
            "ru": "15 января 2031 г. 12:00"}
SHORT_DATE = {"en": "15 Jan 2031", "de": "15.01.2031", "es": "15/01/2031", "ru": "15.01.2031"}
SHORT_DATETIME = {"en": "15 Jan 2031 12:00", "de": "15.01.2031 12:00", "es": "15/01/2031 12:00",
                  "ru": "15.01.2031 12:00"}
# What must never be shown: an English month outside English, a Russian month
# capitalised or in the nominative after a day ("15 Январь", "15 Янв").
WRONG = {"en": re.compile(r"января|Januar\b|enero"),
         "de": re.compile(r"\b(Jan|January)\b|января|enero"),
         "es": re.compile(r"\b(Jan|January|Ene)\b|Januar\b|января"),
         "ru": re.compile(r"\b(Jan|January)\b|Январ|Янв|\d+ январь")}


def page(url: str, language: str, user: Any = None) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return " ".join(response.content.decode().split())


def shows(html: str, language: str, expected: str) -> None:
    assert expected in html, f"{expected!r} not on the page in {language}"
    wrong = WRONG[language].search(html)
    assert wrong is None, f"{wrong.group()!r} on the page in {language}"


@pytest.fixture
def profile(alice: Any, bob: Any) -> str:
    """alice joined at MOMENT; her one game ended then."""
    type(alice).objects.filter(pk=alice.pk).update(date_joined=MOMENT)
    game = finishing.resign(starting.start_game(alice, bob, seed="dates").pk, bob)
    Game.objects.filter(pk=game.pk).update(created=MOMENT, finished=MOMENT)
    return "/@/alice/"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_profile_says_when_the_player_joined_and_when_each_game_was(profile: str, language: str) -> None:
    html = page(profile, language)
    shows(html, language, f">{DATE[language]}</time>")  # Joined / Dabei seit / На сайте с ...
    shows(html, language, f'<time datetime="2031-01-15T12:00:00+00:00">{SHORT_DATE[language]}</time>')


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rating_chart_labels_each_game_with_its_date(language: str) -> None:
    with translation.override(language):
        svg = rating_history_svg([(MOMENT, 1500), (MOMENT + timedelta(days=1), 1516)])
    shows(svg, language, SHORT_DATE[language])


@pytest.fixture
def upcoming(tournament: Any) -> Tournament:  # noqa: F811
    return tournament(name="Winter Cup", starts_at=MOMENT, registration_closes_at=MOMENT - timedelta(hours=1))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_tournament_says_when_it_starts_and_when_registration_closes(upcoming: Tournament, language: str) -> None:
    html = page(upcoming.get_absolute_url(), language)
    shows(html, language, f">{DATETIME[language]} UTC</time>")
    shows(html, language, DATETIME[language].replace("12:00", "11:00") + " UTC")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_tournament_list_says_when_each_starts(upcoming: Tournament, language: str) -> None:
    shows(page("/tournaments/", language), language, f'<time datetime="2031-01-15T12:00:00+00:00">'
                                                     f"{SHORT_DATETIME[language]}</time>")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_api_tokens_page_says_when_each_was_made_and_last_used(alice: Any, language: str) -> None:
    ApiToken.objects.create(user=alice, name="my bot", digest="d" * 64, hint="acew_dd", scopes=["read"])
    ApiToken.objects.filter(user=alice).update(created=MOMENT, last_used=MOMENT + timedelta(days=1))
    html = page("/account/tokens/", language, alice)
    shows(html, language, f"<td>{SHORT_DATE[language]}</td>")
    shows(html, language, f"<td>{SHORT_DATETIME[language].replace('15', '16', 1)}</td>")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_restriction_says_until_when(charlie: Any, language: str) -> None:
    Restriction.objects.create(user=charlie, scope=Restriction.Scope.RATED, ends=MOMENT, reason="R9 ×3")
    shows(page("/lobby/", language, charlie), language, f"{DATETIME[language]} UTC")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_tournament_form_says_the_time_now_when_refusing_a_start_in_the_past(language: str) -> None:
    with translation.override(language):
        form = TournamentForm(data={"name": "Late", "format": "swiss", "time_control": "5+3",
                                    "starts_at": "2001-01-01T10:00", "zone": "UTC", "max_players": 8})
        form.is_valid()
    [error] = form.errors["starts_at"]
    assert NOW[language].search(error), error
    assert WRONG[language].search(error) is None, error


# Today in DATETIME_FORMAT, in UTC, for the form's "it is now ...".
GENITIVE = "января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря"
NOW = {"en": re.compile(r"\(it is now \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2} UTC\)"),
       "de": re.compile(r"\d{1,2}\. [A-ZÄÖÜ][a-zä]+ \d{4} \d{2}:\d{2} UTC\)"),
       "es": re.compile(r"\d{1,2} de [a-z]+ de \d{4} a las \d{2}:\d{2} UTC\)"),
       "ru": re.compile(rf"\d{{1,2}} ({GENITIVE}) \d{{4}} г\. \d{{1,2}}:\d{{2}} UTC\)")}
