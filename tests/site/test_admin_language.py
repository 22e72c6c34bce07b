"""The admin speaks the admin's language (issue 37, "Language and names"): every
model, field and app of ours has a translated name in German, Spanish and Russian,
and a walk through the admin in German meets none of the English names.

Both are written over ``apps.get_models()``: a model or field added later is
checked without touching this file.
"""

from __future__ import annotations

import re
from datetime import timedelta
from html.parser import HTMLParser
from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin
from django.db import models
from django.test import Client
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation
from django.utils.functional import Promise

from chat.models import ChatTimeout, Line, Mute, RoomLock
from games.models import Game
from ladder.models import Ban, Challenge, Seek
from moderation.models import ModerationAction
from moderation.reports import file_report
from notify.models import Notification, Preference as NoticePreference, PushSubscription, Sent
from preferences.models import Preference
from relation.models import Follow
from tournaments.models import Entry, ForbiddenPairing, Pairing, Round, Tournament
from tests.games.conftest import fast_password_hashing  # noqa: F401
from tests.helpers import staff_group
from tests.moderation.conftest import act, finished_game

OUR_APPS = ("api", "chat", "games", "ladder", "moderation", "notify", "preferences", "relation", "tournaments")
LANGUAGES = ("de", "es", "ru")
# Names that are the same word in a language as in English: each one checked by eye.
SAME_WORD = {
    ("de", "Moderation"),  # the moderation app
    ("de", "Chat"), ("es", "Chat"),  # the chat app
    ("de", "Partner"),  # a 4-player challenge's invitee's role
}


def our_models() -> list[type[models.Model]]:
    return [model for label in OUR_APPS for model in apps.get_app_config(label).get_models()]


def named_fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    """The fields a form or a list can show: the model's own columns and many-to-manys."""
    return [field for field in model._meta.get_fields()
            if getattr(field, "concrete", False) and not field.auto_created]  # type: ignore[misc]


def names_of(model: type[models.Model]) -> dict[str, Any]:
    """Every name the admin shows of ``model``, keyed by where it comes from."""
    meta = model._meta
    names: dict[str, Any] = {f"{meta.label} verbose_name": meta.verbose_name,
                             f"{meta.label} verbose_name_plural": meta.verbose_name_plural}
    names |= {f"{meta.label}.{field.name}": field.verbose_name for field in named_fields(model)}
    return names


def every_name() -> dict[str, Any]:
    names = {f"{label} app": apps.get_app_config(label).verbose_name for label in OUR_APPS}
    for model in our_models():
        names |= names_of(model)
    return names


def test_every_model_names_itself_in_meta_both_singular_and_plural() -> None:
    """Django would make a plural by adding "s" ("Sents", "pool entrys"), untranslated."""
    unnamed = [model._meta.label for model in our_models()
               if not {"verbose_name", "verbose_name_plural"} <= set(model._meta.original_attrs)]
    assert unnamed == []


def test_every_name_is_a_lazy_translation() -> None:
    """A plain string (Django's default from the attribute's name, or an English
    literal) is English on every page, whatever the admin's language."""
    plain = [where for where, name in every_name().items() if not isinstance(name, Promise)]
    assert plain == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_name_has_a_translation(language: str) -> None:
    names = every_name()
    with translation.override("en"):
        english = {where: str(name) for where, name in names.items()}
    with translation.override(language):
        translated = {where: str(name) for where, name in names.items()}
    untranslated = sorted(f"{where}: {english[where]!r}" for where, text in translated.items()
                          if not text.strip() or (text == english[where] and (language, text) not in SAME_WORD))
    assert untranslated == []


# Choice labels that are the same in every language: the games' own names, each
# language's name in itself, and a board's result in symbols.
SAME_EVERYWHERE = {"Ace in the Hole", "Rhombus", "Rhombus Formation", "English", "Deutsch", "Español", "Русский",
                   "1-0", "0-1", "½-½", "+ −", "− +", "− −"}


