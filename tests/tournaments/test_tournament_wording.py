"""Tournament texts in the reader's language (issue 23): the bracket's own
words, the stored notes on why a player left or a tournament ended, the
form's tiebreak help and the refusals' messages.

The site's catalogs are built from every area's work at once; these tests
compile a few German entries of their own into a temporary catalog, so that
what they check is that the text goes through the translation where it is
shown, not what the catalogs say."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polib
import pytest
from django.utils import translation

from tournaments import wording
from tournaments.bracket_svg import bracket_svg
from tournaments.brackets import build, resolve
from tournaments.forms import TournamentForm

GERMAN = {
    "Final": "Finale",
    "Semi-finals": "Halbfinale",
    "Third place": "Platz 3",
    "Winner of %(match)s": "Sieger von %(match)s",
    "Bracket": "Turnierbaum",
    "removed by the organizer: %(reason)s": "vom Veranstalter entfernt: %(reason)s",
    "withdrew": "abgemeldet",
    "cancelled by the organizer": "vom Veranstalter abgesagt",
    "Comma-separated, in order: %(codes)s": "Durch Kommas getrennt, in dieser Reihenfolge: %(codes)s",
    "you cannot join: %(why)s": "du kannst nicht beitreten: %(why)s",
}
GERMAN_PLURALS = {
    ("all %(count)s round played", "all %(count)s rounds played"):
        ("%(count)s Runde gespielt", "alle %(count)s Runden gespielt"),
    ("the tournament is full (%(count)s player)", "the tournament is full (%(count)s players)"):
        ("das Turnier ist voll (%(count)s Spieler)", "das Turnier ist voll (%(count)s Spieler)"),
}


@pytest.fixture
def german(tmp_path: Path, settings: Any) -> Iterator[None]:
    """A German catalog of the entries above, first on LOCALE_PATHS (its entries win)."""
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "de",
                        "Plural-Forms": "nplurals=2; plural=(n != 1);"}
    for msgid, msgstr in GERMAN.items():
        catalog.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    for (singular, plural), forms in GERMAN_PLURALS.items():
        catalog.append(polib.POEntry(msgid=singular, msgid_plural=plural, msgstr_plural=dict(enumerate(forms))))
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    catalog.save_as_mofile(str(folder / "django.mo"))
    settings.LOCALE_PATHS = [tmp_path, *settings.LOCALE_PATHS]  # resets Django's loaded translations
    yield


def test_the_bracket_is_drawn_in_english_unless_given_a_translation() -> None:
    state = resolve(build(4, double=False, third_place=True), [1, 2, 3, 4], {})
    english = bracket_svg(state, {}, {})
    german = bracket_svg(state, {}, {}, translate=lambda text: GERMAN.get(text, text))
    assert ">Final<" in english and ">Semi-finals<" in english and ">Winner of W1-1<" in english
    assert ">Finale<" in german and ">Halbfinale<" in german and ">Platz 3<" in german
    assert ">Sieger von W1-1<" in german and 'aria-label="Turnierbaum"' in german
    assert "Winner of" not in german and ">Final<" not in german


def test_stored_notes_read_as_stored_in_english() -> None:
    assert wording.withdrawal("removed by the organizer: left the club") == "removed by the organizer: left the club"
    assert wording.withdrawal("removed by the organizer") == "removed by the organizer"
    assert wording.withdrawal("removed by the organizer: removed in the admin") == \
        "removed by the organizer: removed in the admin"
    assert wording.withdrawal("withdrawn after 2 no-shows") == "withdrawn after 2 no-shows"
    assert wording.end_note("all 7 rounds played") == "all 7 rounds played"
    assert wording.end_note("ended after round 3: no legal pairing exists (no pairing meets the absolute "
                            "criteria (rematches, forbidden pairs, colours, byes))").startswith(
        "ended after round 3: no legal pairing exists (no pairing meets")
    assert wording.end_note("something an admin wrote") == "something an admin wrote"


def test_stored_notes_are_worded_in_the_readers_language(german: None) -> None:
    with translation.override("de"):
        assert wording.withdrawal("removed by the organizer: left the club") == \
            "vom Veranstalter entfernt: left the club"
        assert wording.withdrawal("withdrew") == "abgemeldet"
        assert wording.end_note("cancelled by the organizer") == "vom Veranstalter abgesagt"
        assert wording.end_note("all 7 rounds played") == "alle 7 Runden gespielt"


def test_the_tiebreaks_help_is_worded_when_shown_not_when_the_form_is_imported(german: None) -> None:
    with translation.override("de"):
        help_text = str(TournamentForm()["tiebreaks"].help_text)
    assert help_text.startswith("Durch Kommas getrennt, in dieser Reihenfolge: BH")
    assert str(TournamentForm()["tiebreaks"].help_text).startswith("Comma-separated, in order: BH")


@pytest.mark.django_db
def test_a_refusal_keeps_the_capitals_of_its_language(german: None, client: Any, tournament: Any,
                                                      players: Any) -> None:
    """German nouns keep their capital in the message (str.capitalize lowered them)."""
    first, second, third = players(3)
    t = tournament(max_players=2)
    for user in (first, second):
        client.force_login(user)
        client.post(f"/tournaments/{t.pk}/join/")
    client.force_login(third)
    page = client.post(f"/tournaments/{t.pk}/join/", follow=True, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Du kannst nicht beitreten: das Turnier ist voll (2 Spieler)" in page
