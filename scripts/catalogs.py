"""The translation catalogs (locale/<lang>/LC_MESSAGES/{django,djangojs}.po).

    .venv/bin/python scripts/catalogs.py update   # after marking new texts: add them to every catalog
    .venv/bin/python scripts/catalogs.py fill OTHER/locale   # take translations another tree has and this one lacks

`update` runs Django's makemessages for every language of settings.LANGUAGES but
English, for both domains, always with the same options, so the catalogs change only
where the texts did. `fill` is for merging branches that each translated their own new
texts: keep one side's catalogs, `update`, then fill the entries still empty or fuzzy
from the other side's catalogs (same context and text). New entries are then untranslated (or fuzzy guesses) until
someone translates them; tests/site/test_catalogs.py fails until then. The same
extraction, into a copy of the tree, is how that test sees what the catalogs lack.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOMAINS = ("django", "djangojs")
# What is not the site's own text: the environment, tests, benches, build output.
IGNORED = (".venv/*", "tests/*", "bench/*", "staticfiles/*", "artifacts/*", "node_modules/*")
OPTIONS = (*(f"--ignore={pattern}" for pattern in IGNORED), "--no-wrap", "--add-location=file", "--no-obsolete")


def languages() -> list[str]:
    """The catalogs' languages: settings.LANGUAGES but the source language."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aceweb.settings")
    from django.conf import settings

    return [code for code, _name in settings.LANGUAGES if code != "en"]


def makemessages(root: Path, langs: list[str]) -> None:
    """Write root/locale/<lang>/LC_MESSAGES/<domain>.po from the texts under root."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "aceweb.settings", "ACEWEB_SERVICES_TOLD": "1"}
    for domain in DOMAINS:
        command = [sys.executable, "manage.py", "makemessages", "-d", domain, *OPTIONS]
        for lang in langs:
            command += ["-l", lang]
        subprocess.run(command, cwd=root, env=env, check=True, capture_output=True)


def extract_copy(destination: Path, langs: list[str]) -> Path:
    """Extract the texts of a copy of the tree into destination's own locale/ (the
    real catalogs untouched); returns that locale folder."""
    shutil.copytree(ROOT, destination, ignore=shutil.ignore_patterns(
        ".venv", ".git", "locale", "node_modules", "artifacts", "staticfiles", ".hypothesis",
        ".pytest_cache", ".mypy_cache", "*.sqlite3", ".i18n", "__pycache__"))
    (destination / "locale").mkdir()
    makemessages(destination, langs)
    return destination / "locale"


def fill(source: Path, langs: list[str]) -> int:
    """Copy into this tree's catalogs the translations ``source`` (a locale folder)
    has for entries this tree leaves empty or fuzzy; returns how many were filled."""
    import polib

    filled = 0
    for lang in langs:
        for domain in DOMAINS:
            ours_path = ROOT / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"
            theirs_path = source / lang / "LC_MESSAGES" / f"{domain}.po"
            if not (ours_path.exists() and theirs_path.exists()):
                continue
            ours, theirs = polib.pofile(str(ours_path)), polib.pofile(str(theirs_path))
            done = {(e.msgctxt, e.msgid): e for e in theirs if e.translated() and not e.obsolete}
            before = filled
            for entry in ours:
                known = done.get((entry.msgctxt, entry.msgid))
                if known is None or (entry.translated() and "fuzzy" not in entry.flags):
                    continue
                entry.msgstr, entry.msgstr_plural = known.msgstr, dict(known.msgstr_plural)
                entry.flags = [flag for flag in entry.flags if flag != "fuzzy"]
                entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None
                filled += 1
            if filled > before:
                ours.save()
    if filled:
        makemessages(ROOT, langs)  # back to makemessages' own layout of the files
    return filled


def main(argv: list[str]) -> int:
    if argv[1:] == ["update"]:
        makemessages(ROOT, languages())
        return 0
    if len(argv) == 3 and argv[1] == "fill":
        print(f"{fill(Path(argv[2]), languages())} entries filled")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
