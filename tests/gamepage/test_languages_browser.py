"""A German and a Russian player play Ace in the Hole, each in their language,
with the site's real catalogs (locale/, compiled by `make test`) (issue 23).

Alice's browser asks for German (Accept-Language); Bob saved Russian on his
account and his browser asks for nothing in particular. What the page's scripts
write (status line, the player bars' counts, the clocks, the chosen card's
action buttons, the resign dialog, the result line) and what the server words
over the socket (an illegal move's refusal, with its rule) reach each of them
in their own language.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.utils import translation
from playwright.sync_api import Browser, Dialog, Page, expect

import engine
from games import play
from games.models import Game
from games.refusals import describe
from games.timecontrols import TimeControl
from preferences.languages import save_language
from tests.gamepage.conftest import SEED
from tests.games.conftest import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

MOVE = re.compile(r"^(\S+) ([a-h][1-8])[-x]([a-h][1-8])$")


@pytest.fixture
def correspondence_game(alice: Any, bob: Any) -> Game:
    """Alice (Red) against Bob (Black), three days a move: the clocks read in days."""
    return play.start_game(alice, bob, seed=SEED, time_control=TimeControl.parse("3d"))


@pytest.fixture
def cookies(alice: Any, bob: Any) -> dict[str, str]:
    save_language(bob, "ru")
    return {user.username: session_cookie(user) for user in (alice, bob)}


def open_game(browser: Browser, base: str, game_id: int, cookie: str, locale: str) -> Page:
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    page = context.new_page()
    page.goto(f"{base}/games/{game_id}/")
    expect(page.locator("#game")).to_have_attribute("data-state", "live")
    return page


def first_move(game_id: int) -> tuple[str, str, str]:
    """(card, from, to) of the mover's first legal move, from the server's own view."""
    game = Game.objects.get(pk=game_id)
    mover = game.seat(game.to_move).user
    for action in play.view_for(game, mover)["legal"]:
        match = MOVE.match(action)
        if match:
            return match[1], match[2], match[3]
    raise AssertionError("no move to click in this position")


def an_illegal_action_in_russian(game_id: int) -> tuple[str, str]:
    """A move in notation that the mover's engine refuses, and its refusal as
    the site words it in Russian (games.refusals.describe)."""
    game = Game.objects.get(pk=game_id)
    state = engine.from_json(game.position)
    for card in game.position["hands"][game.to_move]:
        for origin in game.position["board"]:
            text = f"{card} {origin}-{origin[0]}4"
            try:
                engine.apply(state, text)
            except engine.IllegalAction as error:
                if getattr(error, "rule", None):
                    with translation.override("ru"):
                        return text, describe(error)
    raise AssertionError("no refused move with a rule in this position")


def test_a_german_and_a_russian_player_read_the_game_page_in_their_languages(
        correspondence_game: Game, cookies: dict[str, str], daphne_server: str,
        chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    game_id = correspondence_game.pk
    german = open_game(chromium_browser, daphne_server, game_id, cookies["alice"], "de-DE")
    russian = open_game(chromium_browser, daphne_server, game_id, cookies["bob"], "en-US")
    assert german.locator("html").get_attribute("lang") == "de"
    assert russian.locator("html").get_attribute("lang") == "ru"

    # The status line, the player bars' counts and the clocks (three days a move).
    expect(german.locator("#game-status")).to_have_text("Du bist am Zug")
    expect(russian.locator("#game-status")).to_have_text("Ход: Красные (alice)")
    expect(german.locator('[data-player="red"] [data-counts]')).to_have_text(
        re.compile(r"^3 auf der Hand · \d+ im Stapel$"))
    expect(russian.locator('[data-player="black"] [data-counts]')).to_have_text(
        re.compile(r"^3 на руке · \d+ в колоде$"))
    expect(german.locator('[data-clock="black"]')).to_have_text("3 T 0 h")
    expect(russian.locator('[data-clock="black"]')).to_have_text("3 д 0 ч")
    expect(russian.locator('[data-clock="red"]')).to_have_text(re.compile(r"^[23] д \d+ ч$"))  # Red's is running
    expect(german.locator("#fairness")).to_contain_text("3d · gewertet")
    expect(russian.locator("#fairness")).to_contain_text("3d · рейтинговая")

    # Alice chooses a card: its action buttons speak German; she moves by one.
    card, origin, target = orm(first_move, game_id)
    german.locator(f'#hand [data-card="{card}"]').click()
    button = german.locator(f'#hand-actions [data-action="{card} {origin}-{target}"]')
    expect(button).to_have_text(re.compile(rf"^\S+ von {origin} nach {target} ziehen$"))
    button.click()
    expect(russian.locator("#game")).to_have_attribute("data-ply", "1")
    expect(russian.locator("#game-status")).to_have_text("Ваш ход")
    expect(german.locator("#game-status")).to_have_text("Schwarz (bob) ist am Zug")

    # Bob chooses a card: the same buttons in Russian.
    card, origin, target = orm(first_move, game_id)
    russian.locator(f'#hand [data-card="{card}"]').click()
    expect(russian.locator(f'#hand-actions [data-action="{card} {origin}-{target}"]')).to_have_text(
        re.compile(rf"^Переставить \S+ с {origin} на {target}$"))
    russian.keyboard.press("Escape")

    # A typed illegal move: the socket's refusal in Russian, naming its rule.
    text, refusal = orm(an_illegal_action_in_russian, game_id)
    assert re.search(r"\(R\d+\)$", refusal) and re.search("[а-я]", refusal)
    russian.locator("#notation-input").fill(text)
    russian.locator("#notation-input").press("Enter")
    expect(russian.locator("#game-error")).to_have_text(refusal)
    expect(russian.locator("#game")).to_have_attribute("data-ply", "1")

    # Bob resigns through the button: the dialog asks in Russian, the result line
    # is worded for each reader.
    questions: list[str] = []

    def accept(dialog: Dialog) -> None:
        questions.append(dialog.message)
        dialog.accept()

    russian.once("dialog", accept)
    russian.locator('[data-command="resign"]').click()
    expect(german.locator("#game-status")).to_have_text("Rot (alice): Sieg durch Aufgabe (R17)")
    expect(russian.locator("#game-status")).to_have_text("Красные (alice): победа ввиду сдачи соперника (R17)")
    assert questions == ["Сдаться в этой партии?"]
    expect(german.locator('[data-command="rematch"]')).to_have_text("Revanche")
    for page in (german, russian):
        page.context.close()