def choice_labels() -> dict[str, str]:
    """Every choice label of our models' fields as worded in the active language
    (callable choices, as the bot levels and the ladders are, worded now too)."""
    return {f"{model._meta.label}.{field.name}={value!r}": str(label)
            for model in our_models() for field in named_fields(model) if getattr(field, "choices", None)
            for value, label in field.flatchoices}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_choice_a_list_or_a_filter_shows_is_translated(language: str) -> None:
    """A status, a colour, an act's kind: a German admin read "open", "Red",
    "Rhombus, teams" in English in filters and columns."""
    with translation.override("en"):
        english = choice_labels()
    with translation.override(language):
        translated = choice_labels()
    untranslated = sorted(f"{where}: {english[where]!r}" for where, text in translated.items()
                          if text == english[where] and text not in SAME_EVERYWHERE
                          and (language, text) not in SAME_WORD)
    assert untranslated == []


# --- The walk ------------------------------------------------------------------

# Our English names that are German words too: written the same way in our German
# (but for the capital), or Django's own ("Start", its breadcrumbs' first link).
GERMAN_SAME = {"chat", "follower", "match", "moderation", "moderator", "name", "notation", "partner", "start",
               "status", "text", "version"}


class AdminLabels(HTMLParser):
    """The admin's own words on a page, not the rows' data: titles and headings,
    column heads, form labels, breadcrumbs, the model lists, the actions menu and
    the add button."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.open: list[list[Any]] = []  # [tag, depth] of each labelled element we are inside
        self.in_action_menu = False

    def labelled(self, tag: str, attrs: dict[str, str | None]) -> bool:
        classes = (attrs.get("class") or "").split()
        return (tag in ("title", "h1", "h2", "h3", "label", "caption", "thead")
                or (tag == "th" and attrs.get("scope") == "row")
                or (tag == "a" and "addlink" in classes)
                or (tag in ("div", "nav") and "breadcrumbs" in classes)
                or (tag == "option" and self.in_action_menu))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "select":
            self.in_action_menu = values.get("name") == "action"
        if self.open and self.open[-1][0] == tag:
            self.open[-1][1] += 1
        elif self.labelled(tag, values):
            self.open.append([tag, 1])

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.in_action_menu = False
        if self.open and self.open[-1][0] == tag:
            self.open[-1][1] -= 1
            if self.open[-1][1] == 0:
                self.open.pop()

    def handle_data(self, data: str) -> None:
        if self.open:
            self.parts.append(data)


def admin_words(html: str) -> str:
    parser = AdminLabels()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def english_names_pattern() -> re.Pattern[str]:
    """Our English names as whole words, but those German writes the same way: a
    name whose translation is lost then shows in English and is found."""
    with translation.override("en"):
        english = {str(name) for name in every_name().values()}
    words = sorted((word for word in english if word.lower() not in GERMAN_SAME), key=len, reverse=True)
    # Not a key written in code, as rooms and notices are named ("game:12", "digest:2026-11-28").
    return re.compile(rf"(?<![\w-])(?:{'|'.join(map(re.escape, words))})(?![\w-]|:\w)", re.IGNORECASE)


def one_of_everything(superuser: Any, alice: Any, bob: Any, organizer: Any = None) -> None:
    """A row of each of our models, so that each change page and inline is shown."""
    game = finished_game(alice, bob)  # with its seats, moves, rating changes and players
    now = timezone.now()
    report = file_report(bob, "alice", "abuse", "unfreundlich")
    act(superuser, ModerationAction.Kind.RESTRICT_RATED, user=alice, report=report, days=3)
    line = Line.objects.create(room=f"game:{game.pk}", author=alice, text="hallo")
    Mute.objects.create(user=bob, muted=alice)
    ChatTimeout.objects.create(user=alice, reason=ChatTimeout.Reason.SPAM, ends=now + timedelta(minutes=15),
                               moderator=superuser)
    RoomLock.objects.create(room=line.room, ends=now + timedelta(hours=1), moderator=superuser)
    Seek.objects.create(creator=alice, time_control="5+3")
    Challenge.objects.create(challenger=alice, challenged=bob, time_control="5+3",
                             expires_at=now + timedelta(minutes=5))
    Ban.objects.create(user=bob, started=now, ends=now + timedelta(minutes=15), offence="abort", game=game)
    Notification.objects.create(user=alice, kind="follower", key="user:1")
    NoticePreference.objects.create(user=alice, kind="follower")
    PushSubscription.objects.create(user=alice, endpoint="https://push.example.org/abc", p256dh="k", auth="a")
    Sent.objects.create(user=alice, kind="turn", key="digest:2026-11-28")
    Preference.objects.create(user=alice, language="de")
    Follow.objects.create(follower=alice, followed=bob)
    cup = Tournament.objects.create(name="Herbstpokal", organizer=organizer or superuser, starts_at=now + timedelta(hours=1))
    first, second = (Entry.objects.create(tournament=cup, user=user) for user in (alice, bob))
    Pairing.objects.create(round=Round.objects.create(tournament=cup, number=1), board=1, red=first, black=second)
    ForbiddenPairing.objects.create(tournament=cup, first=first, second=second)


def admin_pages(model: type[models.Model]) -> list[str]:
    """The model's list, its add form where there is one, and its first row's page."""
    opts = model._meta
    pages = [reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")]
    try:
        pages.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_add"))
    except NoReverseMatch:
        pass
    row = model._default_manager.order_by("pk").first()
    if row is not None:
        pages.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[row.pk]))
    return pages


def staff_in(group: str, django_user_model: Any) -> Any:
    user = django_user_model.objects.create_user(group.lower(), f"{group.lower()}@example.org", is_staff=True)
    user.groups.add(staff_group(group))
    return django_user_model.objects.get(pk=user.pk)  # fresh: permissions are cached per object


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["superuser", "Moderators", "Organizers"])
def test_the_admin_in_german_shows_none_of_our_english_names(role: str, alice: Any, bob: Any,
                                                             django_user_model: Any) -> None:
    """As a superuser, a moderator and an organizer (the tournament is hers): every
    page each may open. A page one may not open is not shown to them (the index
    lists what they may see), so a refusal is skipped, but each sees several."""
    superuser = django_user_model.objects.create_superuser("root", "root@example.org", "password")
    viewer = superuser if role == "superuser" else staff_in(role, django_user_model)
    one_of_everything(superuser, alice, bob, organizer=viewer)
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(viewer)
    english = english_names_pattern()
    pages = ["/admin/"] + [page for model in admin.site._registry for page in admin_pages(model)]
    found, seen = {}, 0
    for page in pages:
        response = client.get(page)
        if response.status_code in (302, 403) and (role != "superuser" or page.endswith("/add/")):
            continue  # not theirs to open (the admin offers no link), or rows the site makes itself
        assert response.status_code == 200, page
        seen += 1
        if hits := sorted(set(english.findall(admin_words(response.content.decode())))):
            found[page] = hits
    assert found == {}
    assert seen >= {"superuser": 60, "Moderators": 30, "Organizers": 8}[role], seen
    index = client.get("/admin/").content.decode()
    assert "aceweb-Verwaltung" in index and "Django" not in index


@pytest.mark.django_db
def test_a_push_subscription_is_named_by_its_user_and_push_service(alice: Any) -> None:
    subscription = PushSubscription.objects.create(user=alice, endpoint="https://fcm.googleapis.com/fcm/send/x1",
                                                   p256dh="key", auth="secret")
    assert str(subscription) == "alice (fcm.googleapis.com)"


@pytest.mark.django_db
def test_a_game_reads_in_the_admins_language(alice: Any, bob: Any) -> None:
    game = finished_game(alice, bob)
    with translation.override("de"):
        assert str(game) == f"Partie {game.pk}: alice v bob (Beendet)"
    with translation.override("ru"):
        assert str(Game.objects.get(pk=game.pk)).startswith(f"Партия {game.pk}: ")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_admin_header_tab_and_front_page_name_aceweb_in_each_language(language: str) -> None:
    titles = (admin.site.site_header, admin.site.site_title, admin.site.index_title)
    with translation.override("en"):
        english = [str(title) for title in titles]
    with translation.override(language):
        translated = [str(title) for title in titles]
    assert all("aceweb" in title for title in translated)
    assert all(mine != theirs for mine, theirs in zip(translated, english))
