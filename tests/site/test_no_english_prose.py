"""Asked in German, Spanish or Russian, every page a user reaches carries no
English prose, and its ``<html lang>`` says the language (issue 23, "Done when").

One world is made per test (players with finished games, running Ace and
Rhombus games for two and four, tournaments before, during and after, a
restricted player who may appeal), then every page is read through Django's
test client, anonymous and signed in, with the language's Accept-Language. Its
visible text (no scripts or styles; with the titles, aria-labels, placeholders,
alts and button values a reader meets) less what is English everywhere (names,
game names, notation, rule numbers) must hold none of the English words below.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import play
from games.models import Game
from ladder.api.models import SCOPES
from ladder.models import ACE
from ladder.moderation.models import ModerationAction
from ladder.tournaments import running
from ladder.tournaments.models import Tournament
from tests.games.conftest import fast_password_hashing  # noqa: F401
from tests.helpers import staff_group
from tests.moderation.conftest import act
from tests.tournaments.conftest import organizer, play_round, players, tournament  # noqa: F401

pytestmark = pytest.mark.django_db

LANGUAGES = ["de", "es", "ru"]

# English words that are no words of German or Spanish (nor, in Latin letters,
# of Russian): "in", "was", "also", "will", "so", "an", "hand", "team",
# "partner", "start" are German too, and "no", "a", "me", "he", "se" Spanish;
# "bye" is left out, the Spanish glossary keeps it: "descanso (bye)".
ENGLISH = frozenset("""
    the and you your yours with this that these those of to is are were has have had not yet here
    when what which who whom than been would should could can can't cannot don't doesn't isn't won't
    it its it's they them their there from for by at or on be being if then only each every any
    some more back new how why where after before about our we us my
    game games play plays played playing player players join joined joins won lost rated unrated casual
    round rounds move moves sign signed seek seeks challenge challenges tournament tournaments rating
    ratings ladder rules resign resigned draw abort offer accept decline cancel create created
    password username email forgot remember log login logout account settings language
    replay watch watching spectator spectators opponent opponents winner wins losses draws
    standings pairing pairings tiebreak tiebreaks bracket upcoming running finished none
    turn seat seats card cards piece pieces pawn pawns time clock report appeal page next previous
    first last show hide yes submit save send reason black rapid classical correspondence found forbidden
