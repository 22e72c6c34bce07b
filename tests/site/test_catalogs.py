"""The catalogs stay complete: every message translated in every language, no fuzzy
guess, placeholders kept, and no text in the sources that the catalogs lack, so a new
English text without its translations fails CI (issue 23)."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

from scripts import catalogs

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]
CATALOGS = [(lang, domain) for lang in LANGUAGES for domain in catalogs.DOMAINS]
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]")
FORMS = {"de": 2, "es": 3, "ru": 4}  # Django's own Plural-Forms of each language


def catalog(lang: str, domain: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"))


def keys(po: polib.POFile) -> set[tuple[str | None, str, str | None]]:
    return {(entry.msgctxt, entry.msgid, entry.msgid_plural or None) for entry in po if not entry.obsolete}


@pytest.mark.parametrize(("lang", "domain"), CATALOGS)
def test_every_message_is_translated_and_none_is_fuzzy(lang: str, domain: str) -> None:
    po = catalog(lang, domain)
    assert [entry.msgid for entry in po.untranslated_entries()] == []
    assert [entry.msgid for entry in po.fuzzy_entries()] == []


@pytest.mark.parametrize(("lang", "domain"), CATALOGS)
def test_translations_keep_the_placeholders_and_the_languages_plural_forms(lang: str, domain: str) -> None:
    po = catalog(lang, domain)
    assert po.metadata["Plural-Forms"].startswith(f"nplurals={FORMS[lang]};")
    wrong = []
    for entry in po.translated_entries():
        if entry.msgid_plural:
            allowed = set(PLACEHOLDER.findall(entry.msgid + entry.msgid_plural))
            forms = [entry.msgstr_plural[n] for n in sorted(entry.msgstr_plural)]
            if len(forms) != FORMS[lang] or any(not set(PLACEHOLDER.findall(form)) <= allowed for form in forms):
                wrong.append(entry.msgid)
        elif sorted(PLACEHOLDER.findall(entry.msgstr)) != sorted(PLACEHOLDER.findall(entry.msgid)):
            wrong.append(entry.msgid)
    assert wrong == []


@pytest.mark.parametrize("domain", catalogs.DOMAINS)
def test_every_language_has_the_same_messages(domain: str) -> None:
    first, *others = LANGUAGES
    assert all(keys(catalog(lang, domain)) == keys(catalog(first, domain)) for lang in others)


def test_makemessages_would_add_no_message_and_drop_none(tmp_path: Path) -> None:
    """A text marked in a template, Python or JavaScript but missing from the
    catalogs (or a catalog entry no source uses any more) fails here:
    `scripts/catalogs.py update`, then translate."""
    extracted = catalogs.extract_copy(tmp_path / "tree", LANGUAGES[:1])
    for domain in catalogs.DOMAINS:
        fresh = keys(polib.pofile(str(extracted / LANGUAGES[0] / "LC_MESSAGES" / f"{domain}.po")))
        kept = keys(catalog(LANGUAGES[0], domain))
        assert sorted(fresh - kept, key=str) == [], f"{domain}: in the sources, not in the catalogs"
        assert sorted(kept - fresh, key=str) == [], f"{domain}: in the catalogs, in no source"
