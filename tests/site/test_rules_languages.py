"""The rules pages in English, German, Spanish and Russian, by the browser's language (issue 23).

The same address in every language; each language's text is its own template
(games/rules/<game>.<lang>.html), so these read the rules section, which is
written per language, and compare its rule numbers with the English page's.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

PAGES = ["/rules/ace-in-the-hole/", "/rules/rhombus/"]

# Card and pawn names as each language says them on its rules pages, and the
# section heading, which is the language's own, never the English "How to play".
ACE_TERMS = {
    "de": ["So wird gespielt", "Bube", "Dame", "König", "Ass", "Herz", "Karo", "Pik", "Kreuz", "verbrenne"],
    "es": ["Cómo se juega", "Jota", "Reina", "Rey", "As", "corazones", "diamantes", "picas", "tréboles", "quémala"],
    "ru": ["Как играть", "Валет", "Дама", "Король", "Туз", "червей", "бубен", "пик", "треф", "сожгите"],
}
RHOMBUS_TERMS = {
    "de": ["So wird gespielt", "Tischkarten", "Handkarte", "Läufer", "Kill-Karten", "Blockade", "Reserve"],
    "es": ["Cómo se juega", "cartas de mesa", "carta en mano", "alfil", "cartas kill", "bloqueo", "reserva"],
    "ru": ["Как играть", "карты на столе", "карта в руке", "слон", "килл-карты", "блокаду", "резерве"],
}
ENGLISH_HEADINGS = {
    "/rules/ace-in-the-hole/": ["How to play", "The board and the pawns", "What a card lets you do", "Winning"],
    "/rules/rhombus/": ["How to play", "What each card does", "Kills and blockades", "The team game"],
}


def get(client: Client, url: str, language: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def rules_section(page: str) -> str:
    start = page.index('<section class="rules"')
    return page[start:page.index("</section>", start)]


def rule_refs(section: str) -> list[str]:
    """The rule numbers beside each heading and item, in page order."""
    return re.findall(r'<span class="rule-ref">([^<]*)</span>', section)


@pytest.mark.parametrize("language", ["de", "es", "ru"])
@pytest.mark.parametrize(("url", "terms"), [(PAGES[0], ACE_TERMS), (PAGES[1], RHOMBUS_TERMS)])
def test_the_rules_are_written_in_the_browsers_language(
        client: Client, url: str, terms: dict[str, list[str]], language: str) -> None:
    page = get(client, url, language)
    assert f'<html lang="{language}">' in page
    section = rules_section(page)
    assert [term for term in terms[language] if term not in section] == []
    assert [heading for heading in ENGLISH_HEADINGS[url] if heading in section] == []


@pytest.mark.parametrize("language", ["de", "es", "ru"])
@pytest.mark.parametrize("url", PAGES)
def test_every_language_cites_the_english_pages_rule_numbers(client: Client, url: str, language: str) -> None:
    english = get(client, url, "en")
    page = get(client, url, language)
    assert rule_refs(rules_section(page)) == rule_refs(rules_section(english))
    assert set(re.findall(r"\bRH?\d+\b", page)) == set(re.findall(r"\bRH?\d+\b", english))


@pytest.mark.parametrize("language", ["de", "es", "ru"])
@pytest.mark.parametrize("url", PAGES)
def test_every_language_keeps_the_english_pages_sections_and_items(client: Client, url: str, language: str) -> None:
    english = rules_section(get(client, url, "en"))
    section = rules_section(get(client, url, language))
    for tag in ("<h3>", "<li>", "<strong>"):
        assert section.count(tag) == english.count(tag), tag


@pytest.mark.parametrize("url", PAGES)
def test_the_notation_stays_the_same_in_every_language(client: Client, url: str) -> None:
    """Seats, squares and card ranks are the rules' notation, not words to translate."""
    english = rules_section(get(client, url, "en"))
    notation = r"\b(?:SW|SE|NE|NW|[a-e][1-5]|10-J-Q|J, Q, K, A|6, Q, K, A|[\dJQKA]+[-+][\dJQKA]+)\b"
    for language in ("de", "es", "ru"):
        assert sorted(re.findall(notation, rules_section(get(client, url, language)))) == sorted(re.findall(notation, english))


@pytest.mark.parametrize("url", PAGES)
def test_a_language_the_site_does_not_speak_gets_the_english_rules(client: Client, url: str) -> None:
    page = get(client, url, "fr")
    assert '<html lang="en">' in page
    assert '<h2 id="rules-heading">How to play</h2>' in rules_section(page)
