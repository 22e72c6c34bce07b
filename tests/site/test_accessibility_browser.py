"""axe-core (WCAG 2.0 and 2.1, levels A and AA) finds nothing on any page, in real
Chromium against daphne, at desktop width (1280×800). Phone width (390×844) is
test_language_walk_browser.py's, in each language, on every page kind.

The pages are filled as people find them: both games' boards (home, rules, live
games as a player with a card chosen and as a spectator, replays of running and
finished games), the lobby, the ladder, a profile, the tournament list and a
running tournament's page with its bracket. axe-core is kept beside this file
(tests/site/axe.py).
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import Browser, Page

from games import finishing, starting
from tournaments import entering, organizing
from tournaments.models import Tournament
from notify import notices
from tests.games.conftest import fast_password_hashing, services, session_cookie  # noqa: F401 (shared)
from tests.site.axe import AXE, axe_violations, load_axe, my_turn
from tests.site.world import play_first_legal
from tests.tournaments.conftest import organizer, players  # noqa: F401 (shared)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


@pytest.fixture
def daphne_server(shared_daphne_server: str) -> str:
    """One daphne for the file: its tests keep nothing in daphne's memory."""
    return shared_daphne_server


DESKTOP = {"width": 1280, "height": 800}


def running_tournament(organizer: Any, users: list[Any], **fields: Any) -> Tournament:
    """Started early, its first round's games running: a knockout's bracket, a Swiss's standings."""
    tournament = Tournament.objects.create(
        name="Winter Cup", organizer=organizer, pause_seconds=0,
        starts_at=timezone.now() + timedelta(minutes=30), time_control="5+3", **fields)
    for user in users:
        entering.join(tournament.pk, user)
        if tournament.check_in_minutes:
            entering.check_in(tournament.pk, user)
    return organizing.start_early(tournament.pk, organizer)


@pytest.fixture
def site(alice: Any, bob: Any, charlie: Any, dave: Any, organizer: Any, players: Any) -> dict[str, Any]:
    """The pages' contents, made before Playwright's loop takes the thread."""
    ace_live = starting.start_game(alice, bob, seed="axe-ace-live")
    play_first_legal(ace_live, 4)
    ace_over = starting.start_game(bob, alice, seed="axe-ace-over")
    play_first_legal(ace_over, 6)
    finishing.resign(ace_over.pk, bob)
    rhombus_live = starting.start_game(alice, bob, seed="axe-rhombus-live", setup=starting.Setup("rhombus"))
    play_first_legal(rhombus_live, 4)
    # alice and charlie partners (SW, NE, RH31): alice and bob may still meet in another game (RH36)
    rhombus_four = starting.start_game(alice, bob, charlie, dave, seed="axe-rhombus-four",
                                       setup=starting.Setup("rhombus"))
    play_first_legal(rhombus_four, 4)  # every seat's colour in the action list
    rhombus_over = starting.start_game(bob, alice, seed="axe-rhombus-over", setup=starting.Setup("rhombus"))
    play_first_legal(rhombus_over, 3)
    finishing.resign(rhombus_over.pk, alice)
    knockout = running_tournament(organizer, players(4), format=Tournament.Format.SINGLE, check_in_minutes=60)
    swiss = running_tournament(organizer, players(4), format=Tournament.Format.SWISS, rounds=3)
    notices.send(alice.pk, "follower", f"user:{bob.pk}", {"username": "bob"}, "/@/bob/")  # the bell and its page
    return {"alice": session_cookie(alice), "organizer": session_cookie(organizer), "ace_live": ace_live.pk, "ace_over": ace_over.pk,
            "rhombus_live": rhombus_live.pk, "rhombus_four": rhombus_four.pk,
            "rhombus_over": rhombus_over.pk, "knockout": knockout.pk, "swiss": swiss.pk}


def pages_of(site: dict[str, Any]) -> list[str]:
    games = [site[key] for key in ("ace_live", "ace_over", "rhombus_live", "rhombus_four", "rhombus_over")]
    return (["/", "/rules/ace-in-the-hole/", "/rules/rhombus/", "/lobby/", "/ladder/", "/@/alice/",
             "/tournaments/", f"/tournaments/{site['knockout']}/", f"/tournaments/{site['swiss']}/",
             "/notifications/", "/account/preferences/", "/games/live/", "/tv/"]
            + [f"/games/{game}/" for game in games] + [f"/games/{game}/replay/" for game in games])


def settle(page: Page) -> float:
    """Wait for what the sockets draw; on alice's live game with her turn, choose
    her first playable card, so that the lit squares and the move buttons are checked too.
    Returns the moment from which SETTLE_SECONDS more are to pass before axe looks."""
    game = page.locator("#game")
    if game.count():
        page.locator('#game[data-state="live"]').wait_for()
        if my_turn(page):
            page.locator("#hand .card:not(.card--idle)").first.click()
            page.locator("#hand-actions button, #board .square--from").first.wait_for()
    return time.monotonic()


def violations(page: Page, path: str) -> list[str]:
    """axe-core's findings on the page, SETTLE_SECONDS after it has settled at the earliest."""
    load_axe(page, settle(page))
    return [f"{path}: {violation}" for violation in axe_violations(page)]


def test_axe_core_finds_no_wcag_a_or_aa_violation_on_any_page(
        site: dict[str, Any], daphne_server: str, chromium_browser: Browser) -> None:
    problems: list[str] = []
    for cookie in (site["alice"], None):
        context = chromium_browser.new_context(viewport=DESKTOP)
        if cookie:
            context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": daphne_server}])
        page = context.new_page()
        for path in pages_of(site):
            page.goto(daphne_server + path)
            who = "alice" if cookie else "visitor"
            problems += [f"{who}, {problem}" for problem in violations(page, path)]
        context.close()
    assert not problems, "axe-core found:\n" + "\n".join(problems)


def test_axe_core_finds_no_violation_on_the_organizers_pages(
        site: dict[str, Any], daphne_server: str, chromium_browser: Browser) -> None:
    """The tournament pages with an organizer's controls, and the form that makes one."""
    problems: list[str] = []
    paths = ["/tournaments/new/", f"/tournaments/{site['knockout']}/", f"/tournaments/{site['swiss']}/"]
    context = chromium_browser.new_context(viewport=DESKTOP)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": site["organizer"], "url": daphne_server}])
    page = context.new_page()
    for path in paths:
        page.goto(daphne_server + path)
        problems += [f"organizer, {problem}" for problem in violations(page, path)]
    context.close()
    assert not problems, "axe-core found:\n" + "\n".join(problems)


def test_the_kept_axe_core_is_a_4_x_release(daphne_server: str, chromium_browser: Browser) -> None:
    page = chromium_browser.new_page()
    page.goto(daphne_server + "/rules/ace-in-the-hole/")
    page.add_script_tag(path=str(AXE))
    assert page.evaluate("axe.version").startswith("4.")
    assert "Mozilla Public License" in (AXE.parent / "LICENSE").read_text()
