"""The fair-shuffle check (R19, RH30) in the words a player of each language
uses (issue 35, finding 10), as docs/glossary.md records them: German
"Startwert" and "Prüfsumme", Spanish "semilla" and "huella", Russian
"ключ тасовки" and "контрольная сумма". Not the programmers' words: German
"Seed", "Commitment", "gehasht"; Spanish "compromiso", "hash"; Russian
"обязательство" (an obligation), "сид", "хеш".

Every catalog entry about the seed, its published SHA-256 or the check
(django.po and djangojs.po) is read, and so is a finished game's replay page.
The JSON fields' own names (``commitment``, ``seed_hex``) and the code a
reader may type stay as they are.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import polib
import pytest
from django.test import Client

from games import finishing, starting
from tests.site.test_no_english_prose import visible_text

ROOT = Path(__file__).resolve().parents[2]
ABOUT_THE_CHECK = re.compile(r"\bseed\b|commitment|\bhash|SHA-256", re.I)
CODE = re.compile(r"<code>.*?</code>")
JARGON = {
    "de": re.compile(r"\bSeeds?\b|\bCommitments?\b|gehasht|\bHash"),
    "es": re.compile(r"\bcompromiso\b|\bhash\b", re.I),
    "ru": re.compile(r"обязательств|\bсид(а|ом|у)?\b|\bхе?э?ш|зерн", re.I),
}
WORDS = {"de": ("Startwert", "Prüfsumme"), "es": ("semilla", "huella"), "ru": ("ключ тасовки", "контрольн")}


def entries_about_the_check(language: str) -> list[polib.POEntry]:
    found = []
    for domain in ("django", "djangojs"):
        catalog = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"))
        found += [entry for entry in catalog if ABOUT_THE_CHECK.search(entry.msgid)]
    return found


@pytest.mark.parametrize("language", sorted(JARGON))
def test_no_catalog_entry_about_the_check_speaks_jargon(language: str) -> None:
    entries = entries_about_the_check(language)
    assert len(entries) >= 15, "the entries about the fair-shuffle check were not found"
    jargon = [f"{entry.msgid!r}\n    -> {entry.msgstr!r}" for entry in entries
              if JARGON[language].search(CODE.sub("", entry.msgstr))]
    assert not jargon, f"Jargon in {language}:\n" + "\n".join(jargon)


@pytest.mark.parametrize("language", sorted(JARGON))
def test_a_finished_games_replay_explains_the_check_in_plain_words(alice: Any, bob: Any, language: str) -> None:
    game = finishing.resign(starting.start_game(alice, bob, seed="plain-words").pk, bob)
    html = Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/games/{game.pk}/replay/").content.decode()
    text = visible_text(html)
    assert all(word.lower() in text.lower() for word in WORDS[language]), text
    assert JARGON[language].search(text) is None, JARGON[language].search(text)