""".split())

# What stays as written in every language: the game names, the site's name,
# the language menu, the API's scope names (and the test's usernames and
# tournament names, added by the world).
KEPT_PHRASES = ("Ace in the Hole", "Rhombus Formation", "Rhombus", "aceweb", "BOT",
                "English", "Deutsch", "Español", "Русский",
                *(f"{scope}:" for scope in SCOPES))  # an API scope, as a client sends it: "bot:play: ..."
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
CODE = re.compile(r"[A-Z]{2,5}")  # tiebreaks (BH, WON), seats (SW), badges (BOT): codes, not words


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


def english_found(text: str, kept: tuple[str, ...]) -> list[str]:
    """Each English word in ``text`` with the words around it, e.g. '«Sign» in ...'."""
    for phrase in sorted(kept, key=len, reverse=True):
        text = text.replace(phrase, " ")
    found = []
    for match in WORD.finditer(text):
        if match.group().lower() in ENGLISH and not CODE.fullmatch(match.group()):
            start, end = match.span()
            found.append(f"{text[max(0, start - 40):start]}«{match.group()}»{text[end:end + 40]}")
    return found


@dataclass
class Page:
    name: str
    url: str
    user: Any  # None: an anonymous visitor
    status: int = 200


@dataclass
class World:
    pages: list[Page]
    kept: tuple[str, ...]


def finished_knockout(make: Callable[..., Tournament], entrants: list[Any]) -> Tournament:
    t = make(name="Pokal K", format=Tournament.Format.SINGLE, starts_at=timezone.now(), pause_seconds=3600)
    for user in entrants:
        running.join(t.pk, user)
    running.advance(t.pk)
    for _ in range(2):  # the semi-finals, then the final
        play_round(Tournament.objects.get(pk=t.pk), lambda p: "red" if p.red.number < p.black.number else "black")
        Tournament.objects.filter(pk=t.pk).update(next_round_at=timezone.now())
        running.advance(t.pk)
    t = Tournament.objects.get(pk=t.pk)
    assert t.status == Tournament.Status.FINISHED
    return t


def running_swiss(make: Callable[..., Tournament], entrants: list[Any]) -> Tournament:
    """A Swiss in its second round: standings from the first, boards being played."""
    t = make(name="Pokal S", format=Tournament.Format.SWISS, rounds=3, starts_at=timezone.now(), pause_seconds=0)
    for user in entrants:
        running.join(t.pk, user)
    running.advance(t.pk)
    play_round(Tournament.objects.get(pk=t.pk), lambda p: "red")
    running.advance(t.pk)
    t = Tournament.objects.get(pk=t.pk)
    assert (t.status, t.current_round) == (Tournament.Status.RUNNING, 2)
    return t


@pytest.fixture
def world(alice: Any, bob: Any, charlie: Any, dave: Any, erin: Any, organizer: Any,  # noqa: F811
          players: Any, tournament: Any, django_user_model: Any) -> World:  # noqa: F811
    moderator = django_user_model.objects.create_user("mod", "mod@example.org", is_staff=True)
    moderator.groups.add(staff_group("Moderators"))
    act(moderator, ModerationAction.Kind.RESTRICT_RATED, user=charlie, reason="R9 ×3")
    ace_done = play.resign(play.start_game(alice, bob, seed="walk-ace").pk, bob)
    rhombus_done = play.resign(play.start_game(alice, bob, setup=play.Setup("rhombus"), seed="walk-rh").pk, bob)
    ace = play.start_game(alice, bob, seed="walk-ace-2")
    rhombus = play.start_game(alice, bob, setup=play.Setup("rhombus"), seed="walk-rh-2")
    rhombus4 = play.start_game(alice, bob, charlie, dave, setup=play.Setup("rhombus"), seed="walk-rh-4")
    entrants = players(8)
    upcoming = tournament(name="Pokal U", starts_at=timezone.now() + timedelta(hours=1))
    running.join(upcoming.pk, alice)
    swiss = running_swiss(tournament, entrants[:4])
    knockout = finished_knockout(tournament, entrants[4:])
    for game in (ace_done, rhombus_done):
        assert game.status == Game.Status.FINISHED

    both = (None, alice)
    pages = [Page(name, url, user) for name, url in [
        ("home", "/"), ("lobby", "/lobby/"), ("ladder", "/ladder/"),
        *[(f"ladder {key}", f"/ladder/?game={key}") for key in (ACE, "rhombus", "rhombus-teams")],
        ("profile of bob", "/@/bob/"), ("rules of Ace in the Hole", "/rules/ace-in-the-hole/"),
        ("rules of Rhombus", "/rules/rhombus/"), ("import", "/games/import/"),
        ("tournaments", "/tournaments/"), ("tournament before its start", f"/tournaments/{upcoming.pk}/"),
        ("running Swiss", f"/tournaments/{swiss.pk}/"), ("finished knockout", f"/tournaments/{knockout.pk}/"),
        ("Ace replay", f"/games/{ace_done.pk}/replay/"), ("Rhombus replay", f"/games/{rhombus_done.pk}/replay/"),
        ("running Ace game", f"/games/{ace.pk}/"), ("running Rhombus game", f"/games/{rhombus.pk}/"),
        ("running Rhombus game for four", f"/games/{rhombus4.pk}/"),
    ] for user in both]
    pages += [Page(name, url, None) for name, url in [
        ("sign-in", "/accounts/login/"), ("sign-up", "/accounts/signup/"),
        ("password reset", "/accounts/password/reset/"),
    ]]
    pages += [
        Page("own profile", "/@/alice/", alice),
        Page("preferences", "/account/preferences/", alice),
        Page("API tokens", "/account/tokens/", alice),
        Page("report a player", "/report/@/bob/", alice),
        Page("report a game", f"/report/game/{ace_done.pk}/", alice),
        Page("appeal", "/report/appeal/", charlie),
        Page("lobby of a restricted player", "/lobby/", charlie),
        Page("running Ace game, watched", f"/games/{ace.pk}/", charlie),
        Page("running Rhombus game, watched", f"/games/{rhombus.pk}/", charlie),
        Page("running Rhombus game for four, watched", f"/games/{rhombus4.pk}/", erin),
        Page("new tournament form", "/tournaments/new/", organizer),
        Page("tournament before its start, organizer", f"/tournaments/{upcoming.pk}/", organizer),
        Page("running Swiss, organizer", f"/tournaments/{swiss.pk}/", organizer),
        Page("new tournament form, not an organizer", "/tournaments/new/", alice, 403),
        Page("no such page", "/no-such-page/", None, 404),
        Page("no such game", "/games/999999/", alice, 404),
    ]
    names = tuple(django_user_model.objects.values_list("username", flat=True))
    tournaments = tuple(Tournament.objects.values_list("name", flat=True))
    return World(pages, KEPT_PHRASES + names + tournaments)


def read(page: Page, language: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if page.user is not None:
        client.force_login(page.user)
    response = client.get(page.url)
    assert response.status_code == page.status, f"{page.name} ({page.url}) answered {response.status_code}"
    return response.content.decode()


def who(page: Page) -> str:
    return page.user.username if page.user is not None else "a visitor"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_carries_english_prose(world: World, language: str) -> None:
    failures = []
    for page in world.pages:
        found = english_found(visible_text(read(page, language)), world.kept)
        if found:
            failures.append(f"{page.name} ({page.url}, as {who(page)}), {language}:\n    " + "\n    ".join(found))
    assert not failures, "English prose found:\n" + "\n".join(failures)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_says_its_language_in_html_lang(world: World, language: str) -> None:
    wrong = []
    for page in world.pages:
        lang = re.search(r"<html[^>]*\blang=\"([^\"]*)\"", read(page, language))
        if lang is None or lang.group(1) != language:
            wrong.append(f"{page.name} ({page.url}, as {who(page)}): {lang.group(1) if lang else 'no lang'}")
    assert not wrong, f"<html lang> is not {language} on:\n" + "\n".join(wrong)


def test_the_walk_finds_english_on_every_page_asked_in_english(world: World) -> None:
    """The walk reads each page's text: asked in English, every page holds words of the list."""
    silent = [f"{page.name} ({page.url}, as {who(page)})" for page in world.pages
              if not english_found(visible_text(read(page, "en")), world.kept)]
    assert not silent, "No English word found on:\n" + "\n".join(silent)
