"""A German and Russian catalog of some refusals, compiled for the test that uses it.

Tests of the refusals' wording must see German and Russian text without
depending on the shared catalogs under locale/: the fixture writes these
translations (the same as .i18n/refusals.json gives the catalogs) to .po files
in a temporary LOCALE_PATHS, compiles them with polib, and points Django there.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polib
import pytest

# (context, msgid): {language: translation}
TRANSLATIONS: dict[tuple[str | None, str], dict[str, str]] = {
    (None, "%(action)s: %(card)s, a %(owner_word)s card, is not in %(seat_word)s's hand"): {
        "de": "%(action)s: %(card)s, eine Karte von %(owner_word)s, ist nicht in der Hand von %(seat_word)s",
        "ru": "%(action)s: %(card)s — карта стороны «%(owner_word)s», её нет на руке у стороны «%(seat_word)s»",
    },
    (None, "%(action)s: %(card)s moves only the %(pawn_word)s pawn, which is on %(square)s"): {
        "de": "%(action)s: %(card)s zieht nur den Bauern %(pawn_word)s, und der steht auf %(square)s",
        "ru": "%(action)s: %(card)s ходит только пешкой «%(pawn_word)s», а она стоит на %(square)s",
    },
    (None, "%(action)s: the path is blocked at %(square)s"): {
        "de": "%(action)s: der Weg ist auf %(square)s versperrt",
        "ru": "%(action)s: путь перекрыт на %(square)s",
    },
    (None, "it is %(seat)s's turn (%(rule)s)"): {
        "de": "%(seat)s ist am Zug (%(rule)s)",
        "ru": "сейчас ход: %(seat)s (%(rule)s)",
    },
    (None, "action %(number)s (%(seat_word)s's %(turn_ordinal)s turn): %(error)s"): {
        "de": "Zug %(number)s (%(turn_ordinal)s Zug von %(seat_word)s): %(error)s",
        "ru": "ход %(number)s (%(turn_ordinal)s ход стороны «%(seat_word)s»): %(error)s",
    },
    ("refusal ordinal", "%(n)sth"): {"de": "%(n)s.", "ru": "%(n)s-й"},
    (None, "not valid JSON"): {"de": "kein gültiges JSON", "ru": "недопустимый JSON"},
    (None, "unknown or revoked token"): {
        "de": "unbekanntes oder widerrufenes Token", "ru": "неизвестный или отозванный токен",
    },
    ("refusal seat", "Red"): {"de": "Rot", "ru": "Красные"},
    ("refusal seat", "Black"): {"de": "Schwarz", "ru": "Чёрные"},
    ("refusal pawn", "Jack"): {"de": "Bube", "ru": "валет"},
    ("refusal pawn", "Hearts"): {"de": "Herz", "ru": "червей"},
    ("refusal pawn", "%(face)s of %(suit)s"): {"de": "%(suit)s-%(face)s", "ru": "%(face)s %(suit)s"},
}


def compile_catalogs(root: Path) -> None:
    """Write and compile locale/<lang>/LC_MESSAGES/django.{po,mo} under ``root``."""
    for language in ("de", "ru"):
        po = polib.POFile()
        po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": language}
        for (context, msgid), texts in TRANSLATIONS.items():
            po.append(polib.POEntry(msgctxt=context, msgid=msgid, msgstr=texts[language]))
        folder = root / language / "LC_MESSAGES"
        folder.mkdir(parents=True)
        po.save(str(folder / "django.po"))
        po.save_as_mofile(str(folder / "django.mo"))


@pytest.fixture
def refusal_catalog(tmp_path: Path, settings: Any) -> Iterator[None]:
    """Django translates with these catalogs for the test (changing LOCALE_PATHS
    empties Django's cache of loaded catalogs, before and after)."""
    compile_catalogs(tmp_path / "locale")
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    yield
