"""The Rhombus page says in words what each use and action does, in the
reader's language, with the notation beside it (issue 35, 3).

Its buttons were raw notation ("7D 0", "8S mystery QD") and its prompt "7D:
Wähle den Zug." in every language. Now each button says which card does what
to which piece from where to where, and what it eliminates, and shows the
notation beside the words in <span class="notation" translate="no"> (the
convention the language walk relies on): nothing outside such a span is
notation alone. Tried in German, Spanish and Russian with the site's own
catalogs, in real Chromium against daphne.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect

from games import starting
from games.models import Game
from tests.games.conftest import session_cookie
from tests.helpers import ARTIFACTS
from tests.rhombus_steps import deal

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory."""
    return shared_daphne_server


PHONE = {"width": 390, "height": 844}

# What each button says, in the site's catalogs (locale/*/djangojs.po).
WORDS: dict[str, dict[str, str]] = {
    "de": {
        "7D 0": "7♦ als Null: zieht nichts (RH15)",
        "8S mystery QD": "8♠, Mystery: zieht nichts; Q♦ kommt vom Tisch in die Hand (RH19)",
        "QD a2-a5": "Q♦: die Figur von a2 nach a5 ziehen",
        "elim 10C JC QC a1xd5": "Eliminator mit 10♣ J♣ Q♣: die Figur von a1 auf d5 setzen und dort die Figur von NE "
                                "eliminieren, ob geschützt oder nicht (RH22)",
        "prompt": "Q♦: Klicke jetzt auf das Zielfeld.",
        "square": "Feld c3",
    },
    "es": {
        "7D 0": "7♦ como cero: no mueve nada (RH15)",
        "8S mystery QD": "8♠, Mystery: no mueve nada; Q♦ pasa de la mesa a la mano (RH19)",
        "QD a2-a5": "Q♦: mover la pieza de a2 a a5",
        "elim 10C JC QC a1xd5": "Eliminator con 10♣ J♣ Q♣: poner la pieza de a1 sobre d5 y eliminar allí la pieza de NE, "
                                "protegida o no (RH22)",
        "prompt": "Q♦: ahora haz clic en la casilla de destino.",
        "square": "casilla c3",
    },
    "ru": {
        "7D 0": "7♦ как ноль: ничего не двигает (RH15)",
        "8S mystery QD": "8♠, Mystery: ничего не двигает; Q♦ переходит со стола в руку (RH19)",
        "QD a2-a5": "Q♦: передвинуть фигуру с a2 на a5",
        "elim 10C JC QC a1xd5": "Eliminator из 10♣ J♣ Q♣: перенести фигуру с a1 на d5 и уничтожить там фигуру NE, "
                                "защищённую или нет (RH22)",
        "prompt": "Q♦: теперь щёлкните по целевому полю.",
        "square": "поле c3",
    },
}

# Notation tokens (shared/rules/rhombus.md, "Notation"): cards as codes or as
# their faces, squares, the whole actions' and Mystery's keywords, and the signs.
NOTATION_TOKEN = re.compile(r"(?:10|[6-9JQKA])[CDHS♣♦♥♠]|[a-e][1-5]|@|mystery|elim|react|entry|discard|[-+x,0-9]")


def raw_notation(texts: list[tuple[str, str]]) -> list[str]:
    """The controls whose text outside translate="no" is notation and nothing else."""
    return [html for html, outside in texts if outside and not NOTATION_TOKEN.sub("", outside).strip()]


# Each visible button and link of the game: its text without what is marked as
# notation (translate="no"), and the start of its markup to say which it was.
OUTSIDE_NOTATION = """() => [...document.querySelectorAll("#game button, #game a")]
  .filter((node) => node.offsetParent !== null)
  .map((node) => {
    const copy = node.cloneNode(true);
    copy.querySelectorAll('[translate="no"]').forEach((marked) => marked.remove());
    return [node.outerHTML.slice(0, 160), copy.textContent.replace(/\\s+/g, " ").trim()];
  })"""


