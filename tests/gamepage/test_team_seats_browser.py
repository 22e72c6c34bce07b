"""A 4-player Rhombus page says who is whose partner, and why its players'
chat says presets only (issue 35, 4).

The seats showed SW/SE/NE/NW and colours only. Now each bar says what the
seat is to the reader: "you", "your partner", "opponent" (RH31), and to a
spectator the team it plays for; the players' chat of a running team game
says why only quick phrases can be said (RH36: partners give no hints, their
hands hidden from each other, RH29) and until when, and the sentence goes
when the game ends and free text opens. In German, Spanish and Russian with
the site's catalogs, in real Chromium against daphne.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from games import finishing, starting
from tests.gamepage.test_rhombus_words_browser import open_as
from tests.games.conftest import session_cookie
from tests.helpers import ARTIFACTS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory."""
    return shared_daphne_server


WORDS: dict[str, dict[str, str]] = {
    "de": {"you": "du", "partner": "dein Partner", "opponent": "Gegner", "SW–NE": "Team SW–NE", "SE–NW": "Team SE–NW",
           "presets only": "Im Teamspiel dürfen Partner einander keine Hinweise geben (RH36), und die Handkarten jedes "
                           "Spielers sind auch vor seinem Partner verborgen (RH29): Bis die Partie vorbei ist, können "
                           "hier nur diese schnellen Sätze gesagt werden."},
    "es": {"you": "tú", "partner": "tu compañero", "opponent": "rival", "SW–NE": "equipo SW–NE",
           "SE–NW": "equipo SE–NW",
           "presets only": "En una partida por equipos los compañeros no pueden darse pistas (RH36), y las cartas en "
                           "mano de cada jugador están ocultas incluso para su compañero (RH29): hasta que termine la "
                           "partida, aquí solo se pueden decir estas frases rápidas."},
    "ru": {"you": "вы", "partner": "ваш партнёр", "opponent": "соперник", "SW–NE": "команда SW–NE",
           "SE–NW": "команда SE–NW",
           "presets only": "В командной игре партнёры не могут подсказывать друг другу (RH36), а карты в руке каждого "
                           "игрока скрыты даже от его партнёра (RH29): пока партия не закончится, здесь можно говорить "
                           "только эти быстрые фразы."},
}


@pytest.mark.parametrize("language", ["de", "es", "ru"])
def test_each_seat_says_whose_it_is_and_the_players_chat_says_why_presets_only(
    language: str, alice: Any, bob: Any, charlie: Any, dave: Any, erin: Any, daphne_server: str,
    chromium_browser: Browser, orm: Callable[..., Any],
) -> None:
    words = WORDS[language]
    # Alice SW, Bob SE, Charlie NE, Dave NW: SW+NE against SE+NW (RH31).
    game = orm(lambda: starting.start_game(alice, bob, charlie, dave, seed="team-words",
                                           setup=starting.Setup("rhombus")))
    bob_page = open_as(chromium_browser, daphne_server, game.pk, orm(session_cookie, bob), language)
    for seat, relation in {"SE": "you", "NW": "partner", "SW": "opponent", "NE": "opponent"}.items():
        expect(bob_page.locator(f'[data-player="{seat}"] [data-relation]')).to_have_text(words[relation])

    watcher = open_as(chromium_browser, daphne_server, game.pk, orm(session_cookie, erin), language)
    for seat, team in {"SW": "SW–NE", "NE": "SW–NE", "SE": "SE–NW", "NW": "SE–NW"}.items():
        expect(watcher.locator(f'[data-player="{seat}"] [data-relation="team"]')).to_have_text(words[team])

    players_chat = bob_page.locator('[data-chat][data-room="player"]')
    expect(players_chat.locator("[data-chat-presets-only]")).to_have_text(words["presets only"])
    expect(players_chat.locator("[data-chat-presets-only]")).to_be_visible()
    expect(players_chat.locator("[data-preset]").first).to_be_visible()
    expect(players_chat.locator("[data-chat-form]")).to_be_hidden()
    expect(watcher.locator("[data-chat-presets-only]")).to_have_count(0)  # a spectator is told nothing of it
    ARTIFACTS.mkdir(exist_ok=True)
    bob_page.screenshot(path=str(ARTIFACTS / f"rhombus-4p-seats-{language}-phone.png"), full_page=True)
    watcher.screenshot(path=str(ARTIFACTS / f"rhombus-4p-teams-spectator-{language}-phone.png"), full_page=True)

    orm(finishing.resign, game.pk, alice)  # over: free text opens, and the sentence goes
    expect(bob_page.locator("#game")).to_have_attribute("data-status", "finished")
    expect(players_chat.locator("[data-chat-form]")).to_be_visible()
    expect(players_chat.locator("[data-chat-presets-only]")).to_be_hidden()
