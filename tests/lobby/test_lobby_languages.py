"""The lobby and the ladder in the reader's language: the pages' marked texts,
Russian plurals, and a refusal over the lobby socket in the player's saved language.

A small German and Russian catalog of the texts checked here is compiled for
these tests (the shared catalogs under locale/ are built from every area's
translations and are not needed to prove that these texts go through them).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polib
import pytest
from channels.db import database_sync_to_async
from django.test import Client

from preferences.languages import save_language
from tests.lobby.conftest import Opener

# (msgid, msgid_plural or None): {language: translation, or the list of plural forms}
TRANSLATIONS: dict[tuple[str, str | None], dict[str, Any]] = {
    ("Create seek", None): {"de": "Gesuch erstellen", "ru": "Создать заявку"},
    ("Open seeks", None): {"de": "Offene Gesuche", "ru": "Открытые заявки"},
    ("Active in the last %(days)s day", "Active in the last %(days)s days"): {
        "de": ["Aktiv innerhalb von %(days)s Tag", "Aktiv in den letzten %(days)s Tagen"],
        "ru": ["Активные за последний %(days)s день", "Активные за последние %(days)s дня",
               "Активные за последние %(days)s дней", "Активные за последние %(days)s дня"],
    },
    ("you cannot challenge yourself", None): {
        "de": "du kannst dich nicht selbst herausfordern", "ru": "нельзя вызвать самого себя",
    },
}
PLURAL_FORMS = {
    "de": "nplurals=2; plural=(n != 1);",
    "ru": "nplurals=4; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 "
          ": n%10==0 || (n%10>=5 && n%10<=9) || (n%100>=11 && n%100<=14)? 2 : 3);",
}


@pytest.fixture
def ladder_catalog(tmp_path: Path, settings: Any) -> Iterator[None]:
    """Django translates with these catalogs for the test (changing LOCALE_PATHS
    empties Django's cache of loaded catalogs)."""
    for language in ("de", "ru"):
        po = polib.POFile()
        po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": language,
                       "Plural-Forms": PLURAL_FORMS[language]}
        for (msgid, plural), texts in TRANSLATIONS.items():
            text = texts[language]
            if plural is None:
                po.append(polib.POEntry(msgid=msgid, msgstr=text))
            else:
                po.append(polib.POEntry(msgid=msgid, msgid_plural=plural,
                                        msgstr_plural=dict(enumerate(text))))
        folder = tmp_path / "locale" / language / "LC_MESSAGES"
        folder.mkdir(parents=True)
        po.save_as_mofile(str(folder / "django.mo"))
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    yield


@pytest.mark.django_db
@pytest.mark.usefixtures("ladder_catalog")
@pytest.mark.parametrize(("language", "create", "seeks"), [
    ("de", "Gesuch erstellen", "Offene Gesuche"), ("ru", "Создать заявку", "Открытые заявки")])
def test_the_lobby_speaks_the_browsers_language(client: Client, alice: Any, language: str, create: str,
                                                seeks: str) -> None:
    client.force_login(alice)
    page = client.get("/lobby/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert create in page and seeks in page
    assert "Create seek" not in page and "Open seeks" not in page


@pytest.mark.django_db
@pytest.mark.usefixtures("ladder_catalog")
def test_the_ladders_filter_counts_its_days_with_russian_plurals(client: Client) -> None:
    page = client.get("/ladder/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Активные за последние 30 дней" in page  # 30: the "many" form, not "дня"
    assert "Active in the last" not in page


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("services", "ladder_catalog")
async def test_a_refusal_over_the_lobby_socket_is_in_the_players_saved_language(
        alice: Any, cookies: dict[str, str], lobby_sockets: Opener) -> None:
    await database_sync_to_async(save_language)(alice, "de")
    sock, _ = await lobby_sockets(cookies["alice"])
    answer = await sock.request({"type": "challenge", "username": "alice", "time_control": "5+3"})
    assert answer == {"type": "error", "message": "du kannst dich nicht selbst herausfordern"}