def open_as(browser: Browser, base: str, game_id: int, cookie: str, language: str) -> Page:
    context = browser.new_context(locale=language, viewport=PHONE)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    page = context.new_page()
    page.goto(f"{base}/games/{game_id}/")
    expect(page.locator("#game")).to_have_attribute("data-state", "live")
    return page


def dealt(alice: Any, bob: Any, table: list[str], hand: list[str]) -> Game:
    """A new 2-player game, SW (alice) to move from the start position (RH4) holding these cards."""
    game = starting.start_game(alice, bob, seed="words", setup=starting.Setup("rhombus"))
    Game.objects.filter(pk=game.pk).update(position=deal(game.position, "SW", table, hand))
    return game


def pick(page: Page, *cards: str) -> None:
    """Click these cards of the hand, each once: a chosen one is put back."""
    for card in cards:
        page.locator(f'#hand [data-card="{card}"]').click()


def expect_worded(page: Page, selector: str, words: str, notation: str) -> None:
    """The control says ``words``, then the notation beside them, marked as notation."""
    control = page.locator(selector)
    expect(control).to_have_text(f"{words} {notation}")
    expect(control.locator('.notation[translate="no"]')).to_have_text(notation)


def no_raw_notation(page: Page) -> None:
    assert raw_notation(page.evaluate(OUTSIDE_NOTATION)) == []


@pytest.mark.parametrize("language", ["de", "es", "ru"])
def test_every_use_button_and_the_prompt_say_in_words_what_they_do(
    language: str, alice: Any, bob: Any, daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any],
) -> None:
    words = WORDS[language]
    game = orm(dealt, alice, bob, ["7D", "QD"], ["8S"])
    page = open_as(chromium_browser, daphne_server, game.pk, orm(session_cookie, alice), language)
    expect(page.locator('#board [data-square="c3"]')).to_have_attribute("aria-label", words["square"])

    pick(page, "7D")  # a kill card alone: zero (RH15)
    expect_worded(page, '#hand-actions [data-use="7D 0"]', words["7D 0"], "7D 0")
    expect(page.locator("#builder-prompt")).not_to_contain_text("7D")  # the card as it shows: 7♦
    no_raw_notation(page)

    pick(page, "7D", "8S")  # put the 7 back; the 8 from the hand takes a table card in (RH19)
    expect_worded(page, '#hand-actions [data-use="8S mystery QD"]', words["8S mystery QD"], "8S mystery QD")
    no_raw_notation(page)

    pick(page, "8S", "QD")  # a mover: its piece, then its moves as buttons
    page.locator('#board [data-square="a2"]').click()
    expect(page.locator("#builder-prompt")).to_have_text(words["prompt"])
    expect_worded(page, '#hand-actions [data-use="QD a2-a5"]', words["QD a2-a5"], "QD a2-a5")
    no_raw_notation(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"rhombus-worded-uses-{language}-phone.png"), full_page=True)
    page.locator('#hand-actions [data-use="QD a2-a5"]').click()
    expect(page.locator("#game")).to_have_attribute("data-ply", "1")
    expect(page.locator("#moves li").last.locator('.notation[translate="no"]')).to_have_text("QD a2-a5")
    no_raw_notation(page)


@pytest.mark.parametrize("language", ["de", "es", "ru"])
def test_a_whole_actions_button_says_what_it_does(
    language: str, alice: Any, bob: Any, daphne_server: str, chromium_browser: Browser, orm: Callable[..., Any],
) -> None:
    """RH22: three cards in a straight flush are also an Eliminator, a whole action's button."""
    game = orm(dealt, alice, bob, ["10C", "JC"], ["QC"])
    page = open_as(chromium_browser, daphne_server, game.pk, orm(session_cookie, alice), language)
    pick(page, "10C", "JC", "QC")
    text = "elim 10C JC QC a1xd5"
    expect_worded(page, f'#hand-actions [data-action="{text}"]', WORDS[language][text], text)
    no_raw_notation(page)
