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
from games import payloads, starting
from games.models import Game
from games.refusals import describe
from games.timecontrols import TimeControl
from preferences.languages import save_language
from tests.gamepage.conftest import SEED
from tests.games.conftest import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory."""
    return shared_daphne_server


MOVE = re.compile(r"^(\S+) ([a-h][1-8])[-x]([a-h][1-8])$")


@pytest.fixture
def correspondence_game(alice: Any, bob: Any) -> Game:
    """Alice (Red) against Bob (Black), three days a move: the clocks read in days."""
    return starting.start_game(alice, bob, seed=SEED, time_control=TimeControl.parse("3d"))


@pytest.fixture
def cookies(alice: Any, bob: Any) -> dict[str, str]:
    save_language(bob, "ru")
    return {user.username: session_cookie(user) for user in (alice, bob)}


def open_page(browser: Browser, base: str, path: str, cookie: str, locale: str) -> Page:
    """``path`` in a new context whose browser asks for ``locale`` (Accept-Language)."""
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    page = context.new_page()
    page.goto(base + path)
    return page


def open_game(browser: Browser, base: str, game_id: int, cookie: str, locale: str) -> Page:
    page = open_page(browser, base, f"/games/{game_id}/", cookie, locale)
    expect(page.locator("#game")).to_have_attribute("data-state", "live")
    return page


def first_move(game_id: int) -> tuple[str, str, str]:
    """(card, from, to) of the mover's first legal move, from the server's own view."""
    game = Game.objects.get(pk=game_id)
    mover = game.seat(game.to_move).user
    for action in payloads.view_for(game, mover)["legal"]:
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


def open_a_four_player_seek(users: dict[str, Any]) -> int:
    """Alice's 4-player Rhombus seek, Bob seated beside her."""
    from ladder import seeks

    seek = seeks.create_seek(users["alice"], "10+5", rules="rhombus", players=4)
    seeks.join_seek(seek.pk, users["bob"])
    return int(seek.pk)


def change_the_lobby(users: dict[str, Any], seek_id: int) -> None:
    """Charlie takes the third seat, and Dave opens a 3-day Ace seek: both reach
    an open lobby only through its socket's list of seeks."""
    from ladder import seeks

    seeks.join_seek(seek_id, users["charlie"])
    seeks.create_seek(users["dave"], "3d", rated=False, colour="red")


@pytest.fixture
def erin_cookie(erin: Any) -> str:
    """Erin saved Russian on her account; her session, made before Playwright's loop."""
    save_language(erin, "ru")
    return session_cookie(erin)


def test_the_lobby_lists_the_seeks_in_the_saved_russian(
        alice: Any, bob: Any, charlie: Any, dave: Any, erin_cookie: str, daphne_server: str,
        chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    """What the lobby's script writes from the socket's seek list: "3 of 4
    joined" (ngettext) and the time control's label, worded on the socket's
    database thread in Erin's saved language."""
    users = {user.username: user for user in (alice, bob, charlie, dave)}
    seek_id = orm(open_a_four_player_seek, users)
    context = chromium_browser.new_context(locale="en-US")
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": erin_cookie, "url": daphne_server}])
    page = context.new_page()
    page.goto(f"{daphne_server}/lobby/")
    expect(page.locator("tr.seek--team [data-seek-seats]")).to_have_text("2 из 4 в игре: alice, bob")
    orm(change_the_lobby, users, seek_id)
    expect(page.locator("tr.seek--team [data-seek-seats]")).to_have_text("3 из 4 в игре: alice, bob, charlie")
    correspondence = page.locator("tr", has_text="dave")
    expect(correspondence.locator(".seek__time")).to_contain_text("Ace in the Hole 3 дня на ход")
    expect(correspondence.locator(".seek__mode")).to_have_text("Товарищеская")
    expect(correspondence.get_by_role("button")).to_have_text("Принять")
    # On a phone the column's heading is hidden and each cell names itself.
    page.set_viewport_size({"width": 375, "height": 740})
    page.wait_for_function("() => window.innerWidth === 375")  # a loaded machine resizes late
    colour = correspondence.locator(".seek__colour")
    expect(colour).to_have_text("Чёрные")
    assert colour.evaluate("cell => getComputedStyle(cell, '::before').content") == '"Вы играете "'
    context.close()


def challenge(challenger: Any, challenged: str, control: str, rated: bool, colour: str) -> None:
    from ladder import challenges

    challenges.create_challenge(challenger, challenged, control, rated=rated, colour=colour)


def test_a_challenge_toast_reaches_each_player_in_their_language(
        alice: Any, charlie: Any, cookies: dict[str, str], daphne_server: str,
        chromium_browser: Browser, orm: Callable[..., Any]) -> None:
    """The toast notify.js writes on any page, from the personal lobby socket's
    challenge (its time control worded on that socket's database thread)."""
    german = open_page(chromium_browser, daphne_server, "/ladder/", cookies["alice"], "de-DE")
    russian = open_page(chromium_browser, daphne_server, "/ladder/", cookies["bob"], "en-US")
    orm(challenge, charlie, "alice", "5+3", False, "random")
    orm(challenge, alice, "bob", "3d", True, "red")

    toast = german.locator(".toast--challenge")
    expect(toast.locator(".toast__text")).to_have_text(
        "charlie fordert dich zu einer ungewerteten Partie mit 5+3 heraus (Farben werden ausgelost).")
    expect(toast.get_by_role("button")).to_have_text(["Annehmen", "Ablehnen"])
    toast = russian.locator(".toast--challenge")
    expect(toast.locator(".toast__text")).to_have_text(
        "alice вызывает вас на рейтинговую партию 3 дня на ход (alice играет красными).")
    expect(toast.get_by_role("button")).to_have_text(["Принять", "Отклонить"])
    for page in (german, russian):
        page.context.close()
