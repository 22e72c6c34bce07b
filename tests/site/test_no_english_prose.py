"""Asked in German, Spanish or Russian, every page a user reaches carries no
English prose, and its ``<html lang>`` says the language (issue 23, "Done when").

One world is made per test (tests/site/world.py: players with finished and
running games of each kind, tournaments of each format before, during and
after, a restricted player who may appeal), then every page is read through Django's
test client, anonymous and signed in, with the language's Accept-Language. Its
visible text (no scripts or styles; with the titles, aria-labels, placeholders,
alts and button values a reader meets) less what is English everywhere (names,
game names, notation, rule numbers) must hold none of the English words of tests/site/english.py.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from tests.games.conftest import fast_password_hashing  # noqa: F401
from tests.site.english import english_found
from tests.site.world import Page, World, world  # noqa: F401 (the fixture)
from tests.tournaments.conftest import organizer, players, tournament  # noqa: F401 (the world's)

pytestmark = pytest.mark.django_db

LANGUAGES = ["de", "es", "ru"]


class VisibleText(HTMLParser):
    """The text a reader meets on a page: its text without scripts and
    styles, and the attributes read aloud or shown (title, aria-label,
    placeholder, alt, and the value of a button input)."""

    SKIPPED = {"script", "style", "code", "kbd", "samp"}  # code reads the same in every language
    SPOKEN = ("title", "aria-label", "placeholder", "alt")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIPPED:
            self.skipping += 1
        values = dict(attrs)
        self.parts.extend(value for name, value in attrs if name in self.SPOKEN and value)
        if tag == "input" and values.get("type") in ("submit", "button", "reset") and values.get("value"):
            self.parts.append(values["value"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIPPED and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def read(page: Page, language: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if page.user is not None:
        client.force_login(page.user)
    response = client.get(page.url)
    assert response.status_code == page.status, f"{page.name} ({page.url}) answered {response.status_code}"
    return response.content.decode()


def who(page: Page) -> str:
    return page.user.username if page.user is not None else "a visitor"


def wrong_language(html: str, language: str, kept: tuple[str, ...]) -> list[str]:
    """What is wrong with a page's HTML asked in LANGUAGE: English words, a <html lang> not LANGUAGE."""
    problems = [f"English: {found}" for found in english_found(visible_text(html), kept)]
    lang = re.search(r"<html[^>]*\blang=\"([^\"]*)\"", html)
    if lang is None or lang.group(1) != language:
        problems.append(f"<html lang> is {lang.group(1) if lang else 'missing'}")
    return problems


def test_no_page_carries_english_prose_and_each_says_its_language(world: World) -> None:
    """One world for every language: making it costs more than reading its pages."""
    failures = []
    for language in LANGUAGES:
        for page in world.pages:
            if problems := wrong_language(read(page, language), language, world.kept):
                failures.append(f"{page.name} ({page.url}, as {who(page)}), {language}:\n    " + "\n    ".join(problems))
    assert not failures, "Pages not in their language:\n" + "\n".join(failures)


def test_the_walk_finds_english_on_every_page_asked_in_english(world: World) -> None:
    """The walk reads each page's text: asked in English, every page holds words of the list."""
    silent = [f"{page.name} ({page.url}, as {who(page)})" for page in world.pages
              if not english_found(visible_text(read(page, "en")), world.kept)]
    assert not silent, "No English word found on:\n" + "\n".join(silent)
