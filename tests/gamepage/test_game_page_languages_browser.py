"""The game page's JavaScript speaks the reader's language (issue 23).

What the page's scripts write (the status line, a square's name with its pawn's
card name) comes from Django's JavaScript catalog, chosen by the browser's
Accept-Language, with no language in the address. The test compiles a small German
catalog of its own into a temporary folder that the daphne under test searches first
(tests/gamepage/locale_settings.py), so it holds whatever the site's catalogs say.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import polib
import pytest
from django.conf import settings
from playwright.sync_api import Browser, expect

from games.models import Game
from tests.games.conftest import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

# (context, English, German): as the scripts and templates ask for them.
SCRIPT_MESSAGES: list[tuple[str | None, str, str]] = [
    (None, "Your turn", "Du bist am Zug"),
    (None, "%(pawn)s on %(square)s (%(name)s)", "%(pawn)s auf %(square)s (%(name)s)"),
    (None, "%(rank)s of %(suit)s", "%(suit)s-%(rank)s"),
    ("card rank", "Ace", "Ass"),
    ("card suit, as in Ace of Hearts", "Hearts", "Herz"),
]
PAGE_MESSAGES: list[tuple[str | None, str, str]] = [(None, "Board", "Brett")]


def compile_catalog(folder: Path, domain: str, messages: list[tuple[str | None, str, str]]) -> None:
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "de",
                        "Plural-Forms": "nplurals=2; plural=(n != 1);"}
    for context, english, german in messages:
        catalog.append(polib.POEntry(msgctxt=context, msgid=english, msgstr=german))
    target = folder / "de" / "LC_MESSAGES"
    target.mkdir(parents=True, exist_ok=True)
    catalog.save_as_mofile(str(target / f"{domain}.mo"))


@pytest.fixture
def german_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A German catalog that the next daphne started reads before the site's own."""
    compile_catalog(tmp_path, "djangojs", SCRIPT_MESSAGES)
    compile_catalog(tmp_path, "django", PAGE_MESSAGES)
    monkeypatch.setenv("ACEWEB_TEST_LOCALE_PATH", str(tmp_path))
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "tests.gamepage.locale_settings")
    return tmp_path


@pytest.fixture
def alice_cookie(alice: Any) -> str:
    """Alice's session, made before Chromium runs (the ORM refuses Playwright's loop)."""
    return session_cookie(alice)


# german_catalog comes first: the daphne it must reach starts with the first fixture that needs it.
def test_the_game_page_writes_its_status_and_pawn_names_from_the_javascript_catalog(
        german_catalog: Path, game: Game, alice_cookie: str, daphne_server: str, chromium_browser: Browser) -> None:
    context = chromium_browser.new_context(extra_http_headers={"Accept-Language": "de"})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": alice_cookie, "url": daphne_server}])
    page = context.new_page()
    page.goto(f"{daphne_server}/games/{game.pk}/")
    expect(page.locator("#game")).to_have_attribute("data-state", "live")

    assert page.locator("html").get_attribute("lang") == "de"
    # Written by the server from the django catalog...
    expect(page.locator(".game__play")).to_have_attribute("aria-label", "Brett")
    # ...and by game-shared.js and game.js from the JavaScript catalog: Alice (Red) moves first.
    expect(page.locator("#game-status")).to_have_text("Du bist am Zug")
    expect(page.locator('#board [data-square="e1"]')).to_have_attribute("aria-label", re.compile(r"^A♥ auf e1 \(Herz-Ass\)"))
    context.close()
